import { z, Id, Timestamp } from './common';

export const OperationKind = z.enum(['create-cluster', 'delete-cluster', 'update-cluster', 'switchover', 'restart-cluster', 'rotate-ca', 'tls-switch']);
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

/** Live slot migration of an update (resharding), as the agent running it reports. */
export const MigrationProgress = z
  .object({
    slotsDone: z.number().int(),
    slotsTotal: z.number().int(),
    keysMoved: z.number().int(),
    bytesMoved: z.number().int().describe('approximate: keys moved times the bytes a key takes on its source (used memory / keys)'),
    keysPerSec: z.number().describe('over the last few seconds'),
    etaSeconds: z.number().nullable(),
    /** The slot being moved now, if any. */
    currentSlot: z.number().int().nullable(),
  })
  .openapi('MigrationProgress');
export type MigrationProgress = z.infer<typeof MigrationProgress>;

export const Operation = z
  .object({
    id: Id,
    clusterId: Id,
    kind: OperationKind,
    state: OperationState,
    progress: z.number().min(0).max(1),
    steps: z.array(OperationStep),
    error: OperationError.optional(),
    migration: MigrationProgress.optional().describe('update-cluster: slot migration progress while slots move'),
    paused: z.boolean().optional().describe('update-cluster: paused by the user (every slot has one owner meanwhile)'),
    cancelRequested: z.boolean().optional().describe('update-cluster: cancel asked; slots move back, added instances are removed'),
    startsAt: Timestamp.optional().describe("an operation waiting for the cluster's maintenance window (state pending): when that window opens"),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    finishedAt: Timestamp.optional(),
  })
  .openapi('Operation');
export type Operation = z.infer<typeof Operation>;

export const OperationList = z.object({ items: z.array(Operation) }).openapi('OperationList');
export type OperationList = z.infer<typeof OperationList>;
