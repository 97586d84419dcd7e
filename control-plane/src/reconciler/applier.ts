/**
 * The applier: every act on a cluster is done by exactly one function here,
 * whoever decided it (the healing planner, or an operation's step). The
 * functions hand tasks to agents and write what an act records; they decide
 * nothing: which act, when, and what to do when it does not take is the
 * planner's or the step's business. Tasks and events carry dedupe keys
 * (dedupe-keys.ts), so applying an act twice is harmless.
 */
import type { ClusterSpec, FormClusterShard, InstanceRole, InstanceSpec, SlotRange, TaskRequest } from '@strata/api';
import { planSlots, servesBoth, servesTls, type HealAction, type OperationAction, type TlsLayout, type TlsStageRef } from '@strata/engine';
import { address, inTx, timingsOf, type ClusterContext } from './cluster-context';
import type { StepResult } from './step-runner';
import { eventKey, taskKey, type TaskId } from './dedupe-keys';
import { faultPoint } from './fault-point';
import { createStage } from './create-progress';
import type { InstanceRow } from '../stores/cluster.store';
import type { TaskRow } from '../stores/task.store';
import type { Db } from '../db/tx';
import { eventRef, recordFailoverEvent } from './failover-event';
import { shardLabel, shardName } from '@strata/api';

/** What submitting an act's task says: null (handed out, running, or settling), or a failure the operation ends with. */
export type Submitted = StepResult | null;

/** How long after a task succeeded its effect may take to show in the agents' reports, per act: until then it is not asked again. */
const SETTLE_MS = {
  start: 3000, restart: 2000, promote: 2000, switchover: 5000, join: 8000, meet: 60_000, remove: 3000,
  forget: 5000, configure: 60_000, form: 5000, 'repair-slots': 2000, 'sync-users': 3000,
  'renew-certificate': 5000, 'sync-trust': 3000, 'tls-switch': 0,
} as const;

/** The newest task of this identity in the context's owner (its operation, or healing). */
export const taskFor = (ctx: ClusterContext, id: TaskId): TaskRow | undefined => ctx.tasks.get(taskKey(id));


/**
 * Hands one idempotent task to an agent unless one is open or just succeeded
 * (`settleMs`: its effect shows in the next reports). A task that failed is
 * retried by its owner's rule: an operation's fails the operation after
 * `maxTaskAttempts`; healing's is retried with backoff (`retryBaseMs`
 * doubling to `retryMaxMs` since its last success), never in a tight loop. `alongside` (the
 * events that tell the user about it) commits in the same transaction as the
 * task: a control plane killed in between loses neither, since the next pass
 * finds no task either and plans the act again.
 */
export async function submitTask(
  ctx: ClusterContext,
  t: { nodeId: string; id: TaskId; request: TaskRequest; settleMs: number; alongside?: (db: Db | undefined) => Promise<void> },
): Promise<Submitted> {
  const latest = taskFor(ctx, t.id);
  if (latest && (latest.state === 'pending' || latest.state === 'leased')) return null;
  if (latest?.state === 'succeeded' && Date.now() - latest.updatedAt.getTime() < t.settleMs) return null;
  const key = taskKey(t.id);
  if (latest?.state === 'failed') {
    if (ctx.operationId) {
      const failures = await ctx.deps.tasks.countFailures(ctx.cluster.id, ctx.operationId, key);
      if (failures >= (ctx.deps.maxTaskAttempts ?? 3)) {
        return { kind: 'failed', code: 'task_failed', message: `${t.request.kind} failed ${failures} times: ${latest.error ?? 'no error reported'}` };
      }
    } else {
      const failures = await ctx.deps.tasks.failuresSinceSuccess(ctx.cluster.id, null, key);
      const t = timingsOf(ctx.deps);
      const backoff = Math.min(t.retryMaxMs, t.retryBaseMs * 2 ** Math.max(0, failures - 1));
      if (Date.now() - latest.updatedAt.getTime() < backoff) return null;
    }
  }
  await enqueue(ctx, t);
  return null;
}

