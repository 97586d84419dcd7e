/**
 * Backup benchmark, in one run on one machine: a 3x1 cluster holding KEYS
 * keys (default 1,000,000; 100-byte values) is backed up RUNS times to
 * SeaweedFS's S3 gateway (a real object store on loopback, its own data
 * directory) through `POST /v1/clusters/{id}/backups` (each shard's
 * snapshot on its replica, streamed by the agent with a multipart upload),
 * and RUNS times with the reference: `redis-cli --rdb` of each primary to a
 * local file, the three in parallel. Prints each run, the medians and the
 * ratio (redis-cli time / Strata time; goal >= 0.8x), and for each run where
 * the time went: each shard's phases on its agent (the task result's
 * `phases`) and the CPU each group of processes used. Strata's time ends
 * when the backup-completed event arrives on the live event stream (no
 * polling load on the control plane). Then PAUSES consistent
 * backups (default 10) under a writer: the write pause each manifest
 * records (p50 / max; goal < 50 ms for 3 shards) and the longest write the
 * writer saw meanwhile. Prints the load average at start and end (other
 * work on the machine moves every figure). Asserts nothing.
 *
 * STORAGE=local backs up to the default storage instead (a directory on
 * the control-plane host, as `npm start` has it), the same comparison
 * without an object store on the machine.
 * WARMUP rounds of both (default 1) run first and are discarded: the
 * agents' first backup compiles its code paths, which a long-running agent
 * has done long before.
 *
 *   npm run bench:backup            (KEYS=1000000 RUNS=3 WARMUP=1 PAUSES=10)
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Cluster } from 'ioredis';
import pg from 'pg';
import type { Backup, BackupResponse, BackupShardResult, Connection, Topology } from '@strata/api';
import { startStack } from '../src/stack';
import { loopbackAddress, loopbackPrefix } from '../src/loopback';
import { startSeaweedFs } from '../src/seaweedfs.runner';
import { cpuMeter, enginePids } from './process-cpu';

const KEYS = Number(process.env.KEYS ?? 1_000_000);
const RUNS = Number(process.env.RUNS ?? 3);
const WARMUP = Number(process.env.WARMUP ?? 1);
const STORAGE = process.env.STORAGE === 'local' ? 'local' : 's3';
const PAUSES = Number(process.env.PAUSES ?? 10);
const PREFIX = loopbackPrefix('127.0.67');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const pct = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))]!;
const loadAverage = () => os.loadavg().map((x) => x.toFixed(2)).join(' / ');
const MB = 1024 * 1024;

/** Redis Cluster's hash slot of a key without a {hash tag}: CRC16-XMODEM mod 16384. */
function calculateSlot(key: string): number {
  let crc = 0;
  for (const byte of Buffer.from(key)) {
    crc ^= byte << 8;
    for (let b = 0; b < 8; b++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc % 16384;
}

/** k:0..KEYS-1 with 100-byte values: one MSET per slot, in batches of 200 slots at a time. */
async function load(c: Cluster): Promise<void> {
  const bySlot = new Map<number, string[]>();
  const value = 'x'.repeat(90);
  for (let i = 0; i < KEYS; i++) {
    const key = `k:${i}`;
    const slot = calculateSlot(key);
    const kv = bySlot.get(slot) ?? [];
    kv.push(key, `${value}${String(i).padStart(10, '0')}`);
    bySlot.set(slot, kv);
  }
  const all = [...bySlot.values()];
  for (let i = 0; i < all.length; i += 200) await Promise.all(all.slice(i, i + 200).map((kv) => c.mset(...kv)));
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'strata-bench-backup-'));
  console.log(`load average at start: ${loadAverage()}`);
  const stack = await startStack({ endWithLauncher: true, dir, addressPrefix: PREFIX, port: 0, nodes: 3, nodeMemoryMb: 4096, fastPostgres: true, extraEnv: { STRATA_LOG_LEVEL: process.env.STRATA_LOG_LEVEL ?? 'warn' } });
  const s3 = await startSeaweedFs({ dir: path.join(dir, 'seaweedfs'), address: loopbackAddress('127.0.67.250') });
  const api = async <T>(method: string, p: string, body?: unknown): Promise<T> => {
    const res = await fetch(stack.url + p, { method, headers: { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  const clients: Cluster[] = [];
  let db: pg.Client | undefined;
  const liveStream = new AbortController();
  try {
    // STORAGE=local: the default storage (a directory on the control-plane host), as `npm start` has it.
    if (STORAGE === 's3') await api('PUT', '/v1/backup-storage', { kind: 's3', endpoint: s3.endpoint, bucket: s3.bucket, region: s3.region, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey });
    const { cluster } = await api<{ cluster: { id: string } }>('POST', '/v1/clusters', { name: 'bench-backup', shards: 3, replicasPerShard: 1, memoryMbPerShard: 512 });
    for (;;) {
      const c = await api<{ status: { phase: string } }>('GET', `/v1/clusters/${cluster.id}`);
      if (c.status.phase === 'ready') break;
      await sleep(250);
    }
    const conn = await api<Connection>('GET', `/v1/clusters/${cluster.id}/connection`);
    const uri = new URL(conn.uri);
    const seeds = conn.seeds?.length ? conn.seeds : [`${uri.hostname}:${uri.port}`];
    const nodes = seeds.map((s) => ({ host: s.slice(0, s.lastIndexOf(':')), port: Number(s.slice(s.lastIndexOf(':') + 1)) }));
    const auth = { username: decodeURIComponent(uri.username), password: decodeURIComponent(uri.password) };
    const app = new Cluster(nodes, { redisOptions: auth, enableAutoPipelining: true });
    app.on('error', () => {});
    clients.push(app);
    const t0 = Date.now();
    await load(app);
    for (const n of app.nodes('master')) await n.call('WAIT', '1', '60000');
    console.log(`loaded ${KEYS} keys in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

    // The reference reads each primary as redis-cli would, with the agents' internal user.
    const topo = await api<Topology>('GET', `/v1/clusters/${cluster.id}/topology`);
    const primaries = topo.shards.map((s) => s.instances.find((i) => i.role === 'primary')!);
    const creds = (address: string, id: string) => {
      const agent = stack.agents.find((a) => address.startsWith(`${a.address}:`))!;
      const recs = JSON.parse(readFileSync(path.join(agent.dir, 'instances.json'), 'utf8')) as { spec: { instanceId: string }; credentials: { internalUser: string; internalPassword: string } }[];
      return recs.find((r) => r.spec.instanceId === id)!.credentials;
    };
    const refDir = path.join(dir, 'redis-cli');
    mkdirSync(refDir, { recursive: true });
    const redisCliRdb = async () => {
      const started = performance.now();
      let bytes = 0;
      await Promise.all(primaries.map((p, i) => new Promise<void>((resolve, reject) => {
        const c = creds(p.address, p.id);
        const [host, port] = p.address.split(':');
        const file = path.join(refDir, `shard-${i}.rdb`);
        const child = spawn('redis-cli', ['-h', host!, '-p', port!, '--user', c.internalUser, '--pass', c.internalPassword, '--no-auth-warning', '--rdb', file], { stdio: 'ignore' });
        child.on('exit', (code) => {
          if (code !== 0) return reject(new Error(`redis-cli --rdb of ${p.address} exited with ${code}`));
          bytes += statSync(file).size;
          resolve();
        });
      })));
      const ms = performance.now() - started;
      rmSync(refDir, { recursive: true, force: true });
      mkdirSync(refDir, { recursive: true });
      return { ms, bytes };
    };
    // Completion is seen on the organization's live event stream (the backup-completed or -failed event the
    // control plane records as it ends the backup), as a console or a script would: no polling load on the
    // control plane during the measurement.
    const ended = new Map<string, () => void>();
    let endEventAt = 0;
    const live = await fetch(`${stack.url}/v1/events/stream`, { headers: { authorization: `Bearer ${stack.adminToken}`, accept: 'text/event-stream' }, signal: liveStream.signal });
    if (!live.ok || !live.body) throw new Error(`GET /v1/events/stream: ${live.status}`);
    void (async () => {
      let buf = '';
      for await (const chunk of live.body!.pipeThrough(new TextDecoderStream())) {
        buf += chunk;
        for (let i = buf.indexOf('\n\n'); i >= 0; i = buf.indexOf('\n\n')) {
          const frame = buf.slice(0, i);
          buf = buf.slice(i + 2);
          const data = /^data: (.*)$/m.exec(frame)?.[1];
          const e = data ? (JSON.parse(data) as { type: string; clusterId?: string; eventType?: string }) : null;
          if (e?.type === 'cluster-activity' && /^backup-(completed|failed)$/.test(e.eventType ?? '')) {
            endEventAt = performance.now();
            for (const f of ended.values()) f();
          }
        }
      }
    })().catch(() => {});
    const strataBackup = async (consistent: boolean): Promise<{ ms: number; backup: Backup }> => {
      const started = performance.now();
      let wake = () => {};
      const key = String(started);
      ended.set(key, () => wake());
      try {
        const { backup } = await api<BackupResponse>('POST', `/v1/clusters/${cluster.id}/backups`, { consistent });
        for (;;) {
          // Woken by the event (a slow safety poll covers a dropped stream).
          const woken = new Promise<void>((r) => { wake = r; setTimeout(r, 2000); });
          const b = (await api<BackupResponse>('GET', `/v1/backups/${backup.id}`)).backup;
          if (b.status === 'completed') return { ms: (endEventAt > started ? endEventAt : performance.now()) - started, backup: b };
          if (b.status === 'failed') throw new Error(`backup failed: ${JSON.stringify(b.error)}`);
          await woken;
        }
      } finally {
        ended.delete(key);
      }
    };

    db = new pg.Client({ connectionString: stack.databaseUrl });
    await db.connect();
    /** What each shard's agent measured (the tasks' results). */
    const agentPhases = async (backupId: string) => {
      const r = await db!.query<{ result: BackupShardResult }>("SELECT result FROM tasks WHERE dedupe_key LIKE $1 AND state = 'succeeded' ORDER BY dedupe_key", [`backup:${backupId}:%`]);
      return r.rows.map((x) => x.result.phases).map((p) => (p ? `${p.openMs}/${p.streamMs}/${p.storeMs} ms (agent CPU ${p.cpuMs} ms)` : 'not measured')).join(', ');
    };
    const groups = {
      engines: () => enginePids(PREFIX), agents: () => stack.agents.map((a) => a.proc?.child.pid ?? 0).filter(Boolean),
      'control plane': () => stack.controlPlanes.map((c) => c.proc?.child.pid ?? 0).filter(Boolean), SeaweedFS: () => [s3.pid], 'redis-cli and this bench': () => [process.pid],
    };

    for (let w = 1; w <= WARMUP; w++) {
      const s = await strataBackup(false);
      await api('DELETE', `/v1/backups/${s.backup.id}`);
      const r = await redisCliRdb();
      console.log(`warm-up ${w} (discarded): Strata ${(s.ms / 1000).toFixed(2)} s, redis-cli ${(r.ms / 1000).toFixed(2)} s`);
      await sleep(500);
    }
    const strata: number[] = [];
    const ref: number[] = [];
    for (let run = 1; run <= RUNS; run++) {
      let cpu = cpuMeter(groups);
      const s = await strataBackup(false);
      // A fork's CPU counts once its instance reaped it (its cron does, within a few hundred ms).
      await sleep(500);
      const strataCpu = cpu();
      const bytes = s.backup.manifest!.shards.reduce((n, x) => n + x.bytes, 0);
      strata.push(s.ms);
      const phasesOfAgents = await agentPhases(s.backup.id);
      await api('DELETE', `/v1/backups/${s.backup.id}`);
      cpu = cpuMeter(groups);
      const r = await redisCliRdb();
      await sleep(500);
      const refCpu = cpu();
      ref.push(r.ms);
      const m = s.backup.manifest!;
      const t = (iso: string) => Date.parse(iso);
      const phases = `start to first snapshot ${Math.min(...m.shards.map((x) => t(x.snapshotAt))) - t(m.startedAt)} ms, snapshot+upload per shard ${m.shards.map((x) => t(x.finishedAt) - t(x.snapshotAt)).join('/')} ms, last shard to completed ${t(s.backup.finishedAt!) - Math.max(...m.shards.map((x) => t(x.finishedAt)))} ms`;
      console.log(`run ${run}: ${phases}`);
      console.log(`run ${run}: per shard, on its agent: open (fork, SYNC answered) / stream (to its last byte) / store (last part, completion): ${phasesOfAgents}`);
      console.log(`run ${run}: CPU ms during Strata's backup and 0.5 s after: ${strataCpu}; during redis-cli's and 0.5 s after: ${refCpu}`);
      console.log(`run ${run}: Strata to ${STORAGE === 's3' ? 'S3' : 'local'} ${(s.ms / 1000).toFixed(2)} s (${(bytes / MB).toFixed(1)} MB, ${(bytes / MB / (s.ms / 1000)).toFixed(1)} MB/s, skew ${s.backup.manifest!.skewMs} ms); redis-cli --rdb x3 to local files ${(r.ms / 1000).toFixed(2)} s (${(r.bytes / MB).toFixed(1)} MB)`);
    }
    const ratio = median(ref) / median(strata);
    console.log(`backup of ${KEYS} keys on 3 shards, median of ${RUNS}: Strata to ${STORAGE === 's3' ? 'SeaweedFS' : 'the local directory'} ${(median(strata) / 1000).toFixed(2)} s, redis-cli --rdb ${(median(ref) / 1000).toFixed(2)} s: ${ratio.toFixed(2)}x (goal >= 0.8x: ${ratio >= 0.8 ? 'met' : 'NOT met'})`);

    // Consistent mode under a writer: the pause each manifest records, and the longest write meanwhile.
    if (PAUSES < 1) return;
    const writer = new Cluster(nodes, { redisOptions: auth });
    writer.on('error', () => {});
    clients.push(writer);
    let stop = false;
    let longestWriteMs = 0;
    let writes = 0;
    const loop = (async () => {
      for (let i = 0; !stop; i++) {
        const t = performance.now();
        await writer.set(`w:${i % 1000}`, String(i)).catch(() => {});
        longestWriteMs = Math.max(longestWriteMs, performance.now() - t);
        writes++;
      }
    })();
    const pauses: number[] = [];
    for (let i = 0; i < PAUSES; i++) {
      const s = await strataBackup(true);
      pauses.push(s.backup.manifest!.writePauseMs!);
      await api('DELETE', `/v1/backups/${s.backup.id}`);
    }
    stop = true;
    await loop;
    const p50 = pct(pauses, 0.5);
    const max = Math.max(...pauses);
    console.log(`consistent backups x${PAUSES}: write pause p50 ${p50.toFixed(1)} ms, max ${max.toFixed(1)} ms (goal < 50 ms: ${max < 50 ? 'met' : p50 < 50 ? 'met at p50, not at max' : 'NOT met'}); the writer's longest SET meanwhile ${longestWriteMs.toFixed(1)} ms over ${writes} writes`);
    console.log(`pauses: ${pauses.map((p) => p.toFixed(1)).join(', ')}`);
  } finally {
    for (const c of clients) c.disconnect();
    liveStream.abort();
    await db?.end();
    await s3.stop();
    await stack.stop();
    console.log(`load average at end: ${loadAverage()}`);
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
