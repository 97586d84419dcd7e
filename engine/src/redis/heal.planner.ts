/**
 * The healing planner: a pure function from (spec, stored topology, observed
 * state) to the ordered actions that bring a provisioned Redis Cluster back
 * to its spec. The control plane applies the actions and asks again on every
 * pass, so a plan only ever says what to do next, never remembers.
 *
 * The data-safety rule it encodes: a crashed primary is never restarted
 * while its shard has an in-sync replica that could take over. Restarted
 * first, a primary without persistence comes back empty but still owning its
 * slots, and its replicas resync from it and drop their copy. So the replica
 * is promoted first and the old primary rejoins as its replica; only a shard
 * without such a replica restarts its primary (AOF reloads; with durability
 * `none` the shard's data is gone, and the plan says so).
 */
import type { Durability, Fencing, InstanceRole, ObservedClusterView, ObservedInstanceState } from '../domain';
import { FENCING_MAX_LAG_S } from './config.renderer';
import { followsNode, isInSyncReplica, primaryNodeId } from './member-health';
import type { HealAction, SwitchoverReason } from './cluster-action';
import { shardName } from '../shard-label';

export interface HealObservation {
  process: ObservedInstanceState;
  /** The agent holds a crashed former primary until told to restart it. */
  held: boolean;
  /** When the agent saw the process exit (ms epoch). */
  crashedAt: number | null;
  view: ObservedClusterView | null;
}

export interface HealInstance {
  id: string;
  shard: number;
  nodeId: string;
  /** The stored live role (follows failovers). */
  role: InstanceRole;
  preferredRole: InstanceRole;
  /** Redis node id last recorded for this instance. */
  engineId: string | null;
  /** Config epoch last recorded for this instance (while it ran). */
  configEpoch: number | null;
  /** What its node reported; null when the node is silent or does not list it. */
  obs: HealObservation | null;
  /** Its node has stopped reporting (what it said no longer counts). */
  nodeSilent: boolean;
  /** Its node has been silent past the node-down timeout. */
  nodeDown: boolean;
  /** Its node is being drained: its copies move to other nodes. */
  nodeDraining?: boolean;
}

/** An instance replaced after its node went down, kept until every member forgot it. */
export interface LostInstance {
  id: string;
  shard: number;
  engineId: string | null;
  forgotten: boolean;
}

export interface HealInput {
  now: number;
  shards: number;
  durability: Durability;
  /**
   * Write fencing (absent: off). On, a takeover of a primary whose node
   * stopped reporting waits until its heir's link has been down longer than
   * the fencing lag: by then the old primary, if it still runs cut off from
   * its replicas, refuses writes, so no two primaries acknowledge writes.
   */
  fencing?: Fencing;
  instances: HealInstance[];
  /** Promote a replica as soon as an agent sees its primary's process exit. */
  fastFailover: boolean;
  /** With fast failover off: how long Redis gets to fail over on its own before Strata steps in. */
  failoverGraceMs: number;
  /** Primaries move back to their preferred instances once the cluster has been healthy this long. */
  rebalanceAfterMs: number;
  /** Since when every instance has been a healthy member (ms epoch), or null. */
  healthySince: number | null;
  /** Instances already replaced after node loss. */
  lost?: LostInstance[];
  /** Replicas per shard in the spec: how many copies a drained shard keeps off the draining nodes. */
  replicasPerShard?: number;
  /**
   * An operation runs (in a step that stops no instance on purpose): only
   * its own new primaries are healed, by promoting their replica (see
   * `planHealing`); the operation's steps own everything else. With
   * `promote-only` (a rolling restart) roles are recorded and any dead
   * primary's replica is promoted; `create` (a create once its cluster is
   * formed) also restarts a crashed engine, as healing does: nothing else
   * would, and a restore's load moves its keys again afterwards.
   */
  during?: { added: string[]; removed: string[] } | 'promote-only' | 'create';
}

export type FailoverMode = 'force' | 'takeover' | 'switchover';

export type { HealAction, SwitchoverReason } from './cluster-action';

