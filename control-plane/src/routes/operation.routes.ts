import { Router } from 'express';
import { parseUuid } from '../http/validate';
import { notFound } from '../errors';
import { requireScope } from '../auth/permissions';
import { publicOperation, type OperationStore } from '../stores/operation.store';

export function operationRoutes(d: { operations: OperationStore }): Router {
  const r = Router();
  r.get('/:id', requireScope('clusters:read'), async (req, res) => {
    const op = await d.operations.get(parseUuid(req.params.id, 'Operation'), req.principal!.organizationId);
    if (!op) throw notFound('Operation');
    res.json(publicOperation(op));
  });
  return r;
}