/** Enqueues (unless a task with this key is open) with what goes alongside, and wakes the agent's long-poll. True when inserted. */
export async function enqueue(
  ctx: ClusterContext, t: { nodeId: string; id: TaskId; request: TaskRequest; alongside?: (db: Db | undefined) => Promise<void> },
): Promise<boolean> {
  const inserted = await inTx(ctx, async (db) => {
    const ins = await ctx.deps.tasks.enqueue({ nodeId: t.nodeId, clusterId: ctx.cluster.id, operationId: ctx.operationId, request: t.request, dedupeKey: taskKey(t.id) }, db);
    await t.alongside?.(db);
    return ins;
  });
  // After the commit: the agent's long-poll must find the task.
  if (inserted) ctx.deps.notifyNode(t.nodeId);
  // e.g. heal-promote-enqueued, heal-restart-enqueued, heal-switchover-enqueued (crash tests).
  if (inserted && !ctx.operationId) faultPoint(ctx.deps.faultFile, `heal-${t.id.kind}-enqueued`);
  return inserted;
}

/** Memory, durability, eviction, write fencing and (a TLS cluster) client certificates an instance runs with. */
export type InstanceSettings = Pick<ClusterSpec, 'memoryMbPerShard' | 'durability' | 'evictionPolicy'> & Partial<Pick<ClusterSpec, 'fencing' | 'tlsClientAuth'>>;

/** What an instance serves now: its own layout mid-stage of a TLS switch, else its cluster's. */
export const instanceLayout = (ctx: ClusterContext, inst: InstanceRow): TlsLayout => inst.tlsLayout ?? ctx.cluster.tlsLayout;

/**
 * The layout part of an instance's spec: absent for the two layouts a cluster is created with (TLS everywhere, or
 * none), so those render as they always did; any other (a switch's stage, or a bus that kept its protocol) is explicit.
 */
function layoutSpec(ctx: ClusterContext, inst: InstanceRow, layout: TlsLayout): Pick<InstanceSpec, 'tlsLayout'> {
  const bus = ctx.cluster.tlsBus;
  if ((layout === 'plain' && !bus) || (layout === 'tls' && bus)) return {};
  return { tlsLayout: { layout, bus, ...(servesBoth(layout) && inst.secondPort ? { secondPort: inst.secondPort } : {}) } };
}

/** What an agent needs to run an instance: the cluster's settings (or `settings`), the instance's memory unless `settings` say otherwise. */
export function instanceSpec(ctx: ClusterContext, inst: InstanceRow, settings?: InstanceSettings, layout: TlsLayout = instanceLayout(ctx, inst)): InstanceSpec {
  const s = settings ?? ctx.cluster.spec;
  return {
    instanceId: inst.id, clusterId: ctx.cluster.id, port: inst.port, memoryMb: settings?.memoryMbPerShard ?? inst.memoryMb,
    durability: s.durability, evictionPolicy: s.evictionPolicy, fencing: s.fencing ?? 'off',
    // Only an instance that serves TLS has a client certificate rule.
    ...(servesTls(layout) ? { tlsClientAuth: s.tlsClientAuth ?? 'none' } : {}),
    // Redis 7.0 (absent) or Valkey 8: which binary the agent starts.
    ...(ctx.cluster.spec.engineVersion !== '7' ? { engineVersion: ctx.cluster.spec.engineVersion } : {}),
    ...layoutSpec(ctx, inst, layout),
  };
}

const member = (ctx: ClusterContext, i: InstanceRow) => ({ instanceId: i.id, ...address(ctx, i) });
const byId = (ctx: ClusterContext, id: string) => ctx.instances.find((i) => i.id === id)!;
const running = (ctx: ClusterContext, i: InstanceRow) => ctx.observe(i.id)?.state === 'running';

// ---- instances

/**
 * Start an instance (or keep it running) as planned. A restored cluster's
 * primaries are created with their shard's backup file (loaded at their
 * first start only: the agent ignores it for an instance it already has).
 */
export async function startInstance(ctx: ClusterContext, inst: InstanceRow, settings?: InstanceSettings): Promise<Submitted> {
  const seed = ctx.operation?.kind === 'create-cluster' && inst.role === 'primary' ? await ctx.deps.restoreSeed?.(ctx.cluster.id, inst.shardIndex) : null;
  return submitTask(ctx, {
    nodeId: inst.nodeId, id: { kind: 'start', instanceId: inst.id }, settleMs: SETTLE_MS.start,
    // A cluster being created holds no data before it is formed: an engine held there starts again. Anywhere else a
    // held engine (a crashed primary) waits for healing's restart, which knows whether its replica took over first.
    request: { kind: 'ensure-instance', instance: instanceSpec(ctx, inst, settings), ...(seed ? { seed } : {}), ...(createStage(ctx.operation) === 'before-form' ? { release: true } : {}) },
  });
}