export interface HealPlan {
  actions: HealAction[];
  /** Things in progress that need no action now, in words (shown as the cluster's condition). */
  waiting: string[];
}

/** How far behind its primary's death a replica's link may have gone down and still count as in sync. */
const LINK_SLACK_MS = 3000;

/**
 * With two or more replicas following a dead primary, their offsets are compared only once every one of them has
 * reported a view read after the crash (its link down, and read no earlier than the crash), for at most this long
 * after the crash: an offset read before may still have grown, so a replica picked on it could be behind another
 * that holds writes `WAIT 1` acknowledged, and the other would resync from it and drop them.
 */
export const OFFSET_SETTLE_MS = 3000;

const isRunning = (i: HealInstance) => i.obs?.process === 'running' && !!i.obs.view;
const servesSlots = (i: HealInstance) => isRunning(i) && i.obs!.view!.role === 'primary' && i.obs!.view!.slotsOwned > 0;
/** The copies that count toward a shard's spec: neither on a down node nor on a draining one (in the stored order: replica index). */
const liveCopies = (input: HealInput, shard: number) => input.instances.filter((m) => m.shard === shard && !m.nodeDown && !m.nodeDraining);
/** A running replica following `primary` with its link up and no full sync going on (see member-health.ts). */
const isInSyncReplicaOf = (m: HealInstance, primary: HealInstance) => isInSyncReplica(m.obs, primaryNodeId(primary));
const isDown = (i: HealInstance) => !!i.obs && (i.obs.process === 'crashed' || i.obs.process === 'stopped');

/**
 * A replica that had the primary's data when the primary died: it follows
 * that primary, is not in a full sync, and its link is up or went down no
 * earlier than the primary's death (a link down since before that, or never
 * up since the replica started, means it may be missing writes).
 */
export function isPromotable(replica: HealInstance, primary: HealInstance, now: number): boolean {
  if (isInSyncReplicaOf(replica, primary)) return true;
  const v = replica.obs?.view;
  if (!isRunning(replica) || !v || v.syncInProgress || !followsNode(v, primaryNodeId(primary))) return false;
  const crashedAt = primary.obs?.crashedAt;
  if (v.linkDownSinceSec === null || v.linkDownSinceSec < 0 || crashedAt === null || crashedAt === undefined) return false;
  return v.linkDownSinceSec * 1000 <= now - crashedAt + LINK_SLACK_MS;
}

