/**
 * The operation planner's migrate-slots step (forward, or moving slots back
 * after a cancel): a pure function from the slot map wanted, the instances as
 * stored and observed, and what the migration's runs did, to the action to
 * take now (hand a run to shard 0's primary, record progress) and the step's
 * verdict. Every shard's primary is named from what the engines report
 * (Redis may fail a shard over during the change, which the stored roles
 * learn only afterwards).
 */
import type { MigrationProgress, SlotRange } from '../domain';
import type { OperationAction, OpInstance, StepVerdict } from './operation.planner';
import { expandRanges } from './topology.planner';
import { shardNames } from '../shard-label';

/** Failed runs of the migration before the operation fails. */
export const MIGRATE_ATTEMPTS = 5;

/** What the migration's latest run did. */
export interface MigrateRun {
  state: 'pending' | 'leased' | 'succeeded' | 'failed';
  updatedAt: number;
  error: string | null;
  result: {
    complete: boolean;
    slotsMoved: number;
    keysMoved: number;
    /** Each primary's own slot count and open slots, read after its last slot closed (complete runs). */
    final?: { instanceId: string; slotsOwned: number; openSlots: number }[];
  } | null;
}

export interface MigrateInput {
  /** Moving slots back after a cancel. */
  rollback: boolean;
  /** Slots each shard is to own, by shard index. */
  target: SlotRange[][];
  /** Instance rows the update created (a new primary is a member once it met the cluster). */
  added: string[];
  instances: OpInstance[];
  /** Did the new primary's meet task succeed? */
  met: (instanceId: string) => boolean;
  latest: MigrateRun | null;
  /** Failed runs so far (asked only when the latest failed). */
  failures: number;
  /** Progress of the run against the whole plan; what the operation shows now. */
  stats: MigrationProgress | null;
  shown: MigrationProgress | null;
  paused: boolean;
  /** When the operation started (ms epoch). */
  startedAt: number;
  now: number;
  headlessWaitMs: number;
  migrateRetryBaseMs: number;
  migrateReportWaitMs: number;
}

export type MigrateAction = Extract<OperationAction, { kind: 'record-progress' | 'migrate' }>;

const running = (i: OpInstance) => i.obs?.process === 'running';
const count = (r: SlotRange[]) => expandRanges(r).length;

/**
 * The instance serving as a shard's primary now: running and called primary
 * by its engine (the highest config epoch if two do, e.g. an old primary
 * back before it hears it was replaced). With no engine report yet, the
 * stored primary if it runs.
 */
export function shardPrimary(instances: OpInstance[], shard: number): OpInstance | undefined {
  const rows = instances.filter((i) => i.shard === shard && running(i));
  const reported = rows.filter((i) => i.obs?.view?.role === 'primary')
    .sort((a, b) => (b.obs!.view!.configEpoch ?? 0) - (a.obs!.view!.configEpoch ?? 0));
  if (reported.length) return reported[0];
  return rows.find((i) => i.role === 'primary' && !i.obs?.view);
}

