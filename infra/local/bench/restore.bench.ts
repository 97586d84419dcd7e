/**
 * Restore-into-another-shape benchmark, in one run on one machine: a 3x0
 * cluster holding KEYS keys (default 200,000; 100-byte values) is backed up
 * to the local directory, then restored RUNS times into a new 2x0 cluster
 * (`POST /v1/clusters` with `restoreFrom`: each file loaded into a temporary
 * engine, its keys moved by slot). The reference, RUNS times: `redis-cli
 * --cluster import` from ONE standalone redis-server holding the same keys
 * into an empty 2x0 cluster (created beforehand, not timed). Prints each run,
 * the medians and the ratio (reference time / Strata time; goal >= 3x),
 * both for Strata's whole restore (POST to ready: the cluster is created
 * too) and for its load-data step alone. Prints the load average at start
 * and end (other work on the machine moves every figure). Asserts nothing.
 *
 *   npm run bench:restore            (KEYS=200000 RUNS=2)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Cluster, Redis } from 'ioredis';
import type { BackupResponse, ClusterWithOperation, Connection, Operation, Topology } from '@strata/api';
import { keySlot } from '@strata/engine';
import { startStack } from '../src/stack';
import { loopbackAddress, loopbackPrefix } from '../src/loopback';

const KEYS = Number(process.env.KEYS ?? 200_000);
const RUNS = Number(process.env.RUNS ?? 2);
const PREFIX = loopbackPrefix('127.0.68');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const loadAverage = () => os.loadavg().map((x) => x.toFixed(2)).join(' / ');
const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

const value = (i: number) => `${'x'.repeat(90)}${String(i).padStart(10, '0')}`;

/** k:0..KEYS-1, one MSET per slot (cluster) or per 1,000 keys (standalone). */
async function loadCluster(c: Cluster): Promise<void> {
  const bySlot = new Map<number, string[]>();
  for (let i = 0; i < KEYS; i++) {
    const kv = bySlot.get(keySlot(`k:${i}`)) ?? [];
    kv.push(`k:${i}`, value(i));
    bySlot.set(keySlot(`k:${i}`), kv);
  }
  const all = [...bySlot.values()];
  for (let i = 0; i < all.length; i += 200) await Promise.all(all.slice(i, i + 200).map((kv) => c.mset(...kv)));
}

async function loadStandalone(c: Redis): Promise<void> {
  for (let i = 0; i < KEYS; i += 1000) {
    const kv: string[] = [];
    for (let j = i; j < Math.min(KEYS, i + 1000); j++) kv.push(`k:${j}`, value(j));
    await c.mset(...kv);
  }
}