export function planHealing(input: HealInput): HealPlan {
  if (input.during) return planDuringOperation(input, input.during);
  const actions: HealAction[] = [];
  const waiting: string[] = [];
  actions.push(...recordRoles(input));

  // 1b. An instance its (reporting) node does not run is started; a new one
  //     that is not yet a member replicates its shard's primary.
  for (const i of input.instances) {
    if (!i.obs && !i.nodeSilent) actions.push({ kind: 'start', shard: i.shard, instanceId: i.id });
  }
  //     So does an old primary back without slots while another member
  //     serves the shard (Redis keeps it a primary when the slots it knew
  //     moved meanwhile, e.g. a migration went on or back after a failover).
  for (const i of input.instances) {
    const v = i.obs?.view;
    if (!isRunning(i) || !v || v.role !== 'primary' || v.slotsOwned > 0) continue;
    const primary = input.instances.find((m) => m.shard === i.shard && m !== i && servesSlots(m) && m.obs!.view!.state === 'ok');
    if (primary) actions.push({ kind: 'join', shard: i.shard, instanceId: i.id, primaryInstanceId: primary.id });
  }

  // 2. Every shard has a primary serving its slots.
  for (let shard = 0; shard < input.shards; shard++) {
    const members = input.instances.filter((i) => i.shard === shard);
    const serving = members.filter(servesSlots);
    const held = members.filter((x) => isDown(x) && x.obs!.held);
    // A held instance may restart once another member serves the slots with a
    // higher config epoch than its own last claim: it then rejoins as a
    // replica. An observation from before a switchover (a stale "primary")
    // does not qualify, so a just-killed primary is never restarted empty
    // with the newest claim to its slots.
    // A held replica (its agent found it stopped at start) claims no slots: the
    // serving primary's epoch, which it reported as its own, is enough.
    const supersedes = (h: HealInstance) => serving.some((s) => s.obs!.view!.state === 'ok'
      && (s.obs!.view!.configEpoch > (h.configEpoch ?? 0) || (h.role === 'replica' && s.obs!.view!.configEpoch >= (h.configEpoch ?? 0))));
    for (const m of held.filter(supersedes)) {
      actions.push({ kind: 'restart', shard, instanceId: m.id, crashedAt: m.obs!.crashedAt, reason: m.role === 'replica' ? 'rejoins as a replica of its primary' : 'rejoins as a replica of the new primary', dataLost: false, superseded: true });
    }
    if (serving.length) {
      if (held.some((h) => !supersedes(h))) waiting.push(`${shardName(shard)}: waiting for the new primary's claim to reach the agents`);
      continue;
    }
    const primary = members.find((m) => m.role === 'primary');
    if (!primary) {
      waiting.push(`${shardName(shard)}: no instance is recorded as primary`);
      continue;
    }
    if (!primary.obs) {
      // Past the node-down timeout Redis has had its chance. It cannot fail
      // over at all when too few primaries survive to vote (one or two
      // shards, or every primary on the lost node), so the replica that got
      // furthest takes over without an election. Only when its link to the
      // old primary is down: a link still up means the engine lives (only its
      // agent died), and 2b hands over by a data-safe switchover instead.
      // No copy may still be linked to it (it serves), and with fencing the
      // heir's link must have been down past the fencing lag (see HealInput).
      const linkedToOld = members.some((m) => m !== primary && !m.nodeSilent && isRunning(m)
        && m.obs!.view!.primaryLinkUp === true && followsNode(m.obs!.view, primaryNodeId(primary)));
      const heir = primary.nodeDown && !linkedToOld ? members
        .filter((m) => m !== primary && !m.nodeSilent && isRunning(m) && !m.obs!.view!.syncInProgress
          && !m.obs!.view!.primaryLinkUp && followsNode(m.obs!.view, primaryNodeId(primary)))
        .sort((a, b) => (b.obs!.view!.replOffset ?? 0) - (a.obs!.view!.replOffset ?? 0))[0] : undefined;
      if (heir && input.fencing === 'on' && (heir.obs!.view!.linkDownSinceSec ?? 0) <= FENCING_MAX_LAG_S + 1) {
        waiting.push(`${shardName(shard)}: the primary's node is not reporting; with write fencing its replica takes over once the old primary has stopped accepting writes (link down over ${FENCING_MAX_LAG_S + 1} s)`);
        continue;
      }
      if (heir) {
        actions.push({ kind: 'promote', shard, instanceId: heir.id, fromInstanceId: primary.id, mode: 'takeover', crashedAt: null });
        continue;
      }
      waiting.push(`${shardName(shard)}: the primary's node is not reporting; Redis fails over on its own`);
      continue;
    }
    if (!isDown(primary)) {
      waiting.push(`${shardName(shard)}: primary ${primary.obs.process === 'running' ? 'is rejoining' : 'is starting'}`);
      continue;
    }
    const crashedAt = primary.obs.crashedAt;
    // A copy whose node has not reported (e.g. just after a control-plane
    // restart) may be the in-sync replica: decide only once it has been
    // heard from, or its node is down.
    const unheard = members.filter((m) => m !== primary && !m.obs && !m.nodeDown);
    if (unheard.length) {
      waiting.push(`${shardName(shard)}: primary stopped; waiting to hear from the node of its other copy before deciding`);
      continue;
    }
    const candidates = members
      .filter((m) => m !== primary && isPromotable(m, primary, input.now))
      .sort((a, b) => (b.obs!.view!.replOffset ?? 0) - (a.obs!.view!.replOffset ?? 0));
    const best = candidates[0];
    // Every running copy following the dead primary counts, not only the promotable ones: one whose last view (read
    // before the crash) showed an old link-down may have caught up since, and be the furthest.
    const followers = members.filter((m) => m !== primary && isRunning(m) && !m.obs!.view!.syncInProgress && followsNode(m.obs!.view, primaryNodeId(primary)));
    const readBeforeCrash = (m: HealInstance) => m.obs!.view!.primaryLinkUp === true
      || (crashedAt !== null && m.obs!.view!.sampledAt !== undefined && m.obs!.view!.sampledAt < crashedAt);
    if (candidates.length > 0 && followers.length > 1 && crashedAt !== null && input.now - crashedAt < OFFSET_SETTLE_MS
      && followers.some(readBeforeCrash)) {
      waiting.push(`${shardName(shard)}: primary down; waiting for every replica to report its replication offset after the crash before picking the furthest`);
      continue;
    }
    if (best) {
      if (!input.fastFailover && crashedAt !== null && input.now - crashedAt < input.failoverGraceMs) {
        waiting.push(`${shardName(shard)}: primary down; waiting for Redis's own failover`);
        continue;
      }
      // FORCE needs votes from a majority of primaries; with fewer than 3
      // shards the survivors are not a majority, and the agent has seen the
      // process exit, so a takeover without election is safe.
      const mode = input.shards >= 3 ? 'force' : 'takeover';
      actions.push({ kind: 'promote', shard, instanceId: best.id, fromInstanceId: primary.id, mode, crashedAt });
      continue;
    }
    // Without persistence the primary would come back empty and its replicas would resync the emptiness. A replica
    // that fell behind (its link down since before the crash) still holds all but its last writes: promoted without
    // an election (its primary is dead), it loses those instead of everything. Not one in a full sync, nor one that
    // never had the primary's data (offset 0).
    const behind = input.durability === 'none' ? members
      .filter((m) => m !== primary && isRunning(m) && !m.nodeSilent && !m.obs!.view!.syncInProgress
        && followsNode(m.obs!.view, primaryNodeId(primary)) && (m.obs!.view!.replOffset ?? 0) > 0)
      .sort((a, b) => (b.obs!.view!.replOffset ?? 0) - (a.obs!.view!.replOffset ?? 0))[0] : undefined;
    if (behind) {
      if (!input.fastFailover && crashedAt !== null && input.now - crashedAt < input.failoverGraceMs) {
        waiting.push(`${shardName(shard)}: primary down; waiting for Redis's own failover`);
        continue;
      }
      actions.push({ kind: 'promote', shard, instanceId: behind.id, fromInstanceId: primary.id, mode: 'takeover', crashedAt, behind: true });
      continue;
    }
    const hasReplicas = members.length > 1;
    const persistent = input.durability !== 'none';
    actions.push({
      kind: 'restart', shard, instanceId: primary.id, crashedAt,
      reason: hasReplicas ? 'no replica was in sync when the primary stopped' : 'the shard has no replica',
      dataLost: !persistent,
      superseded: false,
    });
  }

  // 2b. A copy on a down node is rebuilt on another node, once its shard has
  //     a serving primary to copy from (Redis promotes one on its own).
  //     A down node is one the control plane has not heard from: its agent
  //     died, or the network between them broke, while its engines may still
  //     serve. A primary there that a replica on a live node is still linked
  //     to does serve: it stays primary (the control plane never promotes
  //     while the old primary serves; Redis fails it over on its own if it
  //     dies). Otherwise its in-sync replica on a live node takes over by a
  //     data-safe switchover (plain CLUSTER FAILOVER: the old primary stops
  //     writes and waits for the replica to catch up); then the copy on the
  //     down node is rebuilt too.
  for (const i of input.instances.filter((x) => x.nodeDown)) {
    const serving = input.instances.find((m) => m.shard === i.shard && !m.nodeSilent && servesSlots(m));
    if (serving) {
      // A copy the shard does not need (it has every copy its spec asks for on live nodes) is dropped, not rebuilt:
      // there may be no node left to rebuild it on, and a copy too many is no copy lost.
      const surplus = input.replicasPerShard !== undefined && liveCopies(input, i.shard).length >= 1 + input.replicasPerShard;
      actions.push(surplus ? { kind: 'retire', shard: i.shard, instanceId: i.id, reason: 'surplus' } : { kind: 'replace', shard: i.shard, instanceId: i.id });
      continue;
    }
    const linked = i.role === 'primary' && input.instances.some((m) => m.shard === i.shard && !m.nodeSilent && isRunning(m)
      && m.obs!.view!.primaryLinkUp === true && followsNode(m.obs!.view, primaryNodeId(i)));
    if (linked) {
      waiting.push(`${shardName(i.shard)}: its primary's node is not reporting, but the primary still serves (its replica is linked to it): it stays primary`);
      continue;
    }
    const follower = i.role === 'primary' ? input.instances.find((m) => m.shard === i.shard && !m.nodeSilent && isInSyncReplicaOf(m, i)) : undefined;
    if (follower) actions.push({ kind: 'switchover', shard: i.shard, instanceId: follower.id, fromInstanceId: i.id, reason: 'node-down' });
    else waiting.push(`${shardName(i.shard)}: a copy was on a down node and no other copy serves its slots yet; waiting for a replica to be promoted or the node to return`);
  }

  // 2c. Drain: a primary on a draining node hands over to an in-sync replica
  //     elsewhere (data-safe switchover); then its copy, like every replica
  //     there, is rebuilt on another node (one copy per shard at a time).
  const drainHandled = new Set<number>();
  for (const i of input.instances.filter((x) => x.nodeDraining && !x.nodeDown)) {
    if (i.role === 'primary') {
      const target = input.instances.find((m) => m.shard === i.shard && !m.nodeDraining && isInSyncReplicaOf(m, i));
      if (target) actions.push({ kind: 'switchover', shard: i.shard, instanceId: target.id, fromInstanceId: i.id, reason: 'drain' });
      else {
        const other = input.instances.some((m) => m.shard === i.shard && m !== i);
        waiting.push(other
          ? `${shardName(i.shard)}: draining; waiting for a replica on another node to catch up before switching over`
          : `${shardName(i.shard)}: draining is blocked: the shard has no replica to hand over to (add one with replicasPerShard, or undrain)`);
      }
      continue;
    }
    // Make before break: a new replica is placed on another node first, and
    // the copy here is removed only once every copy elsewhere is in sync, so
    // the shard never runs with fewer in-sync replicas than its spec.
    if (drainHandled.has(i.shard)) continue;
    drainHandled.add(i.shard);
    const serving = input.instances.find((m) => m.shard === i.shard && !m.nodeDraining && !m.nodeSilent && servesSlots(m));
    if (!serving) continue;
    const elsewhere = input.instances.filter((m) => m.shard === i.shard && !m.nodeDraining && !m.nodeDown);
    const want = 1 + (input.replicasPerShard ?? elsewhere.length);
    if (elsewhere.length < want) {
      actions.push({ kind: 'add-replica', shard: i.shard, forInstanceId: i.id });
      continue;
    }
    const caughtUp = elsewhere.every((m) => m === serving || (isInSyncReplicaOf(m, serving) && m.obs!.view!.state === 'ok'));
    if (caughtUp) actions.push({ kind: 'retire', shard: i.shard, instanceId: i.id, reason: 'drain' });
    else waiting.push(`${shardName(i.shard)}: draining; the new replica on another node is syncing; the copy on the draining node stays until it is in sync`);
  }
  // 2d. A shard with more copies than its spec asks for (its replica count
  //     was lowered while a node holding a copy was away, so the change
  //     removed none there) drops one per pass: a replica on a silent node
  //     first, else one not in sync, else the one added last; never a
  //     primary, and only while every copy it keeps is in sync with the
  //     serving primary.
  if (input.replicasPerShard !== undefined) {
    const busy = new Set(actions.flatMap((a) => ('shard' in a ? [a.shard] : [])));
    for (let shard = 0; shard < input.shards; shard++) {
      const copies = liveCopies(input, shard);
      if (busy.has(shard) || copies.length <= 1 + input.replicasPerShard) continue;
      const primary = copies.find((m) => !m.nodeSilent && servesSlots(m));
      const replicas = copies.filter((m) => m !== primary && m.role === 'replica');
      const victim = replicas.find((m) => m.nodeSilent) ?? replicas.find((m) => primary && !isInSyncReplicaOf(m, primary)) ?? replicas[replicas.length - 1];
      const kept = copies.filter((m) => m !== victim && m !== primary);
      if (!primary || !victim || !kept.every((m) => !m.nodeSilent && isInSyncReplicaOf(m, primary))) {
        waiting.push(`${shardName(shard)}: has more copies than its spec asks for; one is removed once the others are in sync`);
        continue;
      }
      actions.push({ kind: 'retire', shard, instanceId: victim.id, reason: 'surplus' });
    }
  }

  // Lost ids are forgotten on every member; again whenever a member still
  // knows more nodes than the cluster has (it was unreachable the first time,
  // or learned a lost id back by gossip before everyone forgot it).
  const lost = input.lost ?? [];
  const overKnown = input.instances.some((i) => isRunning(i) && i.obs!.view!.knownNodes > input.instances.length);
  // Members that know a node that is no instance of the cluster (an instance a
  // cancelled change removed, learned back by gossip from a member that was
  // down when the others forgot it) forget it once every member runs (one
  // that does not would learn it back).
  if (lost.some((l) => !l.forgotten) || (lost.length && overKnown) || (overKnown && input.instances.every(isRunning))) {
    actions.push({ kind: 'forget', scope: 'heal', keep: null, lostInstanceIds: lost.map((l) => l.id) });
  }

  // 3. No slot stays importing or migrating.
  const open = new Set<number>();
  for (const i of input.instances) for (const s of (isRunning(i) ? i.obs!.view!.openSlots : [])) open.add(s.slot);
  if (open.size) actions.push({ kind: 'repair-slots', slots: [...open].sort((a, b) => a - b) });

  // 4. Once healthy for a while, primaries go back to their preferred (spread) instances.
  if (!actions.length && input.healthySince !== null && input.now - input.healthySince >= input.rebalanceAfterMs) {
    for (let shard = 0; shard < input.shards; shard++) {
      const members = input.instances.filter((i) => i.shard === shard);
      const current = members.find((m) => m.role === 'primary');
      const preferred = members.find((m) => m.preferredRole === 'primary');
      if (!current || !preferred || current === preferred || preferred.nodeDraining) continue;
      if (isInSyncReplicaOf(preferred, current)) {
        actions.push({ kind: 'switchover', shard, instanceId: preferred.id, fromInstanceId: current.id, reason: 'rebalance' });
      }
    }
  }
  return { actions, waiting };
}