/**
 * Restart a crashed instance the agent holds. The restart and what it means
 * for the user commit together: once the task exists the agent restarts the
 * engine within milliseconds, and a later pass has no restart left to plan
 * (nor a data-lost to record).
 */
export async function restartInstance(ctx: ClusterContext, a: Extract<HealAction, { kind: 'restart' }>): Promise<Submitted> {
  const inst = byId(ctx, a.instanceId);
  const instance = eventRef(ctx, inst);
  // Before its cluster is ready (being created) nothing of the user's is lost: a restored primary (same layout: its
  // file seeded it) that would come back empty loads its file again, a restore that moves keys moves them again
  // (its load round), and a new empty cluster had nothing to lose.
  const creating = ctx.cluster.status.phase === 'provisioning';
  const seed = a.dataLost && inst.role === 'primary' && creating ? await ctx.deps.restoreSeed?.(ctx.cluster.id, inst.shardIndex) : null;
  return submitTask(ctx, {
    nodeId: inst.nodeId, id: { kind: 'restart', instanceId: inst.id, crashedAt: a.crashedAt }, settleMs: SETTLE_MS.restart,
    request: { kind: 'ensure-instance', instance: instanceSpec(ctx, inst), release: true, ...(a.superseded ? { dropClaims: true } : {}), ...(seed ? { seed } : {}) },
    alongside: async (db) => {
      await ctx.deps.events.record(ctx.cluster, {
        type: 'instance-restarted', shard: a.shard, instance, reason: a.reason,
        message: `${shardLabel(a.shard)}: restarting ${instance.address} on ${instance.nodeName}: it ${a.reason}.${seed ? ' It loads its backup file again: the restore is not complete until it has.' : ''}`,
      }, eventKey({ type: 'instance-restarted', instanceId: inst.id, crashedAt: a.crashedAt }), db);
      if (a.dataLost && !creating) {
        await ctx.deps.events.record(ctx.cluster, {
          type: 'data-lost', shard: a.shard, instance,
          reason: `durability none and ${a.reason}`,
          message: `${shardLabel(a.shard)} lost its data: its primary stopped, ${a.reason}, and durability "none" keeps nothing on disk. It restarts empty. Use aof-everysec or replicas to survive this.`,
        }, eventKey({ type: 'data-lost', instanceId: inst.id, crashedAt: a.crashedAt }), db);
      }
    },
  });
}

/** Stop an instance and delete its data. */
export function removeInstance(ctx: ClusterContext, inst: InstanceRow): Promise<Submitted> {
  return submitTask(ctx, {
    nodeId: inst.nodeId, id: { kind: 'remove', instanceId: inst.id }, settleMs: SETTLE_MS.remove,
    request: { kind: 'remove-instance', instanceId: inst.id, clusterId: ctx.cluster.id },
  });
}

/** A planned restart of a running instance (rolling restart): its agent stops it gracefully and starts it again. */
export function restartRunning(ctx: ClusterContext, inst: InstanceRow): Promise<Submitted> {
  return submitTask(ctx, {
    nodeId: inst.nodeId, id: { kind: 'restart-running', instanceId: inst.id }, settleMs: SETTLE_MS.restart,
    request: { kind: 'restart-instance', instanceId: inst.id, clusterId: ctx.cluster.id },
  });
}

/** Memory, durability and eviction of a running instance, in place (the agent rewrites its config too). */
export function reconfigureInstance(ctx: ClusterContext, inst: InstanceRow, settings: InstanceSettings, rollback: boolean): Promise<Submitted> {
  return submitTask(ctx, {
    nodeId: inst.nodeId, id: { kind: 'configure', instanceId: inst.id, rollback }, settleMs: SETTLE_MS.configure,
    request: { kind: 'configure-instance', instance: instanceSpec(ctx, inst, settings) },
  });
}

/** A running instance's database users brought to the desired set (ACL SETUSER/DELUSER; the agent rewrites its config too). */
export function syncUsers(ctx: ClusterContext, inst: InstanceRow, generation: number, digest: string): Promise<Submitted> {
  return submitTask(ctx, {
    nodeId: inst.nodeId, id: { kind: 'sync-users', instanceId: inst.id, generation, digest }, settleMs: SETTLE_MS['sync-users'],
    request: { kind: 'sync-users', clusterId: ctx.cluster.id, instanceId: inst.id },
  });
}

