/**
 * Membership and settings changes of a topology change: a new, empty
 * primary meets the cluster; an instance's memory, eviction and persistence
 * change at runtime (CONFIG SET), without a restart.
 */
import type { Redis } from 'ioredis';
import { CLUSTER_NODE_TIMEOUT_MS, specSettings, type EngineSettings } from '../config.renderer';
import { parseClusterNodes, parseInfo } from './cluster-reply.parser';
import { TLS_FILES } from '../tls-settings';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** cluster-node-timeout while a new primary joins (see below). */
const JOINING_NODE_TIMEOUT_MS = 500;

/**
 * MEETs the cluster's members and waits until this node knows the whole
 * slot map (cluster_state ok) and the seed knows this node. Idempotent: a
 * node already in the cluster returns at once.
 *
 * Redis holds a primary out of cluster_state:ok for cluster-node-timeout
 * (at least 500 ms) after it last saw itself in a minority, which a new,
 * lone primary was until it met the others: the timeout is lowered to
 * 500 ms while it joins and set back to `nodeTimeoutMs` before returning
 * (also on failure), as formCluster does. Every member is met directly, so
 * the handshakes do not wait for gossip to spread the news.
 */
export async function meetAsPrimary(
  client: Redis, seed: { host: string; port: number }, seedClient: Redis, opts: { timeoutMs?: number; nodeTimeoutMs?: number } = {},
): Promise<void> {
  const deadline = Date.now() + (opts.timeoutMs ?? 20_000);
  const nodeTimeoutMs = opts.nodeTimeoutMs ?? CLUSTER_NODE_TIMEOUT_MS;
  const myId = String(await client.call('CLUSTER', 'MYID'));
  const seedNodes = async () => parseClusterNodes(String(await seedClient.call('CLUSTER', 'NODES')));
  const seedKnowsMe = async () => (await seedNodes()).some((n) => n.id === myId && !n.flags.includes('handshake'));
  if (await seedKnowsMe()) return;
  await client.call('CONFIG', 'SET', 'cluster-node-timeout', String(Math.min(JOINING_NODE_TIMEOUT_MS, nodeTimeoutMs)));
  try {
    await client.call('CLUSTER', 'MEET', seed.host, String(seed.port));
    const others = (await seedNodes()).filter((n) => !n.myself && n.id !== myId && !n.flags.includes('handshake') && !n.flags.includes('fail') && n.port > 0);
    await Promise.all(others.map((n) => client.call('CLUSTER', 'MEET', n.host, String(n.port)).catch(() => undefined)));
    for (;;) {
      const ok = parseInfo(String(await client.call('CLUSTER', 'INFO'))).cluster_state === 'ok';
      if (ok && (await seedKnowsMe())) return;
      if (Date.now() > deadline) throw new Error(`new primary did not join the cluster through ${seed.host}:${seed.port} in time`);
      await sleep(20);
    }
  } finally {
    await client.call('CONFIG', 'SET', 'cluster-node-timeout', String(nodeTimeoutMs));
  }
}

/**
 * Memory limit, eviction policy, persistence and write fencing at runtime. Persistence
 * turned on starts an AOF rewrite in the background (Redis does it on
 * `appendonly yes`); nothing restarts. Refuses a limit below what the
 * instance holds now.
 */
export async function reconfigureInstance(client: Redis, s: EngineSettings): Promise<void> {
  const used = Number(parseInfo(String(await client.call('INFO', 'memory'))).used_memory ?? 0);
  if (used > s.memoryMb * 1024 * 1024) throw new Error(`instance holds ${Math.ceil(used / 1048576)} MB; maxmemory ${s.memoryMb} MB would not fit`);
  await client.call('CONFIG', 'SET', ...specSettings(s).flat());
}

/**
 * Makes a TLS instance load the certificate, key and CA files again (the
 * agent has just rewritten them): Redis rebuilds its TLS context on CONFIG
 * SET of any tls-* file, without a restart. New connections get the new
 * certificate; open ones keep theirs.
 */
export async function reloadTlsFiles(client: Redis): Promise<void> {
  await client.call('CONFIG', 'SET', 'tls-cert-file', TLS_FILES.certFile, 'tls-key-file', TLS_FILES.keyFile, 'tls-ca-cert-file', TLS_FILES.caFile);
}
