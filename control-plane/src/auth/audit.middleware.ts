import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { AuditStore } from '../stores/audit.store';

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
 * Records every successful change (any non-GET request answered below 400) a
 * signed-in principal makes: who, which route, which resource, the body without
 * secrets. Mounted once in front of the user routes, so routes added later are
 * audited without doing anything.
 */
export const auditChanges = (audit: AuditStore, log: Logger): RequestHandler => (req, res, next) => {
  if (SAFE_METHODS.has(req.method)) return next();
  let responseBody: unknown;
  const json = res.json.bind(res);
  res.json = (b: unknown) => { responseBody = b; return json(b); };
  res.on('finish', () => {
    const p = req.principal;
    if (!p || res.statusCode >= 400) return;
    const route = req.route?.path ? `${req.baseUrl}${req.route.path === '/' ? '' : req.route.path}` : req.originalUrl.split('?')[0];
    const targetId = (req.params as Record<string, string | undefined>)?.id ?? createdId(responseBody);
    audit.record(p, { action: `${req.method} ${route}`, targetId, status: res.statusCode, detail: redact(req.body) })
      .catch((err) => log.error({ err }, 'audit record failed'));
  });
  next();
};
