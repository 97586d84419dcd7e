/**
 * The operation planner for update-cluster steps (configure, start and join
 * new instances, remove instances, record the result; and their rollbacks):
 * pure functions from (what the update is to reach, the instances as stored,
 * what their nodes report, what the update's tasks did) to the actions to
 * take now and the step's verdict. The slot migration's decisions are in
 * `planMigrateStep` (migrate.planner.ts).
 */
import type { SlotRange } from '../domain';
import { isInSyncReplica, primaryNodeId } from './member-health';
import { isGone, type OperationAction, type OpInstance, type StepPlan, type TaskView } from './operation.planner';
import type { TopologySpec } from './topology.planner';

/** The update's own tasks, by what they are for (the control plane keys them). */
export type UpdateTaskRef =
  | { kind: 'start' | 'meet' | 'remove'; instanceId: string }
  | { kind: 'join'; instanceId: string; primaryInstanceId: string }
  | { kind: 'configure'; instanceId: string; rollback: boolean }
  | { kind: 'forget'; scope: 'remove-instances' | 'rollback-remove' };

export type UpdateAction = Extract<OperationAction, { kind: 'start' | 'configure' | 'meet' | 'join' | 'remember-ids' | 'remove' | 'forget' | 'drop-rows' | 'record-topology' }>;

export interface UpdateInput {
  from: TopologySpec;
  to: TopologySpec;
  originalSlots: SlotRange[][];
  targetSlots: SlotRange[][];
  /** Instance rows the update created. */
  added: string[];
  /** Instance rows the update removes once their slots moved away. */
  removed: string[];
  instances: OpInstance[];
  /** What the update's task of this identity did last. */
  task: (id: UpdateTaskRef) => TaskView | null;
  now: number;
  /** Removing instances waits this long for a member that is down to run again. */
  forgetWaitMs: number;
  /**
   * The update's last complete slot migration run (or, rolling back, its rollback run): when it ended (ms epoch)
   * and each primary's own view read after its last slot closed. Null when none ended.
   */
  migrated?: { at: number; final: { instanceId: string; slotsOwned: number; openSlots: number }[] } | null;
}

/**
 * Whether an instance owns no slot: its node's report says so, or the migration run read it owning none (and none
 * open) after the move, and its node has not reported since (a later report decides).
 */
function ownsNoSlot(i: OpInstance, migrated: UpdateInput['migrated']): boolean {
  if ((i.obs?.view?.slotsOwned ?? 0) === 0) return true;
  const f = migrated?.final.find((x) => x.instanceId === i.id);
  return !!f && f.slotsOwned === 0 && f.openSlots === 0 && (i.nodeReportedAt ?? 0) <= migrated!.at;
}

export type UpdateStepPlan = Omit<StepPlan, 'actions'> & { actions: UpdateAction[] };

const running = (i: OpInstance) => i.obs?.process === 'running';
const succeeded = (t: TaskView | null) => t?.state === 'succeeded';

/**
 * Memory, durability and eviction on every kept instance, in place (or back to what they were). An instance on a
 * down node is not waited for: its task stays queued for the node (applied if it reports again), and healing, which
 * resumes once the change ends, rebuilds its copy elsewhere from the new spec.
 */
export function planConfigure(input: UpdateInput, rollback: boolean): UpdateStepPlan {
  const settings = rollback ? input.from : input.to;
  const skip = new Set([...input.added, ...(rollback ? [] : input.removed)]);
  const targets = input.instances.filter((i) => !skip.has(i.id));
  const left = targets.filter((i) => !succeeded(input.task({ kind: 'configure', instanceId: i.id, rollback })));
  const done = targets.length - left.length;
  const actions: UpdateAction[] = left.map((i) => ({ kind: 'configure', instanceId: i.id, settings, rollback }));
  const onDown = left.filter((i) => i.nodeDown);
  const downNote = onDown.length
    ? `; ${onDown.length} on down node ${[...new Set(onDown.map((i) => i.nodeName))].join(', ')} not waited for (rebuilt elsewhere with these settings, or reconfigured if the node reports again)`
    : '';
  if (left.length === onDown.length) return { actions, verdict: { kind: 'done', detail: `${done} instance(s) reconfigured without restart${downNote}` } };
  return { actions, verdict: { kind: 'wait', detail: `${done} of ${targets.length} instances reconfigured${downNote}`, fraction: done / targets.length } };
}

