/**
 * Membership and settings changes of a topology change: a new, empty
 * primary meets the cluster; an instance's memory, eviction and persistence
 * change at runtime (CONFIG SET), without a restart.
 */
import type { Redis } from 'ioredis';
import type { Durability, EvictionPolicy } from '@strata/api';
import { PERSISTENCE_SETTINGS } from '../config.renderer';
import { parseClusterNodes, parseInfo } from './cluster-reply.parser';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * MEETs a member of the cluster and waits until this node knows the whole
 * slot map (cluster_state ok) and the seed knows this node. Idempotent: a
 * node already in the cluster returns at once.
 */
export async function meetAsPrimary(client: Redis, seed: { host: string; port: number }, seedClient: Redis, opts: { timeoutMs?: number } = {}): Promise<void> {
  const deadline = Date.now() + (opts.timeoutMs ?? 20_000);
  const myId = String(await client.call('CLUSTER', 'MYID'));
  const seedKnowsMe = async () => parseClusterNodes(String(await seedClient.call('CLUSTER', 'NODES')))
    .some((n) => n.id === myId && !n.flags.includes('handshake'));
  if (!(await seedKnowsMe())) await client.call('CLUSTER', 'MEET', seed.host, String(seed.port));
  for (;;) {
    const ok = parseInfo(String(await client.call('CLUSTER', 'INFO'))).cluster_state === 'ok';
    if (ok && (await seedKnowsMe())) return;
    if (Date.now() > deadline) throw new Error(`new primary did not join the cluster through ${seed.host}:${seed.port} in time`);
    await sleep(50);
  }
}

/**
 * Memory limit, eviction policy and persistence at runtime. Persistence
 * turned on starts an AOF rewrite in the background (Redis does it on
 * `appendonly yes`); nothing restarts. Refuses a limit below what the
 * instance holds now.
 */
export async function reconfigureInstance(client: Redis, s: { memoryMb: number; durability: Durability; evictionPolicy: EvictionPolicy }): Promise<void> {
  const used = Number(parseInfo(String(await client.call('INFO', 'memory'))).used_memory ?? 0);
  if (used > s.memoryMb * 1024 * 1024) throw new Error(`instance holds ${Math.ceil(used / 1048576)} MB; maxmemory ${s.memoryMb} MB would not fit`);
  await client.call('CONFIG', 'SET', 'maxmemory', `${s.memoryMb}mb`, 'maxmemory-policy', s.evictionPolicy, ...PERSISTENCE_SETTINGS[s.durability].flat());
}