/** A running TLS instance's fresh certificate (issued when the agent leases the task), loaded without a restart. */
export function renewCertificate(ctx: ClusterContext, inst: InstanceRow, expiresAt: number): Promise<Submitted> {
  return submitTask(ctx, {
    nodeId: inst.nodeId, id: { kind: 'renew-certificate', instanceId: inst.id, expiresAt }, settleMs: SETTLE_MS['renew-certificate'],
    request: { kind: 'renew-certificate', clusterId: ctx.cluster.id, instanceId: inst.id, replaces: new Date(expiresAt).toISOString() },
  });
}

/** A running TLS instance's CA file rewritten to the cluster's client trust as it is when the agent leases the task, loaded without a restart. */
export function syncTrust(ctx: ClusterContext, inst: InstanceRow, digest: string): Promise<Submitted> {
  return submitTask(ctx, {
    nodeId: inst.nodeId, id: { kind: 'sync-trust', instanceId: inst.id, digest }, settleMs: SETTLE_MS['sync-trust'],
    request: { kind: 'sync-trust', clusterId: ctx.cluster.id, instanceId: inst.id },
  });
}

/**
 * One instance's part of a stage of an in-place TLS switch: its agent sets it at runtime (its certificate written
 * first) and keeps the spec it runs with afterwards; a primary's part ends once `replicas` replicas are linked to
 * it over the new protocol.
 */
export function switchTlsOn(ctx: ClusterContext, inst: InstanceRow, step: TlsStageRef, stage: string, after: TlsLayout, replicas: number): Promise<Submitted> {
  // The layout is always explicit here: the agent keeps it, and decides from it how Strata speaks to the port.
  const instance: InstanceSpec = {
    ...instanceSpec(ctx, inst, undefined, after),
    tlsLayout: { layout: after, bus: ctx.cluster.tlsBus, ...(servesBoth(after) && inst.secondPort ? { secondPort: inst.secondPort } : {}) },
  };
  return submitTask(ctx, {
    nodeId: inst.nodeId, id: { kind: 'tls-switch', instanceId: inst.id, stage }, settleMs: SETTLE_MS['tls-switch'],
    request: {
      kind: 'tls-switch', clusterId: ctx.cluster.id, direction: step.direction, stage: step.stage,
      member: { instanceId: inst.id, host: address(ctx, inst).host, port: inst.port, secondPort: inst.secondPort!, role: inst.role },
      replicas, instance,
    },
  });
}

// ---- membership

/** Form a new cluster from its instances and the stored slot map (idempotent), on the agent of shard 0's primary. */
export function formCluster(ctx: ClusterContext): Promise<Submitted> {
  const seed = ctx.instances.find((i) => i.shardIndex === 0 && i.role === 'primary')!;
  return submitTask(ctx, { nodeId: seed.nodeId, id: { kind: 'form', clusterId: ctx.cluster.id }, settleMs: SETTLE_MS.form, request: formPayload(ctx) });
}

export function formPayload(ctx: ClusterContext): Extract<TaskRequest, { kind: 'form-cluster' }> {
  const stored = ctx.shards.length ? ctx.shards.map((s) => s.slots) : planSlots(ctx.cluster.spec.shards).map((r) => [r]);
  const shards: FormClusterShard[] = stored.map((slots, index) => {
    const members = ctx.instances.filter((i) => i.shardIndex === index);
    return {
      slots,
      primary: member(ctx, members.find((i) => i.role === 'primary')!),
      replicas: members.filter((i) => i.role === 'replica').map((i) => member(ctx, i)),
    };
  });
  return { kind: 'form-cluster', clusterId: ctx.cluster.id, shards };
}

/**
 * A restore into another layout: the keys of one backup file, moved into
 * the new cluster by the agent of a new primary (files spread over them),
 * which loads the file into a temporary engine first.
 */
export async function restoreKeys(ctx: ClusterContext, backupShard: number, round: number): Promise<Submitted> {
  const file = (await ctx.deps.restoreFiles?.(ctx.cluster.id))?.[backupShard];
  if (!file) return { kind: 'failed', code: 'restore_missing', message: `the restore has no backup file for shard ${backupShard}` };
  const primaries = ctx.instances.filter((i) => i.role === 'primary').sort((a, b) => a.shardIndex - b.shardIndex);
  const runner = primaries[backupShard % primaries.length]!;
  return submitTask(ctx, {
    nodeId: runner.nodeId, id: { kind: 'restore-keys', backupShard, round }, settleMs: 0,
    request: { kind: 'restore-keys', clusterId: ctx.cluster.id, backupShard, file, targets: primaries.map((i) => address(ctx, i)) },
  });
}