/**
 * 1. The stored topology follows what instances say about themselves. A
 *    replica counts as promoted only once it serves slots with cluster_state
 *    ok (a restarted ex-primary briefly claims its old slots while failing).
 *    Promotions come first and a demotion waits until the shard's new primary
 *    is recorded (already, or by this plan): until then the old primary stays
 *    the recorded one, so the promotion finds it as the failover's old
 *    primary, also after a control-plane restart.
 */
function recordRoles(input: HealInput): HealAction[] {
  const seen: Extract<HealAction, { kind: 'record-role' }>[] = [];
  for (const i of input.instances) {
    const v = i.obs?.view;
    if (!isRunning(i) || !v) continue;
    const role: InstanceRole | null = v.role === 'replica' ? 'replica' : servesSlots(i) && v.state === 'ok' ? 'primary' : null;
    if (role && (role !== i.role || v.myId !== i.engineId || v.configEpoch !== i.configEpoch)) {
      seen.push({ kind: 'record-role', instanceId: i.id, shard: i.shard, role, engineId: v.myId, configEpoch: v.configEpoch, previousRole: i.role });
    }
  }
  const promotions = seen.filter((a) => a.role === 'primary');
  for (const a of promotions) {
    if (a.previousRole !== 'replica') continue;
    const old = input.instances.find((m) => m.shard === a.shard && m.id !== a.instanceId && m.role === 'primary');
    if (old) a.replaces = old.id;
  }
  const demotions = seen.filter((a) => a.role === 'replica' && (a.previousRole !== 'primary'
    || input.instances.some((m) => m.shard === a.shard && m.id !== a.instanceId && m.role === 'primary')
    || promotions.some((p) => p.shard === a.shard && p.instanceId !== a.instanceId)));
  return [...promotions, ...demotions];
}

