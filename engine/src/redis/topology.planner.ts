/**
 * The topology-change planner: a pure function from (current spec, stored
 * topology, nodes, live data sizes) and a desired spec to the plan of an
 * online change: vertical settings applied in place, instances added
 * (placed with anti-affinity) or removed, and which slots move from which
 * shard to which. The same function answers a dry run and drives the change.
 */
import type { Durability, EvictionPolicy, Fencing, MigrationPriority, SlotRange, TlsClientAuth } from '../domain';
import { formatMemoryMb } from '../memory-label';
import { planPlacement, placeReplacement, type PlacementNode } from '../placement.planner';
import { DEFAULT_MIGRATION_PRIORITY, migrationCosts, type MigrationCost } from './migration-pace';
import { SLOT_COUNT } from './slots.planner';
import { shardName } from '../shard-label';
import { specProblem } from '../spec.rule';

export { specProblem };

export interface TopologySpec {
  shards: number;
  replicasPerShard: number;
  memoryMbPerShard: number;
  durability: Durability;
  evictionPolicy: EvictionPolicy;
  /** Write fencing (absent: off). */
  fencing?: Fencing;
  /** How hard slot moves press on the primaries (absent: the default). */
  migrationPriority?: MigrationPriority;
  /** TLS (set at create; absent: off). */
  tls?: 'off' | 'preferred' | 'required';
  /** Client certificates of a TLS cluster (absent: none). */
  tlsClientAuth?: TlsClientAuth;
}

export interface TopologyInstance {
  id: string;
  shard: number;
  /** Live role. */
  role: 'primary' | 'replica';
  replicaIndex: number;
  nodeId: string;
  port: number;
}

/** What a shard holds now (from its primary's live counts); null when unknown. */
export interface ShardData {
  keys: number;
  /** used_memory of the shard's primary, bytes. */
  bytes: number;
}

export interface TopologyPlanInput {
  current: TopologySpec;
  desired: TopologySpec;
  /** Slot ranges owned by each shard now, by shard index. */
  shardSlots: SlotRange[][];
  instances: TopologyInstance[];
  /** Every node with its usage by all clusters (this one's instances included). */
  nodes: PlacementNode[];
  /** Live data per shard, by shard index (missing: unknown, counted as 0). */
  data: (ShardData | null)[];
}

export interface NewInstance {
  shard: number;
  role: 'primary' | 'replica';
  replicaIndex: number;
  nodeId: string;
  port: number;
}

export interface SlotMove {
  fromShard: number;
  toShard: number;
  slots: SlotRange[];
  slotCount: number;
  estimatedKeys: number;
  estimatedBytes: number;
}

export type TopologyStepName = 'configure' | 'start-instances' | 'join-instances' | 'migrate-slots' | 'remove-instances' | 'finish';
export type RollbackStepName = 'rollback-configure' | 'rollback-migrate' | 'rollback-remove' | 'rollback-finish';

/**
 * What an update-cluster operation is to reach, as stored with it (its only
 * copy of the plan): the spec before and after, the slot map before and
 * after, and the instance rows it adds and removes. Its steps follow from it.
 */
export interface UpdateDesired {
  from: TopologySpec;
  to: TopologySpec;
  /** Slot map before the change (a cancel moves slots back to it). */
  originalSlots: SlotRange[][];
  /** Slot map at the end, by shard index. */
  targetSlots: SlotRange[][];
  /** Instance rows created for the change. */
  added: readonly unknown[];
  /** Instance rows removed once their slots moved away. */
  removed: readonly unknown[];
}

/** Memory, durability, eviction, fencing or client certificates change in place on every instance. */
export const isVertical = (from: TopologySpec, to: TopologySpec): boolean =>
  from.memoryMbPerShard !== to.memoryMbPerShard || from.durability !== to.durability || from.evictionPolicy !== to.evictionPolicy || (from.fencing ?? 'off') !== (to.fencing ?? 'off')
  || (from.tlsClientAuth ?? 'none') !== (to.tlsClientAuth ?? 'none');


/** How many slots end on another shard than where they are now. */
export function movedSlots(original: SlotRange[][], target: SlotRange[][]): number {
  // Owner per slot in one typed array (it runs on every pass of an update: no sets of 16,384 numbers).
  const owner = new Int32Array(16384).fill(-1);
  original.forEach((ranges, shard) => { for (const r of ranges) owner.fill(shard, r.start, r.end + 1); });
  let moved = 0;
  target.forEach((ranges, shard) => {
    for (const r of ranges) for (let s = r.start; s <= r.end; s++) if (owner[s] !== shard) moved++;
  });
  return moved;
}

