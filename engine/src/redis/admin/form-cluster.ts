/**
 * Forms a Redis Cluster from running instances, without redis-cli.
 * Idempotent: every step first reads what is already there, so calling it
 * again on a partially or fully formed cluster only finishes the job.
 *
 * Order (chosen for speed; each step is safe to repeat):
 *   1. read every node's id and view (waiting for nodes not answering yet),
 *   2. (a) unique config epochs on fresh nodes,
 *   3. (c) give each primary its missing slots before any MEET, so slot
 *      ownership travels in the very first handshake packets,
 *   4. (b) MEET every node from the first primary,
 *   5. poll every POLL_MS, doing what gossip has not done yet (direct MEET
 *      between nodes that still miss each other, CLUSTER REPLICATE once a
 *      replica knows its primary) until (d) all nodes know all nodes, (e)
 *      replicas are linked and (f) every node reports cluster_state:ok and
 *      the planned slot owners.
 *
 * Two delays in redis itself bound how fast a primary turns cluster_state:ok:
 *   - 2 s after the process started (CLUSTER_WRITABLE_DELAY, hard-coded);
 *   - cluster-node-timeout (clamped to 0.5..5 s) after it last saw itself in a
 *     minority, i.e. after it got its slots. formCluster lowers the timeout to
 *     500 ms on the primaries it assigns slots to, and sets it back to
 *     `nodeTimeoutMs` on every node before it returns (also on failure).
 */
import type { FormClusterShard } from '../../domain';
import type { AdminLogin } from './admin-connection';
import { CLUSTER_NODE_TIMEOUT_MS } from '../config.renderer';
import { AdminConnectionPool, errorMessage } from './admin-connection';
import { subtractRanges } from './cluster-reply.parser';
import { checkConvergence, type PlannedMember } from './cluster-convergence';
import { actionKey, applyAction, ensureNodeTimeout, meet, POLL_MS, readViews, resolveRoles, sleep, snapshot } from './form-cluster.steps';

export interface FormClusterOptions {
  shards: FormClusterShard[];
  /** The internal (admin) user. */
  username: string;
  password: string;
  /** TLS cluster: verify instances against this CA. */
  tls?: AdminLogin['tls'];
  /** Overall deadline; default 30000 ms. */
  timeoutMs?: number;
  /** cluster-node-timeout the instances are configured with; default CLUSTER_NODE_TIMEOUT_MS. */
  nodeTimeoutMs?: number;
  log?: (msg: string) => void;
}

/** Lowest rejoin delay redis applies (CLUSTER_MIN_REJOIN_DELAY). */
const FORMING_NODE_TIMEOUT_MS = 500;
/** How long to wait before repeating a corrective action gossip may still be doing. */
const ACTION_RETRY_MS = 500;

export async function formCluster(opts: FormClusterOptions): Promise<void> {
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const nodeTimeoutMs = opts.nodeTimeoutMs ?? CLUSTER_NODE_TIMEOUT_MS;
  const startedAt = Date.now();
  const deadline = startedAt + timeoutMs;
  const log = opts.log ?? (() => {});
  if (opts.shards.length === 0) throw new Error('formCluster needs at least one shard');
  const pool = new AdminConnectionPool(opts, Math.min(2000, timeoutMs));
  let members: PlannedMember[] = [];
  let succeeded = false;
  try {
    const views = await readViews(pool, opts.shards, deadline);
    const shards = resolveRoles(opts.shards, views, log);
    members = shards.flatMap((s) => [s.primary, ...s.replicas]);
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
        await client.call('CONFIG', 'SET', 'cluster-node-timeout', String(Math.min(FORMING_NODE_TIMEOUT_MS, nodeTimeoutMs)));
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
      const { problems, actions } = checkConvergence(shards, await Promise.all(members.map((m) => snapshot(pool, m))));
      if (problems.length === 0) break;
      if (Date.now() >= deadline) {
        const shown = [...problems.slice(0, 10), ...[...actionErrors].map(([key, err]) => `${key} failed: ${err}`)];
        const more = problems.length > 10 ? ` (+${problems.length - 10} more)` : '';
        throw new Error(`formCluster did not converge within ${timeoutMs} ms: ${shown.join('; ')}${more}`);
      }
      let meets = 0;
      await Promise.all(
        actions.map(async (action) => {
          const key = actionKey(action);
          if (Date.now() - (lastTried.get(key) ?? 0) < ACTION_RETRY_MS) return;
          lastTried.set(key, Date.now());
          try {
            await applyAction(pool, action);
            actionErrors.delete(key);
            if (action.kind === 'meet') meets++;
            else log(key);
          } catch (err) {
            // e.g. "Unknown node" right after a handshake: retry on the next poll but one.
            actionErrors.set(key, errorMessage(err));
            lastTried.set(key, Date.now() - ACTION_RETRY_MS + 2 * POLL_MS);
          }
        }),
      );
      if (meets > 0) log(`${meets} direct MEET(s) between nodes gossip had not introduced yet`);
      await sleep(POLL_MS);
    }
    succeeded = true;
  } finally {
    try {
      await restoreNodeTimeouts(pool, members, nodeTimeoutMs, log);
    } catch (err) {
      // On the failure path the original error matters more; a retry restores it.
      if (succeeded) throw err;
    } finally {
      await pool.closeAll();
    }
  }
  log(`cluster of ${members.length} nodes formed in ${Date.now() - startedAt} ms`);
}

async function restoreNodeTimeouts(pool: AdminConnectionPool, members: PlannedMember[], ms: number, log: (msg: string) => void): Promise<void> {
  const results = await Promise.allSettled(members.map((m) => ensureNodeTimeout(pool, m, ms)));
  const restored = members.filter((_, i) => results[i]?.status === 'fulfilled' && results[i].value);
  if (restored.length > 0) log(`cluster-node-timeout back to ${ms} ms on ${restored.map((m) => m.address).join(', ')}`);
  const failed = results.flatMap((r, i) => (r.status === 'rejected' ? [`${members[i]!.address}: ${errorMessage(r.reason)}`] : []));
  if (failed.length > 0) throw new Error(`could not restore cluster-node-timeout ${ms} on ${failed.join('; ')}`);
}