/**
 * During a change, healing's promotions still run (only those: the
 * operation's steps own everything else). A shard whose primary's process
 * died gets its in-sync replica promoted, as when no operation runs. Redis
 * does that itself for a primary serving slots, but never for one with
 * none: a new shard's primary that dies before it claims its first slots,
 * though it may already hold the keys migrated to it in that round (MIGRATE
 * deleted them from the source). Left alone, its agent restarts it empty
 * when the hold ends, its replica resyncs from it, and those keys are gone.
 * Promoted, the replica keeps them, and the migration's next attempt makes
 * it the importer of the open slot and finishes the move.
 *
 * Only for the primaries the change added (the new shards'): a source
 * primary serves slots, and Redis fails it over itself as when no change
 * runs. Instances the change removes are left alone.
 */
function planDuringOperation(input: HealInput, during: NonNullable<HealInput['during']>): HealPlan {
  if (during === 'create') {
    const plan = planHealing({ ...input, during: undefined });
    return { actions: plan.actions.filter((a) => a.kind === 'record-role' || a.kind === 'promote' || a.kind === 'restart'), waiting: [] };
  }
  if (during === 'promote-only') {
    // A rolling restart (it stops instances on purpose and hands primaries over): healing records the roles that follow
    // and promotes the replica of a primary that dies meanwhile.
    const plan = planHealing({ ...input, during: undefined });
    return { actions: plan.actions.filter((a) => a.kind === 'record-role' || a.kind === 'promote'), waiting: [] };
  }
  const added = new Set(during.added);
  const removed = new Set(during.removed);
  const plan = planHealing({ ...input, during: undefined });
  const actions = plan.actions.filter((a) => a.kind === 'promote' && added.has(a.fromInstanceId) && !removed.has(a.instanceId) && !removed.has(a.fromInstanceId));
  return { actions, waiting: [] };
}

