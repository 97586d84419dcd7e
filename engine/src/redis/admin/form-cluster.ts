/**
 * Forms a Redis Cluster from running, empty-or-partially-joined instances,
 * without redis-cli. Idempotent: every step first reads what is already
 * there, so calling it again on a formed cluster changes nothing.
 *
 * Order (chosen for speed; each step is safe to repeat):
 *   1. read every node's id and view (waiting for unreachable ones),
 *   2. (a) unique config epochs on fresh nodes,
 *   3. (c) assign each primary its missing slots, before meeting, so slot
 *      ownership travels in the very first handshake packets,
 *   4. (b) MEET every node from the first primary,
 *   5. poll every node, fixing what gossip has not done yet (direct MEET
 *      between nodes that still miss each other, CLUSTER REPLICATE once a
 *      replica knows its primary) until (d) all know all, (e) replicas are
 *      linked and (f) every node reports cluster_state:ok with the planned
 *      slot owners.
 *
 * Note: a primary keeps cluster_state:fail for 2 s after its process starts
 * (CLUSTER_WRITABLE_DELAY in redis' cluster.c); nothing here can shorten that.
 */
import type { FormClusterShard } from '@strata/api';
import type { Redis } from 'ioredis';
import { AdminConnectionPool, errorMessage } from './admin-connection';
import { parseClusterNodes, parseClusterSlots, parseInfo, subtractRanges, type ClusterNodeEntry } from './cluster-reply.parser';
import { checkConvergence, type ConvergenceAction, type NodeSnapshot, type PlannedMember, type ResolvedShard } from './cluster-convergence';

export interface FormClusterOptions {
  shards: FormClusterShard[];
  /** The internal (admin) user. */
  username: string;
  password: string;
  /** Overall deadline; default 30000 ms. */
  timeoutMs?: number;
  log?: (msg: string) => void;
}

const POLL_MS = 25;
/** How long to wait before repeating a corrective action gossip may still be doing. */
const ACTION_RETRY_MS = 500;

interface MemberView {
  member: PlannedMember;
  myself: ClusterNodeEntry;
  nodes: ClusterNodeEntry[];
}

export async function formCluster(opts: FormClusterOptions): Promise<void> {
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const startedAt = Date.now();
  const deadline = startedAt + timeoutMs;
  const log = opts.log ?? (() => {});
  if (opts.shards.length === 0) throw new Error('formCluster needs at least one shard');
  const pool = new AdminConnectionPool(opts, Math.min(2000, timeoutMs));
  try {
    const views = await readViews(pool, opts.shards, deadline);
    const shards = resolveRoles(opts.shards, views, log);
    const members = shards.flatMap((s) => [s.primary, ...s.replicas]);
    const viewOf = (m: PlannedMember) => views.get(m.address)!;

    // (a) Unique config epochs, so primaries never start with colliding epochs.
    await Promise.all(
      members.map(async (m, i) => {
        const { myself, nodes } = viewOf(m);
        if (myself.configEpoch !== 0 || myself.slots.length > 0 || nodes.length > 1) return;
        const client = await pool.get(m.host, m.port);
        await client.call('CLUSTER', 'SET-CONFIG-EPOCH', String(i + 1)).catch(() => undefined);
      }),
    );

    // (c) Each primary gets the planned slots it does not own yet.
    await Promise.all(
      shards.map(async ({ primary, slots }) => {
        const missing = subtractRanges(slots, viewOf(primary).myself.slots);
        if (missing.length === 0) return;
        const args = missing.flatMap((r) => [String(r.start), String(r.end)]);
        const client = await pool.get(primary.host, primary.port);
        await client.call('CONFIG', 'SET', 'cluster-node-timeout', '500');
        await client.call('CLUSTER', 'ADDSLOTSRANGE', ...args).catch((err: unknown) => {
          throw new Error(`CLUSTER ADDSLOTSRANGE ${args.join(' ')} on ${primary.address} failed: ${errorMessage(err)}`);
        });
        log(`assigned slots ${missing.map((r) => `${r.start}-${r.end}`).join(',')} to ${primary.address}`);
      }),
    );

    // (b) Introduce every node to the first primary.
    const first = shards[0]!.primary;
    const firstNodes = viewOf(first).nodes;
    const strangers = members.filter((m) => m !== first && !firstNodes.some((n) => n.id === m.id || (n.host === m.host && n.port === m.port)));
    if (strangers.length > 0) {
      const client = await pool.get(first.host, first.port);
      await Promise.all(strangers.map((m) => meet(client, m)));
      log(`${first.address} met ${strangers.map((m) => m.address).join(', ')}`);
    }

    // (d)-(f) Poll until converged, nudging what gossip has not done yet.
    const lastTried = new Map<string, number>();
    const actionErrors = new Map<string, string>();
    for (;;) {
      const snapshots = await Promise.all(members.map((m) => snapshot(pool, m)));
      const { problems, actions } = checkConvergence(shards, snapshots);
      if (problems.length === 0) break;
      if (Date.now() >= deadline) {
        const details = [...problems.slice(0, 10), ...[...actionErrors].map(([k, v]) => `${k} failed: ${v}`)];
        throw new Error(`formCluster did not converge within ${timeoutMs} ms: ${details.join('; ')}${problems.length > 10 ? ` (+${problems.length - 10} more)` : ''}`);
      }
      let meets = 0;
      await Promise.all(
        actions.map(async (action) => {
          const key = actionKey(action);
          if (Date.now() - (lastTried.get(key) ?? 0) < ACTION_RETRY_MS) return;
          lastTried.set(key, Date.now());
          try {
            await apply(pool, action);
            actionErrors.delete(key);
            if (action.kind === 'meet') meets++;
            else log(key);
          } catch (err) {
            // "Unknown node" right after a handshake is expected: retried on a later poll.
            actionErrors.set(key, errorMessage(err));
            lastTried.set(key, Date.now() - ACTION_RETRY_MS + POLL_MS * 2);
          }
        }),
      );
      if (meets > 0) log(`${meets} direct MEET(s) between nodes gossip had not introduced yet`);
      await sleep(POLL_MS);
    }
    log(`cluster of ${members.length} nodes formed in ${Date.now() - startedAt} ms`);
  } finally {
    await pool.closeAll();
  }
}

