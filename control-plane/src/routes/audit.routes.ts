import { Router } from 'express';
import { AuditQuery } from '@strata/api';
import { parseBody } from '../http/validate';
import { requireScope } from '../auth/permissions';
import type { AuditStore } from '../stores/audit.store';

/** Who changed what in the caller's organization, newest first (organization admins). */
export function auditRoutes(d: { audit: AuditStore }): Router {
  const r = Router();
  r.get('/', requireScope('admin'), async (req, res) => {
    const q = parseBody(AuditQuery, req.query);
    res.json(await d.audit.list(req.principal!.organizationId, q));
  });
  return r;
}
