import type { Operation } from '@strata/api';

/**
 * Where a cluster's creation stands for what may restart or promote its engines. Until the form-cluster step has
 * succeeded the engines hold nothing (a restored primary's file is loaded at its first start), so a crashed one just
 * starts again; from then on a restore may have loaded keys and replicas follow their primaries: a crashed primary
 * stays held and its replica is promoted, as healing does.
 */
export type CreateStage = 'not-create' | 'before-form' | 'formed';

export function createStage(op: Pick<Operation, 'kind' | 'steps'> | null | undefined): CreateStage {
  if (op?.kind !== 'create-cluster') return 'not-create';
  return op.steps.some((s) => s.name === 'form-cluster' && s.state === 'succeeded') ? 'formed' : 'before-form';
}