/** One line per action, for conditions and logs. */
export function describeHealAction(a: HealAction): string {
  switch (a.kind) {
    case 'record-role': return `${shardName(a.shard)}: instance is now ${a.role}`;
    case 'promote': return a.behind
      ? `${shardName(a.shard)}: primary stopped without persistence and no replica in sync; promoting the replica that got furthest (${a.mode}): writes it had not received are lost`
      : `${shardName(a.shard)}: primary stopped; promoting its in-sync replica (${a.mode})`;
    case 'restart': return `${shardName(a.shard)}: restarting an instance (${a.reason})${a.dataLost ? '; without persistence its data is lost' : ''}`;
    case 'switchover': return `${shardName(a.shard)}: ${switchoverText[a.reason]} (switchover)`;
    case 'repair-slots': return `closing ${a.slots.length} open slot(s)`;
    case 'start': return `${shardName(a.shard)}: starting an instance`;
    case 'join': return `${shardName(a.shard)}: a new replica is joining and syncing from its primary`;
    case 'replace': return `${shardName(a.shard)}: rebuilding a copy that was on a down node on another node`;
    case 'add-replica': return `${shardName(a.shard)}: draining; placing a new replica on another node before the copy on the draining node is removed`;
    case 'retire': return a.reason === 'drain'
      ? `${shardName(a.shard)}: draining; the new replica is in sync, removing the copy on the draining node`
      : `${shardName(a.shard)}: removing a copy the shard does not need: it has all the copies its spec asks for`;
    case 'forget': return a.lostInstanceIds.length ? `removing ${a.lostInstanceIds.length} lost instance(s) from the cluster (CLUSTER FORGET)` : 'members know a node that is not in the cluster: forgetting it (CLUSTER FORGET)';
  }
}

const switchoverText: Record<SwitchoverReason, string> = {
  rebalance: 'moving the primary back to its preferred node',
  drain: 'moving the primary off a draining node',
  'node-down': "moving the primary off a node whose agent is down (its engine still answers)",
};