const run = (cmd: string, args: string[]) => new Promise<void>((resolve, reject) => {
  const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d) => { err += String(d); });
  child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} exited with ${code}: ${err.slice(-500)}`))));
});

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'strata-bench-restore-'));
  console.log(`load average at start: ${loadAverage()}`);
  const stack = await startStack({ endWithLauncher: true, dir, addressPrefix: PREFIX, port: 0, nodes: 3, nodeMemoryMb: 4096, fastPostgres: true, extraEnv: { STRATA_LOG_LEVEL: process.env.STRATA_LOG_LEVEL ?? 'warn' } });
  const api = async <T>(method: string, p: string, body?: unknown): Promise<T> => {
    const res = await fetch(stack.url + p, { method, headers: { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  const ready = async (id: string) => {
    for (;;) {
      const c = await api<{ status: { phase: string } }>('GET', `/v1/clusters/${id}`);
      if (c.status.phase === 'ready') return;
      if (c.status.phase === 'failed') throw new Error(`cluster ${id} failed`);
      await sleep(50);
    }
  };
  const gone = async (id: string) => {
    await api('DELETE', `/v1/clusters/${id}`);
    for (;;) {
      const res = await fetch(`${stack.url}/v1/clusters/${id}`, { headers: { authorization: `Bearer ${stack.adminToken}` } });
      if (res.status === 404) return;
      await sleep(200);
    }
  };
  const clients: (Cluster | Redis)[] = [];
  let standalone: ReturnType<typeof spawn> | undefined;
  try {
    const { cluster } = await api<ClusterWithOperation>('POST', '/v1/clusters', { name: 'bench-source', shards: 3, replicasPerShard: 0, memoryMbPerShard: 256 });
    await ready(cluster.id);
    const conn = await api<Connection>('GET', `/v1/clusters/${cluster.id}/connection`);
    const uri = new URL(conn.uri);
    const seeds = conn.seeds?.length ? conn.seeds : [`${uri.hostname}:${uri.port}`];
    const app = new Cluster(seeds.map((s) => ({ host: s.slice(0, s.lastIndexOf(':')), port: Number(s.slice(s.lastIndexOf(':') + 1)) })), {
      redisOptions: { username: decodeURIComponent(uri.username), password: decodeURIComponent(uri.password) }, enableAutoPipelining: true,
    });
    app.on('error', () => {});
    clients.push(app);
    let t0 = Date.now();
    await loadCluster(app);
    console.log(`loaded ${KEYS} keys into a 3x0 cluster in ${secs(Date.now() - t0)}`);
    t0 = Date.now();
    const { backup } = await api<BackupResponse>('POST', `/v1/clusters/${cluster.id}/backups`, {});
    for (;;) {
      const b = (await api<BackupResponse>('GET', `/v1/backups/${backup.id}`)).backup;
      if (b.status === 'completed') break;
      if (b.status === 'failed') throw new Error(`backup failed: ${JSON.stringify(b.error)}`);
      await sleep(50);
    }
    console.log(`backed up in ${secs(Date.now() - t0)}`);
    await gone(cluster.id);

    // The reference's source: one standalone redis-server with the same keys.
    const host = loopbackAddress('127.0.68.200');
    standalone = spawn('redis-server', ['--bind', host, '--port', '6399', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });
    let src: Redis | undefined;
    for (let tries = 0; !src; tries++) {
      const c = new Redis({ host, port: 6399, lazyConnect: true, retryStrategy: () => null });
      c.on('error', () => {});
      if (await c.connect().then(() => true, () => false)) src = c;
      else if (tries > 100) throw new Error('the standalone redis-server did not start');
      else await sleep(100);
    }
    clients.push(src);
    await loadStandalone(src);
    console.log(`loaded ${KEYS} keys into one standalone redis-server (the reference's source)`);

    const strataTotal: number[] = [];
    const strataLoad: number[] = [];
    const ref: number[] = [];
    for (let i = 1; i <= RUNS; i++) {
      // Strata: POST to ready, a new 2x0 cluster restored from the 3-shard backup.
      const started = performance.now();
      const created = await api<ClusterWithOperation>('POST', '/v1/clusters', { name: `bench-restored-${i}`, shards: 2, replicasPerShard: 0, memoryMbPerShard: 256, restoreFrom: { backupId: backup.id } });
      await ready(created.cluster.id);
      const total = performance.now() - started;
      const op = await api<Operation>('GET', `/v1/operations/${created.operation.id}`);
      const step = op.steps.find((s) => s.name === 'load-data')!;
      const load = Date.parse(step.finishedAt!) - Date.parse(step.startedAt!);
      const restoredConn = await api<Connection>('GET', `/v1/clusters/${created.cluster.id}/connection`);
      const ru = new URL(restoredConn.uri);
      const check = new Cluster(restoredConn.seeds.map((s) => ({ host: s.slice(0, s.lastIndexOf(':')), port: Number(s.slice(s.lastIndexOf(':') + 1)) })), {
        redisOptions: { username: decodeURIComponent(ru.username), password: decodeURIComponent(ru.password) },
      });
      check.on('error', () => {});
      await check.get('k:0');
      let keys = 0;
      for (const n of check.nodes('master')) keys += Number(await n.dbsize());
      check.disconnect();
      strataTotal.push(total);
      strataLoad.push(load);
      await gone(created.cluster.id);

      // Reference: redis-cli --cluster import from the standalone server into an empty 2x0 cluster (created first, not timed).
      const empty = await api<ClusterWithOperation>('POST', '/v1/clusters', { name: `bench-import-${i}`, shards: 2, replicasPerShard: 0, memoryMbPerShard: 256 });
      await ready(empty.cluster.id);
      const topo = await api<Topology>('GET', `/v1/clusters/${empty.cluster.id}/topology`);
      const primary = topo.shards[0]!.instances.find((x) => x.role === 'primary')!;
      const agent = stack.agents.find((a) => primary.address.startsWith(`${a.address}:`))!;
      const recs = JSON.parse(readFileSync(path.join(agent.dir, 'instances.json'), 'utf8')) as { spec: { instanceId: string }; credentials: { internalUser: string; internalPassword: string } }[];
      const creds = recs.find((r) => r.spec.instanceId === primary.id)!.credentials;
      const refStarted = performance.now();
      await run('redis-cli', ['--user', creds.internalUser, '--pass', creds.internalPassword, '--no-auth-warning', '--cluster', 'import', primary.address, '--cluster-from', `${host}:6399`, '--cluster-copy', '--cluster-replace']);
      const refMs = performance.now() - refStarted;
      ref.push(refMs);
      await gone(empty.cluster.id);
      console.log(`run ${i}: Strata restore 3 -> 2 shards ${secs(total)} POST to ready (load-data ${secs(load)}, ${keys} keys in the new cluster); redis-cli --cluster import ${secs(refMs)}`);
    }
    const ratio = median(ref) / median(strataTotal);
    const loadRatio = median(ref) / median(strataLoad);
    console.log(`restore of ${KEYS} keys from 3 shards into 2, median of ${RUNS}: Strata ${secs(median(strataTotal))} POST to ready (load-data ${secs(median(strataLoad))}), redis-cli --cluster import ${secs(median(ref))}: ${ratio.toFixed(1)}x whole restore, ${loadRatio.toFixed(1)}x load-data alone (goal >= 3x: ${ratio >= 3 ? 'met' : 'NOT met'})`);
  } finally {
    for (const c of clients) c.disconnect();
    if (standalone && standalone.exitCode === null) {
      standalone.kill('SIGKILL');
      await new Promise((r) => standalone!.once('exit', r));
    }
    await stack.stop();
    console.log(`load average at end: ${loadAverage()}`);
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
