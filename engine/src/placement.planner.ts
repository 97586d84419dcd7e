/**
 * Engine-agnostic placement: which node runs each copy of each shard, on which port.
 * Pure and deterministic: the same request always yields the same plan.
 */
import { shardName } from './shard-label';

export interface PlacementNode {
  id: string;
  name: string;
  online: boolean;
  memoryMb: number;
  usedMemoryMb: number;
  usedPorts: number[];
  /**
   * Ports of engines the node keeps started and warm (spares). Primaries take
   * them first: a Redis primary cannot report cluster_state ok until ~2 s
   * after its process started, so a warm one makes a new cluster ready sooner.
   */
  sparePorts?: number[];
}

export interface PlacementRequest {
  shards: number;
  replicasPerShard: number;
  memoryMbPerShard: number;
  nodes: PlacementNode[];
  /** Lowest port to hand out; default 7000. */
  basePort?: number;
}

export interface PlannedInstance {
  shardIndex: number;
  role: 'primary' | 'replica';
  /** 0 for the primary, 1..R for replicas. */
  replicaIndex: number;
  nodeId: string;
  port: number;
}

export type PlacementFailureCode = 'no_nodes' | 'too_few_nodes' | 'insufficient_memory';

export type PlacementResult =
  | { ok: true; instances: PlannedInstance[] }
  | { ok: false; code: PlacementFailureCode; reason: string };

export const DEFAULT_BASE_PORT = 7000;
/** Redis Cluster's bus listens on port + 10000. */
const BUS_PORT_OFFSET = 10000;
const MAX_PORT = 65535;

interface NodeLoad {
  node: PlacementNode;
  plannedMb: number;
  /** Ports taken on this node (used and planned), with their bus ports. */
  taken: Set<number>;
  /** Warm spare ports not yet handed out, lowest first. */
  spares: number[];
}

const usedMb = (l: NodeLoad) => l.node.usedMemoryMb + l.plannedMb;
const freeMb = (l: NodeLoad) => l.node.memoryMb - usedMb(l);
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const byLoadThenName = (a: NodeLoad, b: NodeLoad) =>
  usedMb(a) - usedMb(b) || compare(a.node.name, b.node.name) || compare(a.node.id, b.node.id);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function planPlacement(req: PlacementRequest): PlacementResult {
  const { shards, replicasPerShard, memoryMbPerShard } = req;
  const basePort = req.basePort ?? DEFAULT_BASE_PORT;
  assertInteger('shards', shards, 1);
  assertInteger('replicasPerShard', replicasPerShard, 0);
  assertInteger('memoryMbPerShard', memoryMbPerShard, 1);
  assertInteger('basePort', basePort, 1);

  const online = req.nodes.filter((n) => n.online);
  if (online.length === 0) {
    const offline = req.nodes.length;
    return fail('no_nodes', offline === 0 ? 'no nodes are registered' : `no online nodes: all ${plural(offline, 'registered node')} are offline`);
  }
  const copies = replicasPerShard + 1;
  if (copies > online.length) {
    return fail(
      'too_few_nodes',
      `${plural(copies, 'copy', 'copies')} per shard (1 primary + ${plural(replicasPerShard, 'replica')}) need ${copies} online nodes; ${online.length} ${online.length === 1 ? 'is' : 'are'} online`,
    );
  }
  const neededMb = shards * copies * memoryMbPerShard;
  const loads: NodeLoad[] = online.map((node) => {
    const taken = takenPorts(node.usedPorts);
    const spares = [...new Set(node.sparePorts ?? [])].filter((p) => !taken.has(p) && !taken.has(p + BUS_PORT_OFFSET)).sort((a, b) => a - b);
    // Regular ports never collide with a spare's port.
    for (const p of spares) taken.add(p);
    return { node, plannedMb: 0, taken, spares };
  });
  const totalFree = loads.reduce((sum, l) => sum + Math.max(0, freeMb(l)), 0);
  if (neededMb > totalFree) {
    return fail(
      'insufficient_memory',
      `${plural(shards * copies, 'instance')} of ${memoryMbPerShard} MB need ${neededMb} MB; ${online.length} online ${online.length === 1 ? 'node has' : 'nodes have'} ${totalFree} MB free`,
    );
  }

  const instances: PlannedInstance[] = [];
  const place = (load: NodeLoad, shardIndex: number, replicaIndex: number) => {
    load.plannedMb += memoryMbPerShard;
    const spare = replicaIndex === 0 ? load.spares.shift() : undefined;
    if (spare !== undefined) load.taken.add(spare + BUS_PORT_OFFSET);
    const port = spare ?? nextFreePort(load.taken, basePort, load.node.name);
    instances.push({ shardIndex, role: replicaIndex === 0 ? 'primary' : 'replica', replicaIndex, nodeId: load.node.id, port });
  };
  const noRoom = (what: string, candidates: NodeLoad[]) => {
    const best = Math.max(0, ...candidates.map(freeMb));
    return fail('insufficient_memory', `${what} needs ${memoryMbPerShard} MB; the most free memory on an eligible node is ${best} MB`);
  };

  // Primaries: round robin over nodes ordered by least used memory, then name.
  const ordered = [...loads].sort(byLoadThenName);
  const nodesOfShard: Set<NodeLoad>[] = [];
  const primaryOf: NodeLoad[] = [];
  for (let s = 0; s < shards; s++) {
    let chosen: NodeLoad | undefined;
    for (let k = 0; k < ordered.length && !chosen; k++) {
      const candidate = ordered[(s + k) % ordered.length]!;
      if (freeMb(candidate) >= memoryMbPerShard) chosen = candidate;
    }
    if (!chosen) return noRoom(`${shardName(s)} primary`, ordered);
    place(chosen, s, 0);
    nodesOfShard.push(new Set([chosen]));
    primaryOf.push(chosen);
  }

  // Replicas: greedily on the least loaded node holding no copy of that shard.
  // Ties go to the node that follows the shard's primary in the round robin
  // ring, so replicas of one node's primaries spread over the other nodes.
  const ring = new Map(ordered.map((l, i) => [l, i]));
  for (let r = 1; r <= replicasPerShard; r++) {
    for (let s = 0; s < shards; s++) {
      const holders = nodesOfShard[s]!;
      const primaryAt = ring.get(primaryOf[s]!)!;
      const afterPrimary = (l: NodeLoad) => (ring.get(l)! - primaryAt + ordered.length) % ordered.length;
      const eligible = loads.filter((l) => !holders.has(l));
      const chosen = eligible
        .filter((l) => freeMb(l) >= memoryMbPerShard)
        .sort((a, b) => usedMb(a) - usedMb(b) || afterPrimary(a) - afterPrimary(b) || byLoadThenName(a, b))[0];
      if (!chosen) return noRoom(`${shardName(s)} replica ${r}`, eligible);
      place(chosen, s, r);
      holders.add(chosen);
    }
  }

  instances.sort((a, b) => a.shardIndex - b.shardIndex || a.replicaIndex - b.replicaIndex);
  return { ok: true, instances };
}

