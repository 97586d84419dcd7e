/**
 * Node-loss benchmark: a 3x1 cluster holding KEYS keys (default 100,000) on
 * 4 local nodes; the agent and every engine of one node are killed. Prints
 * the time from the loss to Redis's failover (event), to the node declared
 * down, and to the replication factor restored (cluster ready again, every
 * shard with 2 healthy copies, none on the lost node), and checks every key.
 * Asserts nothing.
 *
 *   npm run bench:node-loss        (KEYS=100000, STRATA_NODE_DOWN_AFTER_MS=15000 by default)
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readlinkSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Cluster } from 'ioredis';
import type { Cluster as ClusterT, ClusterEvent, Connection, Topology } from '@strata/api';
import { startStack } from '../src/stack';

const KEYS = Number(process.env.KEYS ?? 100_000);
const DOWN_AFTER_MS = process.env.STRATA_NODE_DOWN_AFTER_MS ?? '15000';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const dir = mkdtempSync(path.join(os.tmpdir(), 'strata-node-loss-bench-'));
const stack = await startStack({ endWithLauncher: true, dir, addressPrefix: '127.0.28', port: 0, nodes: 4, fastPostgres: true, extraEnv: { STRATA_NODE_DOWN_AFTER_MS: DOWN_AFTER_MS, STRATA_LOG_LEVEL: 'warn' } });
const api = async <T>(method: string, p: string, body?: unknown): Promise<T> => {
  const res = await fetch(stack.url + p, { method, headers: { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
  return (await res.json()) as T;
};
try {
  const created = await api<{ cluster: { id: string } }>('POST', '/v1/clusters', { name: 'loss', shards: 3, replicasPerShard: 1, memoryMbPerShard: 256 });
  const id = created.cluster.id;
  const healthy = async (exclude?: string) => {
    for (;;) {
      const c = await api<ClusterT>('GET', `/v1/clusters/${id}`);
      const t = await api<Topology>('GET', `/v1/clusters/${id}/topology`);
      const ok = c.status.phase === 'ready' && t.shards.every((s) => s.instances.length === 2 && s.instances.every((i) => i.health === 'healthy' && i.nodeId !== exclude));
      if (ok) return t;
      await sleep(100);
    }
  };
  const before = await healthy();
  const conn = await api<Connection>('GET', `/v1/clusters/${id}/connection`);
  const client = new Cluster(conn.seeds.map((s) => ({ host: s.split(':')[0]!, port: Number(s.split(':')[1]) })), { redisOptions: { username: conn.username, password: conn.password } });
  client.on('error', () => {});
  for (let i = 0; i < KEYS; i += 2000) await Promise.all(Array.from({ length: Math.min(2000, KEYS - i) }, (_, k) => client.set(`k:${i + k}`, `v${i + k}`)));
  for (const n of client.nodes('master')) await n.call('WAIT', '1', '10000');

  const victim = before.shards[0]!.instances.find((i) => i.role === 'primary')!;
  const index = stack.agents.findIndex((a) => victim.address.startsWith(`${a.address}:`));
  const agent = stack.agents[index]!;
  const pids = execFileSync('pgrep', ['-x', 'redis-server'], { encoding: 'utf8' }).trim().split('\n').map(Number)
    .filter((pid) => { try { return readlinkSync(`/proc/${pid}/cwd`).startsWith(agent.dir); } catch { return false; } });
  const t0 = performance.now();
  await stack.stopAgent(index, 'SIGKILL');
  for (const pid of pids) try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }

  const when: Record<string, number> = {};
  const watch = (async () => {
    // Until both are seen (one pass may record them together), or a minute.
    for (const until = performance.now() + 60_000; (!when.rebuilt || !when.down) && performance.now() < until;) {
      const events = (await api<{ items: ClusterEvent[] }>('GET', `/v1/clusters/${id}/events?limit=50`)).items;
      const now = performance.now() - t0;
      if (!when.failover && events.some((e) => e.type === 'failover')) when.failover = now;
      if (!when.down && events.some((e) => e.type === 'node-down')) when.down = now;
      if (!when.rebuilt && events.some((e) => e.type === 'replica-rebuilt')) when.rebuilt = now;
      await sleep(50);
    }
  })();
  await healthy(victim.nodeId);
  const restored = performance.now() - t0;
  await watch;
  let present = 0;
  for (let i = 0; i < KEYS; i += 2000) {
    const values = await Promise.all(Array.from({ length: Math.min(2000, KEYS - i) }, (_, k) => client.get(`k:${i + k}`).catch(() => null)));
    present += values.filter((v, k) => v === `v${i + k}`).length;
  }
  client.disconnect();
  const redis = spawnSync('redis-server', ['--version'], { encoding: 'utf8' }).stdout.match(/v=(\S+)/)?.[1];
  console.log(`node loss (agent + engines kill -9), 3x1 cluster, ${KEYS} keys, 4 nodes, node-down after ${DOWN_AFTER_MS} ms (${process.env.STRATA_NODE_DOWN_CONFIRMED_AFTER_MS ?? 4500} ms once its engines' peers confirm), ${os.cpus().length} cores, redis ${redis}`);
  console.log(`failover event           ${(when.failover! / 1000).toFixed(1)} s`);
  console.log(`node-down event          ${(when.down! / 1000).toFixed(1)} s`);
  console.log(`replica-rebuilt event    ${(when.rebuilt! / 1000).toFixed(1)} s`);
  console.log(`replication restored     ${(restored / 1000).toFixed(1)} s (ready, 2 healthy copies per shard, none on the lost node)`);
  console.log(`rebuild after node down  ${((restored - when.down!) / 1000).toFixed(1)} s`);
  console.log(`keys present             ${present} of ${KEYS}`);
} finally {
  await stack.stop();
  rmSync(dir, { recursive: true, force: true });
}