/** A node that reported this recently and does not list an instance does not have it. */
const LISTED_WITHIN_MS = 2000;

/**
 * The new instances run. One that started and crashed since (steps run again
 * on every pass) is not restarted here: a crashed primary comes back empty
 * still owning its slots and its replica copies the emptiness; the agent
 * holds it until its replica is promoted. Nor is one whose node has not
 * reported lately (busy, or cut off): not knowing is no reason to start it.
 */
export function planStartInstances(input: UpdateInput): UpdateStepPlan {
  const added = input.instances.filter((i) => input.added.includes(i.id));
  const unheard = (i: OpInstance) => !i.obs && (i.nodeReportedAt === null || input.now - i.nodeReportedAt > LISTED_WITHIN_MS);
  const up = added.filter((i) => running(i) || (succeeded(input.task({ kind: 'start', instanceId: i.id })) && ((!!i.obs && i.crashed) || unheard(i))));
  const actions: UpdateAction[] = added.filter((i) => !up.includes(i)).map((i) => ({ kind: 'start', shard: i.shard, instanceId: i.id, settings: input.to }));
  if (up.length === added.length) return { actions, verdict: { kind: 'done', detail: `${up.length} new instance(s) running` } };
  return { actions, verdict: { kind: 'wait', detail: `${up.length} of ${added.length} new instances running`, fraction: added.length ? up.length / added.length : 1 } };
}

/** New primaries meet the cluster; new replicas follow their primary until in sync. */
export function planJoinInstances(input: UpdateInput): UpdateStepPlan {
  const isAdded = (id: string) => input.added.includes(id);
  const added = input.instances.filter((i) => isAdded(i.id));
  // Remember each new instance's Redis id while it runs: if it dies mid-migration, the migration needs it.
  const actions: UpdateAction[] = [{ kind: 'remember-ids', instanceIds: added.map((i) => i.id) }];
  const seed = input.instances.find((i) => i.role === 'primary' && !isAdded(i.id) && running(i));
  if (!seed) return { actions, verdict: { kind: 'wait', detail: 'waiting for a running primary to introduce new instances to' } };
  const newPrimaries = added.filter((x) => x.role === 'primary');
  const joined = new Set(newPrimaries.filter((i) => succeeded(input.task({ kind: 'meet', instanceId: i.id }))).map((i) => i.id));
  for (const i of newPrimaries) if (!joined.has(i.id)) actions.push({ kind: 'meet', instanceId: i.id, seedInstanceId: seed.id });
  let synced = 0;
  const replicas = added.filter((x) => x.role === 'replica');
  for (const r of replicas) {
    const primary = input.instances.find((i) => i.shard === r.shard && i.role === 'primary');
    if (!primary || (isAdded(primary.id) && !joined.has(primary.id))) continue;
    if (isInSyncReplica(r.obs, primaryNodeId(primary))) { synced++; continue; }
    const joinedOnce = succeeded(input.task({ kind: 'join', instanceId: r.id, primaryInstanceId: primary.id }));
    // Joined, and promoted since (its primary died), or serving slots: it serves the shard; asking it to follow the
    // dead one would fail.
    const v = r.obs?.view;
    if (v?.role === 'primary' && (joinedOnce || v.slotsOwned > 0)) { synced++; continue; }
    // Joined once and not heard of now (its node's reports are late), or its primary is not running (healing promotes
    // it): wait to know rather than ask again.
    if (joinedOnce && (!r.obs || !running(primary))) continue;
    actions.push({ kind: 'join', shard: r.shard, instanceId: r.id, primaryInstanceId: primary.id });
  }
  const primaries = newPrimaries.length;
  const total = primaries + replicas.length;
  const done = joined.size + synced;
  if (done === total) return { actions, verdict: { kind: 'done', detail: `${primaries} primar${primaries === 1 ? 'y' : 'ies'} joined, ${synced} replica(s) in sync` } };
  return { actions, verdict: { kind: 'wait', detail: `${joined.size} of ${primaries} new primaries joined; ${synced} of ${replicas.length} new replicas in sync`, fraction: total ? done / total : 1 } };
}

