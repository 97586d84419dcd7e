/**
 * Request rate limits of the API: per client address for every /v1 request
 * but the agents' (they are counted by nothing: a fleet reports every
 * second), and per token or signed-in user once the caller is known. Over a
 * limit the answer is 429 `rate_limited` (problem+json) with `Retry-After`
 * and the draft-8 `RateLimit` headers; nothing of the request is done.
 */
import { rateLimit, ipKeyGenerator, type Options } from 'express-rate-limit';
import type { Request, RequestHandler } from 'express';
import { tooManyRequests } from '../errors';
import type { ApiLimits } from '../config';
import { callerKey } from '../auth/caller-key';

const pass: RequestHandler = (_req, _res, next) => next();

function limiter(limit: number, windowMs: number, what: string, key: (req: Request) => string, skip?: (req: Request) => boolean): RequestHandler {
  if (limit <= 0) return pass;
  const options: Partial<Options> = {
    windowMs,
    limit,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    keyGenerator: key,
    ...(skip ? { skip } : {}),
    handler: (req, _res, next) => {
      const info = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit;
      const seconds = Math.max(1, Math.ceil(((info?.resetTime?.getTime() ?? Date.now() + windowMs) - Date.now()) / 1000));
      next(tooManyRequests('rate_limited', 'Too many requests',
        `More than ${limit} requests in ${Math.round(windowMs / 1000)} s ${what}; nothing was done. Try again in ${seconds} s (Retry-After).`, seconds));
    },
  };
  return rateLimit(options);
}

/** Before authentication: every API request but the agents' counts against its client address (the console's files do not). */
export function addressLimit(l: ApiLimits): RequestHandler {
  return limiter(l.perIp, l.windowMs, 'from this address', (req) => ipKeyGenerator(req.ip ?? 'unknown'),
    (req) => !req.path.startsWith('/v1/') || req.path.startsWith('/v1/agent/'));
}

/** After authentication: the caller's token or user (one budget per user across sessions). */
export function callerLimit(l: ApiLimits): RequestHandler {
  return limiter(l.perToken, l.windowMs, 'with these credentials', (req) => (req.principal ? callerKey(req.principal) : `ip:${ipKeyGenerator(req.ip ?? 'unknown')}`));
}
