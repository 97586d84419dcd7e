/**
 * A cluster's phase and conditions, decided in one function and written in
 * one place. The phase follows the operation that runs (provisioning,
 * updating, deleting) and otherwise what agents observe (ready, degraded);
 * an operation that ends adds its own condition (Provisioned, Updated, ...)
 * to what is observed, never instead of it. Conditions are merged by type:
 * a condition whose status did not change keeps its `lastTransitionAt`.
 */
import type { ClusterPhase, Condition, OperationKind, OperationState } from '@strata/api';
import type { Db } from '../db/tx';
import type { ClusterStore } from '../stores/cluster.store';
import { condition } from './condition';

/** What observations say about a provisioned cluster (`evaluateHealth`). 'unknown': nodes' first reports are still awaited. */
export interface HealthVerdict {
  phase: 'ready' | 'degraded' | 'unknown';
  conditions: Condition[];
}

export interface StatusInput {
  /** What the cluster row holds now. */
  stored: { phase: ClusterPhase; conditions: Condition[]; generation: number; observedGeneration: number };
  /** The operation this pass drives, is starting, or just finished; null when none runs. */
  operation: { kind: OperationKind; state: OperationState; error?: { code: string; message: string } } | null;
  /** What observations say; null when they were not looked at (the stored conditions stand). */
  health: HealthVerdict | null;
  /** Clock for new conditions (tests pin it). */
  now?: () => string;
}

export interface ClusterStatus {
  phase: ClusterPhase;
  conditions: Condition[];
  /** The status reflects the current spec: observedGeneration becomes generation. */
  observed: boolean;
}

/** Phase of a cluster while an operation of this kind runs (null: the phase stays what observations say). */
const RUNNING_PHASE: Record<OperationKind, ClusterPhase | null> = {
  'create-cluster': 'provisioning',
  'update-cluster': 'updating',
  'delete-cluster': 'deleting',
  switchover: null,
  'restart-cluster': 'updating',
  'rotate-ca': null,
  'tls-switch': 'updating',
};

/** Phase once an operation of this kind failed, and the condition that says why. */
const FAILED: Record<OperationKind, { phase: ClusterPhase; type: string }> = {
  'create-cluster': { phase: 'failed', type: 'Provisioned' },
  'delete-cluster': { phase: 'failed', type: 'Deleted' },
  // Healing takes over from here (open slots are closed, instances held to the stored topology).
  'update-cluster': { phase: 'degraded', type: 'Updated' },
  switchover: { phase: 'degraded', type: 'Switchover' },
  'restart-cluster': { phase: 'degraded', type: 'Restarted' },
  'rotate-ca': { phase: 'degraded', type: 'CaRotated' },
  'tls-switch': { phase: 'degraded', type: 'TlsSwitched' },
};

const isOpen = (s: OperationState) => s === 'pending' || s === 'running';

/**
 * The status a cluster should show, or null when there is nothing to decide
 * (no operation and no verdict from observations, or observations still
 * awaited): the stored status stands.
 */
export function deriveStatus(input: StatusInput): ClusterStatus | null {
  const { stored, operation: op, health } = input;
  const now = input.now ?? (() => new Date().toISOString());
  const seen = health && health.phase !== 'unknown' ? health : null;
  let phase: ClusterPhase;
  let base: Condition[] = seen ? seen.conditions : stored.conditions;
  let observed = false;
  if (op && isOpen(op.state)) {
    phase = RUNNING_PHASE[op.kind] ?? (seen ? seen.phase as ClusterPhase : stored.phase);
    // A cluster being deleted shows no health: it is going away.
    if (op.kind === 'delete-cluster') base = [];
  } else if (op?.state === 'failed') {
    const f = FAILED[op.kind];
    phase = f.phase;
    if (op.kind === 'delete-cluster') base = [];
    const error = op.error ?? { code: 'failed', message: `${op.kind} failed` };
    // Why it failed comes first; what is observed follows.
    base = [{ ...condition(f.type, 'false', error.code, error.message), lastTransitionAt: now() }, ...base.filter((c) => c.type !== f.type)];
  } else if (op && (op.state === 'succeeded' || op.state === 'cancelled')) {
    if (op.kind === 'delete-cluster') return null;
    // Create and update end only once every member agrees (their verify steps): the cluster is ready at its spec.
    phase = op.kind === 'switchover' ? (seen?.phase as ClusterPhase | undefined) ?? stored.phase : 'ready';
    observed = op.kind !== 'switchover' || phase === 'ready';
  } else {
    if (!seen) return null;
    phase = seen.phase as ClusterPhase;
    observed = phase === 'ready';
  }
  return { phase, conditions: mergeConditions(stored.conditions, base), observed };
}

/** `next`, where a condition whose type and status are unchanged keeps its stored `lastTransitionAt`. */
export function mergeConditions(stored: Condition[], next: Condition[]): Condition[] {
  return next.map((c) => {
    const prev = stored.find((p) => p.type === c.type);
    return prev && prev.status === c.status ? { ...c, lastTransitionAt: prev.lastTransitionAt } : c;
  });
}

/** Does writing `next` change anything a reader sees? */
export function statusChanged(stored: StatusInput['stored'], next: ClusterStatus): boolean {
  const key = (cs: Condition[]) => JSON.stringify(cs.map((c) => [c.type, c.status, c.reason, c.message]));
  return next.phase !== stored.phase || key(next.conditions) !== key(stored.conditions)
    || (next.observed && stored.observedGeneration < stored.generation);
}

/**
 * The one writer of `clusters.phase`, `clusters.conditions` and
 * `observed_generation`: derives the status and stores it if it changed.
 * `db` puts the write in the caller's transaction (an operation created with
 * it). Returns what was derived (null: nothing to decide).
 */
export async function writeStatus(
  clusters: Pick<ClusterStore, 'setStatus'>, clusterId: string, input: StatusInput, db?: Db,
): Promise<ClusterStatus | null> {
  const next = deriveStatus(input);
  if (next && statusChanged(input.stored, next)) await clusters.setStatus(clusterId, next, db);
  return next;
}

/** The `stored` input from a cluster row. */
export const storedStatus = (c: { status: { phase: ClusterPhase; conditions: Condition[] }; generation: number; observedGeneration: number }): StatusInput['stored'] =>
  ({ phase: c.status.phase, conditions: c.status.conditions, generation: c.generation, observedGeneration: c.observedGeneration });

/** The status of a cluster row about to be inserted with its create operation. */
export function initialStatus(): ClusterStatus {
  return deriveStatus({
    stored: { phase: 'provisioning', conditions: [], generation: 1, observedGeneration: 0 },
    operation: { kind: 'create-cluster', state: 'pending' },
    health: null,
  })!;
}
