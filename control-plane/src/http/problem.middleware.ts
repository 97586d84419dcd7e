import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { Problem } from '@strata/api';
import { AppError } from '../errors';

function send(res: Parameters<RequestHandler>[1], p: Problem): void {
  res.status(p.status).type('application/problem+json').send(JSON.stringify(p));
}

export function problemFromError(err: unknown, instance?: string): Problem {
  if (err instanceof AppError) {
    return {
      type: `https://strata.dev/problems/${err.code}`,
      title: err.title,
      status: err.status,
      code: err.code,
      ...(err.detail ? { detail: err.detail } : {}),
      ...(instance ? { instance } : {}),
      ...(err.errors ? { errors: err.errors } : {}),
      ...(err.extra ?? {}),
    };
  }
  const e = err as { type?: string; status?: number };
  if (e?.type === 'entity.parse.failed') {
    return { type: 'https://strata.dev/problems/validation_failed', title: 'Invalid request', status: 400, code: 'validation_failed', detail: 'The body is not valid JSON.' };
  }
  if (e?.type === 'entity.too.large') {
    const limit = (err as { limit?: number }).limit;
    return {
      type: 'https://strata.dev/problems/payload_too_large', title: 'Payload too large', status: 413, code: 'payload_too_large',
      detail: `The request body is larger than the limit${limit ? ` of ${limit} bytes` : ''}; nothing was stored.`,
    };
  }
  // Any other error body-parser marks as the client's (an unsupported charset or Content-Encoding,
  // a corrupt gzip body, a truncated request): its own 4xx status, as a problem.
  const client = err as { expose?: boolean; status?: number; message?: string };
  if (client?.expose === true && typeof client.status === 'number' && client.status >= 400 && client.status < 500) {
    const code = client.status === 415 ? 'unsupported_media_type' : 'validation_failed';
    return {
      type: `https://strata.dev/problems/${code}`, title: client.status === 415 ? 'Unsupported media type' : 'Invalid request',
      status: client.status, code, detail: `${client.message ?? 'The request body cannot be read'}; nothing was stored.`,
    };
  }
  return { type: 'https://strata.dev/problems/internal', title: 'Internal error', status: 500, code: 'internal', detail: 'Something went wrong on our side; it has been logged.' };
}

export const errorHandler = (log: Logger): ErrorRequestHandler => (err, req, res, _next) => {
  const p = problemFromError(err, req.originalUrl);
  if (p.status >= 500) log.error({ err, path: req.originalUrl }, 'request failed');
  if (err instanceof AppError && err.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(err.retryAfterSeconds));
  send(res, p);
};

export const notFoundHandler: RequestHandler = (req, res) => {
  send(res, { type: 'https://strata.dev/problems/not_found', title: 'Not found', status: 404, code: 'not_found', detail: `No route for ${req.method} ${req.path}.`, instance: req.originalUrl });
};