function fail(code: PlacementFailureCode, reason: string): PlacementResult {
  return { ok: false, code, reason };
}

function assertInteger(name: string, value: number, min: number): void {
  if (!Number.isInteger(value) || value < min) throw new RangeError(`${name} must be an integer >= ${min}, got ${value}`);
}

/** Ports a node already uses, plus the cluster bus ports they imply. */
function takenPorts(usedPorts: number[]): Set<number> {
  const taken = new Set<number>();
  for (const p of usedPorts) {
    taken.add(p);
    taken.add(p + BUS_PORT_OFFSET);
  }
  return taken;
}

/** Lowest port >= basePort whose own and bus port are free; marks both taken. */
function nextFreePort(taken: Set<number>, basePort: number, nodeName: string): number {
  for (let port = basePort; port + BUS_PORT_OFFSET <= MAX_PORT; port++) {
    if (taken.has(port) || taken.has(port + BUS_PORT_OFFSET)) continue;
    taken.add(port);
    taken.add(port + BUS_PORT_OFFSET);
    return port;
  }
  // Unreachable in practice: it takes tens of thousands of instances on one node.
  throw new Error(`node ${nodeName} has no free port pair between ${basePort} and ${MAX_PORT - BUS_PORT_OFFSET}`);
}

export interface ReplacementRequest {
  memoryMb: number;
  /** Nodes holding another copy of this shard (never chosen: anti-affinity). */
  excludeNodeIds: string[];
  nodes: PlacementNode[];
  basePort?: number;
}

export type ReplacementResult =
  | { ok: true; nodeId: string; port: number }
  | { ok: false; code: PlacementFailureCode; reason: string };

/**
 * Where a replacement copy of one shard goes: the least loaded online node
 * that holds no copy of the shard and has the memory, on its lowest free
 * port pair (spare ports left to new primaries).
 */
export function placeReplacement(req: ReplacementRequest): ReplacementResult {
  assertInteger('memoryMb', req.memoryMb, 1);
  const exclude = new Set(req.excludeNodeIds);
  const eligible = req.nodes.filter((n) => n.online && !exclude.has(n.id));
  if (!eligible.length) {
    return { ok: false, code: 'too_few_nodes', reason: 'every online node already holds a copy of this shard (a replica never shares a node with another copy)' };
  }
  const fits = eligible.filter((n) => n.memoryMb - n.usedMemoryMb >= req.memoryMb)
    .sort((a, b) => a.usedMemoryMb - b.usedMemoryMb || compare(a.name, b.name) || compare(a.id, b.id));
  const chosen = fits[0];
  if (!chosen) {
    const best = Math.max(0, ...eligible.map((n) => n.memoryMb - n.usedMemoryMb));
    return { ok: false, code: 'insufficient_memory', reason: `a replacement needs ${req.memoryMb} MB; the most free memory on an eligible node is ${best} MB` };
  }
  const taken = takenPorts(chosen.usedPorts);
  for (const p of chosen.sparePorts ?? []) taken.add(p);
  return { ok: true, nodeId: chosen.id, port: nextFreePort(taken, req.basePort ?? DEFAULT_BASE_PORT, chosen.name) };
}

/**
 * A second port for each instance (an in-place TLS switch serves the other protocol there while both are served),
 * on the instance's node: the lowest free port pair from `basePort`, never a port or bus port in use, nor a warm
 * spare's. Ports are handed out in the order given; instance id -> port.
 */
export function planSecondPorts(nodes: readonly PlacementNode[], instances: readonly { id: string; nodeId: string }[], basePort = DEFAULT_BASE_PORT): Map<string, number> {
  const taken = new Map<string, Set<number>>();
  const out = new Map<string, number>();
  for (const i of instances) {
    const node = nodes.find((n) => n.id === i.nodeId);
    if (!node) throw new Error(`instance ${i.id} is on node ${i.nodeId}, which placement does not know`);
    let t = taken.get(node.id);
    if (!t) {
      t = takenPorts(node.usedPorts);
      for (const p of node.sparePorts ?? []) {
        t.add(p);
        t.add(p + BUS_PORT_OFFSET);
      }
      taken.set(node.id, t);
    }
    out.set(i.id, nextFreePort(t, basePort, node.name));
  }
  return out;
}