/** A new, empty primary meets the cluster through `seed`. */
export function meetPrimary(ctx: ClusterContext, inst: InstanceRow, seed: InstanceRow): Promise<Submitted> {
  return submitTask(ctx, {
    nodeId: inst.nodeId, id: { kind: 'meet', instanceId: inst.id }, settleMs: SETTLE_MS.meet,
    request: { kind: 'meet-primary', clusterId: ctx.cluster.id, instanceId: inst.id, port: inst.port, seed: member(ctx, seed) },
  });
}

/** An instance replicates its shard's primary (MEET, then REPLICATE). */
export function joinReplica(ctx: ClusterContext, inst: InstanceRow, primary: InstanceRow): Promise<Submitted> {
  return submitTask(ctx, {
    nodeId: inst.nodeId, id: { kind: 'join', instanceId: inst.id, primaryInstanceId: primary.id }, settleMs: SETTLE_MS.join,
    request: { kind: 'join-replica', clusterId: ctx.cluster.id, instanceId: inst.id, port: inst.port, primary: member(ctx, primary) },
  });
}

/**
 * Every running member of `members` forgets every node with neither a
 * member's Redis id nor a member's address (membership.rule.ts); members that
 * do not run are only kept. Returns null without a task while no member runs
 * or a member's node address is unknown. `lostInstanceIds` (healing): lost
 * copies a successful run forgot (those lost before it began) are marked
 * forgotten.
 */
export async function forgetNonMembers(
  ctx: ClusterContext, members: InstanceRow[], scope: Extract<TaskId, { kind: 'forget' }>['scope'], lostInstanceIds: string[] = [],
): Promise<Submitted> {
  const id: TaskId = { kind: 'forget', scope };
  const latest = taskFor(ctx, id);
  if (latest?.state === 'succeeded' && lostInstanceIds.length) {
    // The 60 s FORGET ban keeps gossip from bringing them back meanwhile.
    const forgotten = ctx.lost.filter((l) => !l.forgottenAt && lostInstanceIds.includes(l.id) && l.lostAt.getTime() <= latest.createdAt.getTime());
    if (forgotten.length) await inTx(ctx, (db) => ctx.deps.clusters.markForgotten(forgotten.map((l) => l.id), db));
  }
  const runner = members.find((i) => running(ctx, i));
  if (!runner || members.some((i) => address(ctx, i).host === 'unknown')) return null;
  // A copy lost since the last run began is forgotten at once, not after that run settles: until every member forgot
  // it, its engine (cut off with its host) still counts as a member, and if the host returns meanwhile the failure
  // reports it made there (two of three primaries cut off together are a majority) fail the new primary and elect it
  // back. Measured: with a 5 s settle a host returning 3 s after a takeover did so, and the shard lost its primary once
  // that engine was removed.
  const newlyLost = latest !== undefined && ctx.lost.some((l) => !l.forgottenAt && lostInstanceIds.includes(l.id) && l.lostAt.getTime() > latest.createdAt.getTime());
  return submitTask(ctx, {
    nodeId: runner.nodeId, id, settleMs: newlyLost ? 0 : SETTLE_MS.forget,
    request: {
      kind: 'forget-nodes', clusterId: ctx.cluster.id,
      members: members.map((i) => ({ ...member(ctx, i), engineId: i.engineId ?? null, running: running(ctx, i) })),
    },
  });
}

// ---- roles

/** Promote a replica whose primary died (FORCE or TAKEOVER; the agent turns a FORCE that has not won in 700 ms into a TAKEOVER). */
export function promoteReplica(ctx: ClusterContext, a: Extract<HealAction, { kind: 'promote' }>): Promise<Submitted> {
  const inst = byId(ctx, a.instanceId);
  return submitTask(ctx, {
    nodeId: inst.nodeId, id: { kind: 'promote', shard: a.shard, fromInstanceId: a.fromInstanceId, crashedAt: a.crashedAt }, settleMs: SETTLE_MS.promote,
    request: { kind: 'failover', clusterId: ctx.cluster.id, instanceId: inst.id, port: inst.port, mode: a.mode },
  });
}