export function planMigrateStep(input: MigrateInput): { actions: MigrateAction[]; verdict: StepVerdict } {
  const { target, latest, stats } = input;
  const primaryOf = (shard: number) => shardPrimary(input.instances, shard);
  const shards = [...new Set(input.instances.map((i) => i.shard))].sort((a, b) => a - b);
  const headless = shards.filter((s) => !primaryOf(s));
  // A new primary is a member once it met the cluster; a new replica promoted since (its primary died) joined as a replica.
  const member = (i: OpInstance) => !input.added.includes(i.id) || input.met(i.id) || (i.role !== 'primary' && (i.obs?.view?.knownNodes ?? 0) > 1);
  const livePrimaries = shards.flatMap((s) => {
    const i = primaryOf(s);
    return i && member(i) ? [i] : [];
  });
  const owns = (i: OpInstance) => i.obs?.view?.slotsOwned ?? -1;
  // Open slots of the shards' primaries only: an old primary back with a stale nodes.conf may show marks it no
  // longer acts on (it is not migrated from or to, and heal turns it into a replica after the operation).
  const open = livePrimaries.some((i) => (i.obs?.view?.openSlots.length ?? 0) > 0);
  const settled = !open && target.every((r, shard) => { const pr = primaryOf(shard); return !!pr && owns(pr) === count(r); })
    && livePrimaries.filter((i) => i.shard >= target.length).every((i) => owns(i) === 0);
  const result = latest?.result;
  const actions: MigrateAction[] = [];
  // Stored before the done check: the pass that sees the run finished may be the first since its last progress report.
  if (stats && latest && (latest.state === 'leased' || latest.state === 'pending' || !input.shown || input.shown.slotsDone !== stats.slotsDone)) {
    actions.push({ kind: 'record-progress', stats });
  }
  const verdict = (v: StepVerdict) => ({ actions, verdict: v });
  // The run's own end state (each primary read after its last slot closed) stands for the reports still on their way.
  const reportedByRun = latest?.state === 'succeeded' && !!result?.complete && !!result.final && livePrimaries.length >= target.length
    && target.every((_, shard) => !!primaryOf(shard))
    && livePrimaries.every((i) => {
      const f = result.final!.find((x) => x.instanceId === i.id);
      return !!f && f.openSlots === 0 && f.slotsOwned === (i.shard < target.length ? count(target[i.shard]!) : 0);
    });
  if (latest?.state === 'succeeded' && result?.complete && (settled || reportedByRun)) {
    return verdict({ kind: 'done', detail: `${result.slotsMoved} slots, ${result.keysMoved} keys moved` });
  }
  const fraction = stats && stats.slotsTotal ? stats.slotsDone / stats.slotsTotal : 0;
  const detail = stats ? `${stats.slotsDone}/${stats.slotsTotal} slots, ${stats.keysMoved} keys moved, ${stats.keysPerSec} keys/s${stats.etaSeconds !== null ? `, ETA ${stats.etaSeconds}s` : ''}` : 'starting';
  if (latest && (latest.state === 'pending' || latest.state === 'leased')) return verdict({ kind: 'wait', detail, fraction });
  if (input.paused) return verdict({ kind: 'wait', detail: `paused at ${detail}; every slot has one owner`, fraction });
  if (latest?.state === 'succeeded' && result?.complete && input.now - latest.updatedAt < input.migrateReportWaitMs) {
    return verdict({ kind: 'wait', detail: 'waiting for every node to report the new slot map', fraction: 0.99 });
  }
  // A primary is gone and its replica not promoted yet (Redis fails a shard over after cluster-node-timeout): an
  // attempt now would only fail. Waiting costs no attempt. (A member left in cluster_state:fail by a source that
  // died mid-move is not waited for: the next attempt points its open slots at the live owner, which ends it.)
  // Bounded: a shard whose replica cannot be promoted (none in sync, no majority of primaries) must not hold the
  // operation forever. It fails, and healing (which does not run during an operation) takes over.
  if (headless.length) {
    const waitingSince = latest?.updatedAt ?? input.startedAt;
    if (input.now - waitingSince < input.headlessWaitMs) {
      return verdict({ kind: 'wait', detail: `${detail}; waiting for ${shardNames(headless)} to have a primary again (failover)`, fraction });
    }
    return verdict({ kind: 'failed', code: 'shard_without_primary', message: `${shardNames(headless)} has had no running primary for ${input.headlessWaitMs / 1000} s during the slot migration; the change stopped there and healing takes over (it promotes a replica or restarts the primary, and closes open slots)` });
  }
  if (latest?.state === 'failed') {
    const failures = input.failures;
    if (failures >= MIGRATE_ATTEMPTS) return verdict({ kind: 'failed', code: 'migration_failed', message: `slot migration failed ${failures} times: ${latest.error ?? 'no error reported'}` });
    // Attempts spaced 0.5, 1, 2, 4 s: reports of a fault (a crash, the cluster going down) can arrive after the attempt that met it.
    const backoffMs = input.migrateRetryBaseMs * 2 ** (failures - 1);
    const since = input.now - latest.updatedAt;
    if (since < backoffMs) return verdict({ kind: 'wait', detail: `${detail}; attempt ${failures} of ${MIGRATE_ATTEMPTS} failed (${latest.error ?? 'no error reported'}), trying again in ${((backoffMs - since) / 1000).toFixed(1)} s`, fraction });
  }
  const targets = target.flatMap((slots, shard) => {
    const pr = primaryOf(shard);
    const shardEngineIds = input.instances.filter((i) => i.shard === shard && i.id !== pr?.id && i.engineId).map((i) => i.engineId!);
    return pr ? [{ instanceId: pr.id, slots, shardEngineIds }] : [];
  });
  if (targets.length !== target.length || targets.some((t) => !livePrimaries.some((l) => l.id === t.instanceId))) {
    return verdict({ kind: 'wait', detail: 'waiting for every target primary to run and be a member', fraction });
  }
  actions.push({ kind: 'migrate', rollback: input.rollback, runnerInstanceId: primaryOf(0)!.id, targets, primaries: livePrimaries.map((i) => i.id) });
  return verdict({ kind: 'wait', detail, fraction });
}