/** Stops instances (the ones removed, or rolling back the ones added), has every remaining member forget them, then drops their rows. */
export function planRemoveInstances(input: UpdateInput, rollback: boolean): UpdateStepPlan {
  const scope = rollback ? 'rollback-remove' : 'remove-instances';
  const ids = new Set(rollback ? input.added : input.removed);
  const rows = input.instances.filter((i) => ids.has(i.id));
  if (!rows.length) return { actions: [], verdict: { kind: 'done', detail: `${ids.size} instance(s) removed` } };
  // Remember each one's Redis id while it still runs.
  const actions: UpdateAction[] = [{ kind: 'remember-ids', instanceIds: rows.map((i) => i.id) }];
  // A removed shard's copies (its replicas too) go only once none of them owns a slot: stopping a copy of a
  // shard that still serves slots would lose them (a failover after the move, a report that is late).
  const stillServing = rows.filter((i) => !ownsNoSlot(i, input.migrated) && !isGone(i, input.task({ kind: 'remove', instanceId: i.id })));
  if (stillServing.length) {
    return { actions, verdict: { kind: 'wait', detail: `waiting for ${stillServing.map((i) => `${i.label} (${i.obs!.view!.slotsOwned} slots)`).join(', ')} to own no slot before removing shard copies`, fraction: 0 } };
  }
  const removal = (i: OpInstance) => input.task({ kind: 'remove', instanceId: i.id });
  const left = rows.filter((i) => !isGone(i, removal(i)));
  const gone = rows.length - left.length;
  for (const i of left) actions.push({ kind: 'remove', instanceId: i.id });
  if (left.length) return { actions, verdict: { kind: 'wait', detail: `${gone} of ${rows.length} stopped`, fraction: (gone / rows.length) * 0.8 } };
  const kept = input.instances.filter((i) => !ids.has(i.id));
  if (!succeeded(input.task({ kind: 'forget', scope }))) {
    // A member down now (a crashed primary the agent holds) would come back still knowing the removed instances,
    // stay "not a healthy member" and gossip them to the others: wait a while for it to run again.
    const away = kept.filter((i) => !running(i));
    const stoppedAt = Math.max(...rows.map((i) => removal(i)?.updatedAt ?? 0));
    if (away.length && input.now - stoppedAt < input.forgetWaitMs) {
      return { actions, verdict: { kind: 'wait', detail: `${rows.length} stopped; waiting for ${away.map((i) => i.label).join(', ')} to run again so that every member forgets them`, fraction: 0.85 } };
    }
    actions.push({ kind: 'forget', scope, keep: kept.map((i) => i.id), lostInstanceIds: [] });
    return { actions, verdict: { kind: 'wait', detail: `${rows.length} stopped; every member forgets them (CLUSTER FORGET)`, fraction: 0.9 } };
  }
  actions.push({ kind: 'drop-rows', instanceIds: rows.map((i) => i.id) });
  return { actions, verdict: { kind: 'done', detail: `${rows.length} instance(s) stopped and forgotten` } };
}

/** Records the new slot map (or, rolling back, the old one and the spec before the change). */
export function planFinish(input: UpdateInput, rollback: boolean): UpdateStepPlan {
  if (!rollback) return { actions: [{ kind: 'record-topology', slots: input.targetSlots }], verdict: { kind: 'done' } };
  return { actions: [{ kind: 'record-topology', slots: input.originalSlots, spec: input.from }], verdict: { kind: 'done', detail: 'the cluster is back at its previous spec' } };
}