/** Hand a healthy primary over to its in-sync replica `target` (plain CLUSTER FAILOVER: no acknowledged write lost). */
export function switchOver(ctx: ClusterContext, target: InstanceRow, id: Extract<TaskId, { kind: 'switchover' | 'switchover-to' }>): Promise<Submitted> {
  return submitTask(ctx, {
    nodeId: target.nodeId, id, settleMs: SETTLE_MS.switchover,
    request: { kind: 'failover', clusterId: ctx.cluster.id, instanceId: target.id, port: target.port, mode: 'switchover' },
  });
}

/** Store what an instance says about itself (role, Redis node id, config epoch): the one writer of observed roles. */
export async function recordObserved(ctx: ClusterContext, inst: InstanceRow, seen: { role: InstanceRole; engineId: string; configEpoch: number }, db?: Db): Promise<void> {
  if (db) await ctx.deps.clusters.recordObservedInstance(inst.id, seen, db);
  else await inTx(ctx, (tx) => ctx.deps.clusters.recordObservedInstance(inst.id, seen, tx));
  Object.assign(inst, seen);
}

/**
 * Records the Redis node id (and config epoch) each running instance
 * reports, keeping its stored role. An instance's id must be known before it
 * can die: in-sync and promotable replicas are matched to their primary by
 * it, and a removed instance is forgotten by it.
 */
export async function rememberEngineIds(ctx: ClusterContext, rows: InstanceRow[]): Promise<void> {
  for (const i of rows) {
    const v = ctx.observe(i.id)?.cluster;
    if (v && (v.myId !== i.engineId || v.configEpoch !== i.configEpoch)) await recordObserved(ctx, i, { role: i.role, engineId: v.myId, configEpoch: v.configEpoch });
  }
}

/** Make `primary` its shard's preferred primary (rebalancing returns the primary role to it), and `old` a preferred replica. */
export async function preferPrimary(ctx: ClusterContext, primary: InstanceRow, old?: InstanceRow, db?: Db): Promise<void> {
  const write = async (tx: Db | undefined) => {
    await ctx.deps.clusters.setPreferredRole(primary.id, 'primary', tx);
    if (old) await ctx.deps.clusters.setPreferredRole(old.id, 'replica', tx);
  };
  await (db ? write(db) : inTx(ctx, write));
}

/** The live role an instance reports; a promotion commits with the failover event that reports it. */
export async function recordRole(ctx: ClusterContext, a: Extract<HealAction, { kind: 'record-role' }>): Promise<void> {
  const inst = byId(ctx, a.instanceId);
  const old = a.replaces ? ctx.instances.find((i) => i.id === a.replaces) : undefined;
  // The new role and the failover event commit together: a crash between them would lose the event for good.
  await inTx(ctx, async (db) => {
    await recordObserved(ctx, inst, { role: a.role, engineId: a.engineId, configEpoch: a.configEpoch }, db);
    if (old) await recordFailoverEvent(ctx, inst, old, a.configEpoch, db);
  });
}

// ---- slots

/** Move slots to their wanted owners: a (resumable) run on `runner`'s agent (shard 0's primary). */
export async function migrateSlots(ctx: ClusterContext, a: Extract<OperationAction, { kind: 'migrate' }>): Promise<void> {
  const runner = byId(ctx, a.runnerInstanceId);
  await enqueue(ctx, {
    nodeId: runner.nodeId, id: { kind: 'migrate', rollback: a.rollback },
    request: {
      kind: 'migrate-slots', clusterId: ctx.cluster.id,
      targets: a.targets.map((t) => ({ ...member(ctx, byId(ctx, t.instanceId)), slots: t.slots, shardEngineIds: t.shardEngineIds })),
      primaries: a.primaries.map((id) => member(ctx, byId(ctx, id))),
      priority: ctx.cluster.spec.migrationPriority,
    },
  });
}

/** Close slots left importing/migrating: keys go back to their owner. */
export function repairSlots(ctx: ClusterContext, slots: number[]): Promise<Submitted> {
  const primaries = ctx.instances.filter((i) => i.role === 'primary');
  const seed = primaries.find((i) => running(ctx, i));
  if (!seed) return Promise.resolve(null);
  return submitTask(ctx, {
    nodeId: seed.nodeId, id: { kind: 'repair-slots', slots }, settleMs: SETTLE_MS['repair-slots'],
    request: { kind: 'repair-slots', clusterId: ctx.cluster.id, primaries: primaries.map((i) => member(ctx, i)) },
  });
}