function toMember(host: string, port: number): PlannedMember {
  return { host, port, address: `${host}:${port}`, id: '' };
}

/** Connects to every node and reads its id and view, waiting for nodes that do not answer yet. */
async function readViews(pool: AdminConnectionPool, shards: FormClusterShard[], deadline: number): Promise<Map<string, MemberView>> {
  const members = shards.flatMap((s) => [s.primary, ...s.replicas]).map((m) => toMember(m.host, m.port));
  const addresses = new Set(members.map((m) => m.address));
  if (addresses.size !== members.length) throw new Error('formCluster: the same host:port appears twice in the plan');
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
function resolveRoles(shards: FormClusterShard[], views: Map<string, MemberView>, log: (msg: string) => void): ResolvedShard[] {
  return shards.map((shard) => {
    const all = [shard.primary, ...shard.replicas].map((m) => views.get(`${m.host}:${m.port}`)!.member);
    let primary = all[0]!;
    const plannedPrimaryView = views.get(primary.address)!.myself;
    const promoted = all.find((m) => m !== primary && plannedPrimaryView.role === 'replica' && plannedPrimaryView.primaryId === m.id);
    if (promoted) {
      log(`${promoted.address} already took over as primary from ${primary.address}; keeping it`);
      primary = promoted;
    }
    return { slots: shard.slots, primary, replicas: all.filter((m) => m !== primary) };
  });
}

async function snapshot(pool: AdminConnectionPool, member: PlannedMember): Promise<NodeSnapshot> {
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

function actionKey(action: ConvergenceAction): string {
  return action.kind === 'meet'
    ? `${action.from.address} met ${action.to.address}`
    : `${action.replica.address} replicates ${action.primary.address}`;
}

async function apply(pool: AdminConnectionPool, action: ConvergenceAction): Promise<void> {
  if (action.kind === 'meet') {
    await meet(await pool.get(action.from.host, action.from.port), action.to);
  } else {
    const client = await pool.get(action.replica.host, action.replica.port);
    await client.call('CLUSTER', 'REPLICATE', action.primary.id);
  }
}

function meet(client: Redis, to: PlannedMember): Promise<unknown> {
  return client.call('CLUSTER', 'MEET', to.host, String(to.port));
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
