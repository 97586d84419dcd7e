/**
 * How long a request may take to arrive. Node's own `requestTimeout` counts
 * from a request's first byte to its last for every route alike, so it would
 * cut a large upload on a slow link while its bytes still flow. The server
 * turns it off (`requestTimeout = 0`; `headersTimeout` still bounds the
 * headers) and this wrapper applies the same total deadline to every request
 * except those `streamsBody` names: their handler bounds them by idleness
 * instead (the RDB upload: no bytes for a while, backup-upload.ts). A request
 * not received in full by the deadline is answered `408 request_timeout`
 * (problem+json) and its connection closed, as Node does.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { problemFromError } from './problem.middleware';
import { AppError } from '../errors';

export const requestTimedOut = (ms: number, field?: string, detail?: string) =>
  new AppError(408, 'request_timeout', 'Request timeout', detail ?? `The request did not arrive in full within ${Math.round(ms / 1000)} s; nothing was stored.`,
    field ? [{ field, message: detail ?? `not received within ${Math.round(ms / 1000)} s` }] : undefined);

export function withRequestDeadline(
  handler: RequestListener,
  o: { totalMs: number; streamsBody: (req: IncomingMessage) => boolean },
): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    if (o.totalMs > 0 && !req.complete && !o.streamsBody(req)) {
      const timer = setTimeout(() => {
        if (req.complete) return;
        if (!res.headersSent) {
          const payload = JSON.stringify(problemFromError(requestTimedOut(o.totalMs), req.url));
          res.writeHead(408, { 'content-type': 'application/problem+json; charset=utf-8', 'content-length': Buffer.byteLength(payload), connection: 'close' });
          res.end(payload, () => req.socket.destroy());
        } else {
          req.socket.destroy();
        }
      }, o.totalMs);
      timer.unref();
      const clear = () => clearTimeout(timer);
      req.once('end', clear);
      res.once('close', clear);
    }
    handler(req, res);
  };
}