/**
 * Stores the slot map an operation reached; with `spec` (a cancelled update
 * rolled back), the spec and the instances' memory before the change too.
 */
export async function recordTopology(ctx: ClusterContext, slots: SlotRange[][], spec?: ClusterSpec): Promise<void> {
  const specChanged = !!spec && JSON.stringify(ctx.cluster.spec) !== JSON.stringify(spec);
  await inTx(ctx, async (db) => {
    await ctx.deps.clusters.replaceShards(ctx.cluster.id, slots, db);
    if (!spec) return;
    if (specChanged) await ctx.deps.clusters.updateSpec(ctx.cluster.id, spec, db);
    if (ctx.instances.some((i) => i.memoryMb !== spec.memoryMbPerShard)) await ctx.deps.clusters.setInstancesMemory(ctx.cluster.id, spec.memoryMbPerShard, db);
  });
  if (spec && specChanged) ctx.cluster.spec = spec;
}

// ---- placement

/** A copy on a down node is rebuilt as a new replica elsewhere. Returns why not, in words, when there is no room. */
export async function replaceLost(ctx: ClusterContext, a: Extract<HealAction, { kind: 'replace' }>): Promise<string | void> {
  const lost = byId(ctx, a.instanceId);
  if (!ctx.deps.replaceInstance) return 'replacing instances is not available';
  const r = await ctx.deps.replaceInstance(ctx.cluster, lost);
  if (!r.ok) return `${shardName(a.shard)}: cannot rebuild the copy that was on a down node: ${r.reason}; waiting for room or for the node to return`;
  const from = eventRef(ctx, lost);
  const to = eventRef(ctx, r.replacement);
  await ctx.deps.events.record(ctx.cluster, {
    type: 'replica-rebuilt', shard: a.shard, lost: from, replacement: to,
    message: `${shardLabel(a.shard)}: the copy on ${from.nodeName} (down) is rebuilt as a new replica at ${to.address} on ${to.nodeName}.`,
  }, eventKey({ type: 'replica-rebuilt', lostInstanceId: lost.id }));
}

/** Draining: one more replica of the shard off the draining nodes (make before break). Returns why not when there is no room. */
export async function addReplica(ctx: ClusterContext, a: Extract<HealAction, { kind: 'add-replica' }>): Promise<string | void> {
  const draining = byId(ctx, a.forInstanceId);
  if (!ctx.deps.addReplica) return 'placing replicas is not available';
  const r = await ctx.deps.addReplica(ctx.cluster, draining, 1 + ctx.cluster.spec.replicasPerShard);
  if (!r.ok) return `${shardName(a.shard)}: draining is blocked: no node can take a new replica: ${r.reason}; waiting for room (or undrain)`;
}

/**
 * A copy the shard does not need leaves (it is then forgotten and swept): on a draining node once every copy elsewhere
 * is in sync, or on a down node when the shard has all its copies on live nodes.
 */
export async function retire(ctx: ClusterContext, a: Extract<HealAction, { kind: 'retire' }>): Promise<void> {
  const old = byId(ctx, a.instanceId);
  const elsewhere = ctx.instances.filter((i) => i.shardIndex === a.shard && i.id !== old.id && !ctx.nodes.get(i.nodeId)?.draining);
  const replacement = elsewhere.filter((i) => i.role === 'replica').sort((x, y) => y.replicaIndex - x.replicaIndex)[0];
  await inTx(ctx, async (db) => {
    if (old.preferredRole === 'primary') {
      const serving = elsewhere.find((i) => i.role === 'primary');
      if (serving) await preferPrimary(ctx, serving, undefined, db);
    }
    await ctx.deps.clusters.markLost(old.id, db);
  });
  // A surplus copy on a down node leaves without a replacement (the node-down event named it already).
  if (replacement && a.reason === 'drain') {
    const from = eventRef(ctx, old);
    const to = eventRef(ctx, replacement);
    await ctx.deps.events.record(ctx.cluster, {
      type: 'replica-rebuilt', shard: a.shard, lost: from, replacement: to,
      message: `${shardLabel(a.shard)}: the copy on ${from.nodeName} (draining) moved to ${to.address} on ${to.nodeName}, which is in sync; the old copy is removed.`,
    }, eventKey({ type: 'replica-rebuilt', lostInstanceId: old.id }));
  }
}
