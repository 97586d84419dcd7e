import { z, Id, Timestamp } from './common';

export const OperationKind = z.enum(['create-cluster', 'delete-cluster']);
export type OperationKind = z.infer<typeof OperationKind>;
export const OperationState = z.enum(['pending', 'running', 'succeeded', 'failed', 'cancelled']);
export type OperationState = z.infer<typeof OperationState>;
export const StepState = z.enum(['pending', 'running', 'succeeded', 'failed']);
export type StepState = z.infer<typeof StepState>;

export const OperationStep = z
  .object({
    name: z.string().describe('stable step id, e.g. start-instances'),
    title: z.string().describe('human-readable step title'),
    state: StepState,
    detail: z.string().optional(),
    startedAt: Timestamp.optional(),
    finishedAt: Timestamp.optional(),
  })
  .openapi('OperationStep');
export type OperationStep = z.infer<typeof OperationStep>;

export const OperationError = z.object({ code: z.string(), message: z.string() });

export const Operation = z
  .object({
    id: Id,
    clusterId: Id,
    kind: OperationKind,
    state: OperationState,
    progress: z.number().min(0).max(1),
    steps: z.array(OperationStep),
    error: OperationError.optional(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    finishedAt: Timestamp.optional(),
  })
  .openapi('Operation');
export type Operation = z.infer<typeof Operation>;

export const OperationList = z.object({ items: z.array(Operation) }).openapi('OperationList');
export type OperationList = z.infer<typeof OperationList>;