/** The steps of an update, in order, from what it is to reach. */
export function updateStepNames(d: UpdateDesired): TopologyStepName[] {
  const steps: TopologyStepName[] = [];
  if (isVertical(d.from, d.to)) steps.push('configure');
  if (d.added.length) steps.push('start-instances', 'join-instances');
  if (movedSlots(d.originalSlots, d.targetSlots)) steps.push('migrate-slots');
  if (d.removed.length) steps.push('remove-instances');
  steps.push('finish');
  return steps;
}

/** The steps that undo a cancelled update: settings back, slots back, added instances removed, spec restored. */
export function rollbackStepNames(d: UpdateDesired): RollbackStepName[] {
  const steps: RollbackStepName[] = [];
  if (isVertical(d.from, d.to)) steps.push('rollback-configure');
  if (movedSlots(d.originalSlots, d.targetSlots)) steps.push('rollback-migrate');
  if (d.added.length) steps.push('rollback-remove');
  steps.push('rollback-finish');
  return steps;
}

export interface TopologyChangePlan {
  changes: { field: keyof TopologySpec; from: number | string; to: number | string }[];
  add: NewInstance[];
  /** Ids of instances removed (after their slots moved away). */
  remove: string[];
  /** Slot ranges each shard owns at the end, by shard index (length = desired shards). */
  targetSlots: SlotRange[][];
  moves: SlotMove[];
  /** Settings changed in place on every instance (memory, durability, eviction). */
  vertical: boolean;
  steps: { name: TopologyStepName; title: string }[];
  online: boolean;
  notes: string[];
  totals: { slots: number; keys: number; bytes: number };
  /** What the slot moves cost at each priority (empty without moves). */
  migrationCosts: MigrationCost[];
}

export type TopologyFailure = { ok: false; code: 'unchanged' | 'invalid' | 'does_not_fit' | 'unplaceable'; field: keyof TopologySpec; reason: string };
export type TopologyPlanResult = ({ ok: true } & TopologyChangePlan) | TopologyFailure;

/** A shard's data must stay under this share of its maxmemory after a change. */
export const FILL_LIMIT = 0.9;
const MB = 1024 * 1024;

const fail = (code: TopologyFailure['code'], field: keyof TopologySpec, reason: string): TopologyFailure => ({ ok: false, code, field, reason });
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const mb = (bytes: number) => `${Math.ceil(bytes / MB)} MB`;

/** Slots of each shard after an even split over `shards` (sizes differ by at most one). */
export function evenCounts(shards: number): number[] {
  return Array.from({ length: shards }, (_, i) => Math.floor(((i + 1) * SLOT_COUNT) / shards) - Math.floor((i * SLOT_COUNT) / shards));
}

export function expandRanges(ranges: SlotRange[]): number[] {
  const out: number[] = [];
  for (const r of ranges) for (let s = r.start; s <= r.end; s++) out.push(s);
  return out;
}

export function compressSlots(slots: number[]): SlotRange[] {
  const sorted = [...slots].sort((a, b) => a - b);
  const out: SlotRange[] = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (last && last.end === s - 1) last.end = s;
    else out.push({ start: s, end: s });
  }
  return out;
}

/**
 * Which slots go where: every shard ends with an even share; a shard with
 * more gives up its highest slots, shards with less take them in order. A
 * removed shard (index >= the new count) gives up everything. Moves as few
 * slots as an even split allows.
 */
export function planSlotTargets(current: SlotRange[][], shards: number): { target: SlotRange[][]; moves: { from: number; to: number; slots: number[] }[] } {
  const want = evenCounts(shards);
  const owned = current.map((r) => expandRanges(r).sort((a, b) => a - b));
  while (owned.length < shards) owned.push([]);
  const released: { from: number; slot: number }[] = [];
  owned.forEach((slots, shard) => {
    const keep = shard < shards ? want[shard]! : 0;
    while (slots.length > keep) released.push({ from: shard, slot: slots.pop()! });
  });
  released.sort((a, b) => a.slot - b.slot);
  const moves = new Map<string, { from: number; to: number; slots: number[] }>();
  let k = 0;
  for (let shard = 0; shard < shards; shard++) {
    while (owned[shard]!.length < want[shard]! && k < released.length) {
      const r = released[k++]!;
      owned[shard]!.push(r.slot);
      const key = `${r.from}>${shard}`;
      const m = moves.get(key) ?? { from: r.from, to: shard, slots: [] };
      m.slots.push(r.slot);
      moves.set(key, m);
    }
  }
  return { target: owned.slice(0, shards).map(compressSlots), moves: [...moves.values()] };
}

