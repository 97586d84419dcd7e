import { Router } from 'express';
import { mountOperation } from '../http/operation-router';
import type { AuditStore } from '../stores/audit.store';

/** Who changed what in the caller's organization, newest first (organization admins); declared in OPERATION_TABLE. */
export function auditRoutes(d: { audit: AuditStore }): Router {
  const r = Router();
  mountOperation(r, '/v1/audit', 'listAudit', async ({ req, query }) => d.audit.list(req.principal!.organizationId, query));
  return r;
}
