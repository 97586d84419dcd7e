import type { RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import type { AuditStore } from '../stores/audit.store';
import { AppError } from '../errors';
import { problemFromError } from '../http/problem.middleware';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const SECRET_KEY = /password|secret|token|credential/i;

/** The request body with secrets dropped, for the audit log. */
export function redact(value: unknown): Record<string, unknown> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).filter(([k]) => !SECRET_KEY.test(k)));
}

/** The id a create returned (cluster, token, user, organization), for the audit log. */
function createdId(body: any): string | null {
  const id = body?.id ?? body?.cluster?.id ?? body?.organization?.id ?? body?.user?.id;
  return typeof id === 'string' ? id : null;
}

/**
 * Records every successful change (any non-GET request answered below 400) a signed-in principal
 * makes: who, which route, which resource, the body without secrets. Part of the `user`
 * authenticator (operation-router's useAuthenticators), so it runs once for every user route the
 * table declares, routes added later included.
 *
 * The entry is written before the answer leaves: a client that sees a 2xx knows its change is in
 * the log. If the write fails, the client gets a 500 `internal` instead of its 2xx (the change
 * itself is already done and is not rolled back).
 */
export const auditChanges = (audit: AuditStore, log: Logger): RequestHandler => Object.assign(((req, res, next) => {
  if (SAFE_METHODS.has(req.method)) return next();
  let responseBody: unknown;
  const json = res.json.bind(res);
  res.json = (b: unknown) => { responseBody = b; return json(b); };
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  let recorded = false;
  res.end = ((...args: unknown[]) => {
    const p = req.principal;
    if (recorded || !p || res.statusCode >= 400) return end(...args);
    recorded = true;
    const route = req.route?.path ? `${req.baseUrl}${req.route.path === '/' ? '' : req.route.path}` : req.originalUrl.split('?')[0];
    const targetId = (req.params as Record<string, string | undefined>)?.id ?? createdId(responseBody);
    const body = redact(req.body);
    // A create names its resource in the body ({"name": ...}) before any row holds it under that id.
    const createdName = req.method === 'POST' && typeof body.name === 'string' && !(req.params as Record<string, string | undefined>)?.id ? body.name : undefined;
    const dryRun = req.query?.dryRun === 'true';
    audit.record(p, { action: `${req.method} ${route}`, targetId, status: res.statusCode, detail: body, targetName: createdName, dryRun }).then(
      () => end(...args),
      (err) => {
        log.error({ err, path: req.originalUrl }, 'audit record failed; answering 500');
        const problem = problemFromError(new AppError(500, 'internal', 'Internal error', 'The change was made but could not be recorded in the audit log; it has been logged.'), req.originalUrl);
        res.statusCode = 500;
        for (const h of ['Content-Length', 'Location', 'ETag']) res.removeHeader(h);
        res.setHeader('Content-Type', 'application/problem+json');
        end(JSON.stringify(problem));
      },
    );
    return res;
  }) as typeof res.end;
  next();
}) as RequestHandler, { authStep: 'auditChanges' });