export function planTopologyChange(input: TopologyPlanInput): TopologyPlanResult {
  const { current: cur, desired: want } = input;
  const fields: (keyof TopologySpec)[] = ['shards', 'replicasPerShard', 'memoryMbPerShard', 'durability', 'evictionPolicy', 'fencing', 'tlsClientAuth', 'migrationPriority'];
  const valueOf = (spec: TopologySpec, f: keyof TopologySpec) =>
    (f === 'migrationPriority' ? spec.migrationPriority ?? DEFAULT_MIGRATION_PRIORITY : f === 'fencing' ? spec.fencing ?? 'off' : f === 'tlsClientAuth' ? spec.tlsClientAuth ?? 'none' : spec[f]!);
  const changes = fields.filter((f) => valueOf(cur, f) !== valueOf(want, f)).map((f) => ({ field: f, from: valueOf(cur, f), to: valueOf(want, f) }));
  if (!changes.length) return fail('unchanged', 'shards', 'the cluster already has this spec');
  const problem = specProblem(want, changes.map((c) => c.field));
  if (problem) return fail('invalid', problem.field, problem.reason);
  const notes: string[] = [];
  const dataOf = (shard: number) => input.data[shard] ?? { keys: 0, bytes: 0 };
  const slotsOf = (shard: number) => expandRanges(input.shardSlots[shard] ?? []).length;

  // Data must fit in the new memory limit and in fewer shards.
  const limitBytes = want.memoryMbPerShard * MB * FILL_LIMIT;
  const heaviest = Math.max(0, ...input.data.map((d) => d?.bytes ?? 0));
  if (want.memoryMbPerShard < cur.memoryMbPerShard && heaviest > limitBytes) {
    return fail('does_not_fit', 'memoryMbPerShard', `a shard holds ${mb(heaviest)}; ${want.memoryMbPerShard} MB per shard leaves less than ${Math.round((1 - FILL_LIMIT) * 100)}% headroom (needs at least ${Math.ceil(heaviest / FILL_LIMIT / MB)} MB)`);
  }
  const totalBytes = input.data.reduce((s, d) => s + (d?.bytes ?? 0), 0);
  if (want.shards < cur.shards && totalBytes / want.shards > limitBytes) {
    return fail('does_not_fit', 'shards', `the cluster holds ${mb(totalBytes)}; ${plural(want.shards, 'shard')} of ${want.memoryMbPerShard} MB cannot hold it with ${Math.round((1 - FILL_LIMIT) * 100)}% headroom`);
  }

  // Nodes as placement sees them, with the vertical change applied to this cluster's instances.
  const delta = want.memoryMbPerShard - cur.memoryMbPerShard;
  const nodes: PlacementNode[] = input.nodes.map((n) => {
    const mine = input.instances.filter((i) => i.nodeId === n.id).length;
    return { ...n, usedMemoryMb: n.usedMemoryMb + delta * mine, usedPorts: [...n.usedPorts], sparePorts: [...(n.sparePorts ?? [])] };
  });
  if (delta > 0) {
    const over = nodes.find((n) => n.usedMemoryMb > n.memoryMb && input.instances.some((i) => i.nodeId === n.id));
    if (over) return fail('unplaceable', 'memoryMbPerShard', `No room for ${formatMemoryMb(want.memoryMbPerShard)} per shard: ${over.name} would need ${formatMemoryMb(over.usedMemoryMb)} for its instances and has ${formatMemoryMb(over.memoryMb)}.`);
  }

  const add: NewInstance[] = [];
  const remove: string[] = [];
  const take = (nodeId: string, port: number) => {
    const n = nodes.find((x) => x.id === nodeId)!;
    n.usedMemoryMb += want.memoryMbPerShard;
    n.usedPorts.push(port);
    n.sparePorts = (n.sparePorts ?? []).filter((p) => p !== port);
  };

  // New shards: primaries and replicas placed like a new cluster's, on what is left.
  if (want.shards > cur.shards) {
    const placed = planPlacement({ shards: want.shards - cur.shards, replicasPerShard: want.replicasPerShard, memoryMbPerShard: want.memoryMbPerShard, nodes });
    if (!placed.ok) return fail('unplaceable', placed.code === 'too_few_nodes' ? 'replicasPerShard' : 'shards', placed.reason);
    for (const p of placed.instances) {
      const shard = p.shardIndex + cur.shards;
      add.push({ shard, role: p.role, replicaIndex: p.replicaIndex, nodeId: p.nodeId, port: p.port });
      take(p.nodeId, p.port);
    }
  }
  // Removed shards: every copy goes once its slots moved away.
  for (const i of input.instances) if (i.shard >= want.shards) remove.push(i.id);

  // Replica count of the shards that stay, counted as copies: a role record that lags behind a failover (two rows
  // still saying primary) must not add a copy the shard already has. Copies to remove are counted and chosen on
  // online nodes only: a copy on a node that is away is no copy to keep the shard's count with, and removing a live
  // replica in its place would leave the shard with fewer copies than it asks for. Healing settles the count after
  // the change: it drops the away copy once its node is down, or one copy too many once every kept copy is in sync.
  const onlineNodes = new Set(input.nodes.filter((n) => n.online).map((n) => n.id));
  for (let shard = 0; shard < Math.min(cur.shards, want.shards); shard++) {
    const members = input.instances.filter((i) => i.shard === shard);
    const live = members.filter((i) => onlineNodes.has(i.nodeId));
    const replicas = live.filter((i) => i.role === 'replica').sort((a, b) => b.replicaIndex - a.replicaIndex);
    const extra = live.length - 1 - want.replicasPerShard;
    if (extra > 0) {
      for (const r of replicas.slice(0, extra)) remove.push(r.id);
    }
    let next = Math.max(0, ...members.map((i) => i.replicaIndex)) + 1;
    const holders = members.map((i) => i.nodeId);
    for (let n = Math.max(0, members.length - 1); n < want.replicasPerShard; n++) {
      const placed = placeReplacement({ memoryMb: want.memoryMbPerShard, excludeNodeIds: holders, nodes });
      if (!placed.ok) return fail('unplaceable', 'replicasPerShard', `${shardName(shard)}: ${placed.reason}`);
      add.push({ shard, role: 'replica', replicaIndex: next++, nodeId: placed.nodeId, port: placed.port });
      holders.push(placed.nodeId);
      take(placed.nodeId, placed.port);
    }
  }

  // Slots.
  const { target, moves: rawMoves } = want.shards === cur.shards
    ? { target: input.shardSlots.slice(0, want.shards), moves: [] }
    : planSlotTargets(input.shardSlots, want.shards);
  const moves: SlotMove[] = rawMoves.map((m) => {
    const owned = slotsOf(m.from) || 1;
    const d = dataOf(m.from);
    return {
      fromShard: m.from, toShard: m.to, slots: compressSlots(m.slots), slotCount: m.slots.length,
      estimatedKeys: Math.round((d.keys * m.slots.length) / owned), estimatedBytes: Math.round((d.bytes * m.slots.length) / owned),
    };
  });
  const totals = moves.reduce((t, m) => ({ slots: t.slots + m.slotCount, keys: t.keys + m.estimatedKeys, bytes: t.bytes + m.estimatedBytes }), { slots: 0, keys: 0, bytes: 0 });

  const vertical = isVertical(cur, want);
  const what = changes.filter((c) => ['memoryMbPerShard', 'durability', 'evictionPolicy', 'fencing', 'tlsClientAuth'].includes(c.field)).map((c) => `${c.field} ${c.from} → ${c.to}`).join(', ');
  const primaries = add.filter((a) => a.role === 'primary').length;
  const titles: Record<TopologyStepName, string> = {
    configure: `Apply ${what} in place on every instance (CONFIG SET, config files rewritten; no restart)`,
    'start-instances': `Start ${plural(add.length, 'new instance')} (${plural(primaries, 'primary', 'primaries')}, ${plural(add.length - primaries, 'replica')})`,
    'join-instances': 'New primaries meet the cluster; new replicas sync from their primaries',
    'migrate-slots': `Move ${plural(totals.slots, 'slot')} (~${totals.keys} keys) with live migration at ${want.migrationPriority ?? DEFAULT_MIGRATION_PRIORITY} priority (keys copied, confirmed by the target's replica, then handed over slot by slot)`,
    'remove-instances': `Stop ${plural(remove.length, 'instance')} and forget ${remove.length === 1 ? 'it' : 'them'} on every member`,
    finish: 'Record the new topology',
  };
  const steps: TopologyChangePlan['steps'] = updateStepNames({ from: cur, to: want, originalSlots: input.shardSlots, targetSlots: target, added: add, removed: remove })
    .map((name) => ({ name, title: titles[name] }));

  if (want.durability !== cur.durability && want.durability !== 'none') notes.push('turning on AOF starts a background rewrite of each instance\'s data to disk');
  if (want.replicasPerShard > cur.replicasPerShard) notes.push('new replicas copy their primary\'s data; the change succeeds only once they are in sync');
  if (want.replicasPerShard === 0 && cur.replicasPerShard > 0) notes.push('without replicas a lost primary loses its shard\'s data unless durability keeps it on disk');
  if (moves.length) notes.push('clients follow MOVED/ASK redirects while slots move; keys stay readable and writable');

  return {
    ok: true, changes, add, remove, targetSlots: target, moves, vertical, steps, online: true, notes, totals,
    migrationCosts: moves.length ? migrationCosts(totals.keys, moves.length) : [],
  };
}
