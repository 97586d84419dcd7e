import { Router } from 'express';
import { parseUuid } from '../http/validate';
import { conflict, notFound } from '../errors';
import { mountOperation } from '../http/operation-router';
import { publicOperation, type OperationStore } from '../stores/operation.store';
import { cancellable } from '../reconciler/update-cluster.steps';

export function operationRoutes(d: { operations: OperationStore; onOperationControl?: (clusterId: string) => void }): Router {
  const r = Router();
  mountOperation(r, '/v1/operations', 'getOperation', async ({ req }) => {
    const op = await d.operations.get(parseUuid(req.params.id, 'Operation'), req.principal!.organizationId);
    if (!op) throw notFound('Operation');
    return publicOperation(op);
  });

  /** Pause, resume and cancel of a running update (topology change). */
  const control = (action: 'pause' | 'resume' | 'cancel') => mountOperation(r, '/v1/operations', `${action}Operation`, async ({ req }) => {
    const orgId = req.principal!.organizationId;
    const op = await d.operations.get(parseUuid(req.params.id, 'Operation'), orgId);
    if (!op) throw notFound('Operation');
    if (action === 'cancel' && op.kind === 'restart-cluster') {
      // A restart can be cancelled while it waits for the maintenance window; once it rolls, it finishes.
      if (!(await d.operations.cancelWaiting(op.id, orgId))) throw conflict('invalid_state', `The restart is ${op.state === 'pending' ? 'starting' : op.state}; only one still waiting for the maintenance window can be cancelled.`);
      d.onOperationControl?.(op.clusterId);
      return publicOperation((await d.operations.get(op.id, orgId))!);
    }
    if (op.kind !== 'update-cluster') throw conflict('invalid_state', `Only update-cluster operations can be paused, resumed or cancelled; this one is ${op.kind}.`);
    if (action === 'cancel' && !op.cancelRequested && !cancellable(op)) {
      throw conflict('invalid_state', 'The change is past its point of no return (instances are being removed); it will finish.');
    }
    const change = action === 'pause' ? { paused: true } : action === 'resume' ? { paused: false } : { cancelRequested: true, paused: false };
    if (!(await d.operations.setControl(op.id, orgId, change))) throw conflict('invalid_state', `The operation is ${op.state}.`);
    d.onOperationControl?.(op.clusterId);
    return publicOperation((await d.operations.get(op.id, orgId))!);
  });
  control('pause');
  control('resume');
  control('cancel');
  return r;
}
