/**
 * The I/O steps formCluster orders: read views, resolve roles, take
 * snapshots, apply corrective actions. Each one reads before it writes.
 */
import type { FormClusterShard } from '../../domain';
import type { Redis } from 'ioredis';
import { errorMessage, type AdminConnectionPool } from './admin-connection';
import { parseClusterNodes, parseClusterSlots, parseInfo, type ClusterNodeEntry } from './cluster-reply.parser';
import type { ConvergenceAction, NodeSnapshot, PlannedMember, ResolvedShard } from './cluster-convergence';

export const POLL_MS = 25;

export interface MemberView {
  member: PlannedMember;
  myself: ClusterNodeEntry;
  nodes: ClusterNodeEntry[];
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Connects to every node and reads its id and view, waiting for nodes that do not answer yet. */
export async function readViews(pool: AdminConnectionPool, shards: FormClusterShard[], deadline: number): Promise<Map<string, MemberView>> {
  const members = shards
    .flatMap((s) => [s.primary, ...s.replicas])
    .map(({ host, port }): PlannedMember => ({ host, port, address: `${host}:${port}`, id: '' }));
  if (new Set(members.map((m) => m.address)).size !== members.length) {
    throw new Error('formCluster: the same host:port appears twice in the plan');
  }
  const views = new Map<string, MemberView>();
  for (;;) {
    const failures: string[] = [];
    await Promise.all(
      members
        .filter((m) => !views.has(m.address))
        .map(async (m) => {
          try {
            const client = await pool.get(m.host, m.port);
            const [id, nodesText] = (await Promise.all([client.call('CLUSTER', 'MYID'), client.call('CLUSTER', 'NODES')])).map(String) as [string, string];
            const nodes = parseClusterNodes(nodesText);
            const myself = nodes.find((n) => n.myself);
            if (!myself) throw new Error('CLUSTER NODES has no myself line');
            views.set(m.address, { member: { ...m, id }, myself, nodes });
          } catch (err) {
            failures.push(`${m.address}: ${errorMessage(err)}`);
          }
        }),
    );
    if (failures.length === 0) return views;
    if (Date.now() >= deadline) throw new Error(`formCluster could not reach ${failures.length} node(s): ${failures.join('; ')}`);
    await sleep(POLL_MS);
  }
}

/**
 * Maps the plan onto node ids. If a shard already failed over (its planned
 * primary now replicates another member of the same shard), the current
 * primary is kept: forming never undoes a failover.
 */
export function resolveRoles(shards: FormClusterShard[], views: Map<string, MemberView>, log: (msg: string) => void): ResolvedShard[] {
  return shards.map((shard) => {
    const all = [shard.primary, ...shard.replicas].map((m) => views.get(`${m.host}:${m.port}`)!.member);
    let primary = all[0]!;
    const planned = views.get(primary.address)!.myself;
    const promoted = planned.role === 'replica' ? all.find((m) => m !== primary && planned.primaryId === m.id) : undefined;
    if (promoted) {
      log(`${promoted.address} already took over as primary from ${primary.address}; keeping it`);
      primary = promoted;
    }
    return { slots: shard.slots, primary, replicas: all.filter((m) => m !== primary) };
  });
}

/** Everything the convergence check needs from one node, in one round trip. */
export async function snapshot(pool: AdminConnectionPool, member: PlannedMember): Promise<NodeSnapshot> {
  try {
    const client = await pool.get(member.host, member.port);
    const replies = await client
      .pipeline()
      .call('CLUSTER', 'NODES')
      .call('CLUSTER', 'INFO')
      .call('CLUSTER', 'SLOTS')
      .call('INFO', 'replication')
      .exec();
    if (!replies) throw new Error('pipeline aborted');
    const failed = replies.find(([err]) => err);
    if (failed) throw failed[0]!;
    const [nodes, info, slots, replication] = replies.map(([, value]) => value) as [string, string, unknown, string];
    return {
      member,
      nodes: parseClusterNodes(nodes),
      clusterInfo: parseInfo(info),
      slotOwners: parseClusterSlots(slots),
      replication: parseInfo(replication),
    };
  } catch (err) {
    return { member, error: errorMessage(err) };
  }
}

export function actionKey(action: ConvergenceAction): string {
  return action.kind === 'meet'
    ? `${action.from.address} met ${action.to.address}`
    : `${action.replica.address} replicates ${action.primary.address}`;
}

export async function applyAction(pool: AdminConnectionPool, action: ConvergenceAction): Promise<void> {
  if (action.kind === 'meet') {
    await meet(await pool.get(action.from.host, action.from.port), action.to);
  } else {
    const client = await pool.get(action.replica.host, action.replica.port);
    await client.call('CLUSTER', 'REPLICATE', action.primary.id);
  }
}

export function meet(client: Redis, to: PlannedMember): Promise<unknown> {
  return client.call('CLUSTER', 'MEET', to.host, String(to.port));
}

/** Sets cluster-node-timeout on a node unless it already has that value. */
export async function ensureNodeTimeout(pool: AdminConnectionPool, member: PlannedMember, ms: number): Promise<boolean> {
  const client = await pool.get(member.host, member.port);
  const current = (await client.call('CONFIG', 'GET', 'cluster-node-timeout')) as string[];
  if (current[1] === String(ms)) return false;
  await client.call('CONFIG', 'SET', 'cluster-node-timeout', String(ms));
  return true;
}
