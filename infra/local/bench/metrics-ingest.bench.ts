/**
 * Benchmark: metrics ingestion at fleet scale. Simulates NODES agents x
 * INSTANCES engine instances pushing one batch per second (host sample +
 * one sample per instance, on the wall-clock second like real agents) to a
 * real control plane on a real PostgreSQL, while a prober calls the API.
 * Like real agents, each simulated node also reports its instances' status
 * every second (healthy primaries of NODES ready 4-shard clusters), so the
 * reconciler sees a live, settled fleet, not 1,000 silent nodes to heal.
 * As real agents do, a quiet node's status report rides on its metrics push
 * (one request per node per second); STATUS=separate sends it on its own
 * (two requests, as agents did before), STATUS=0 leaves it out.
 * Prints control-plane CPU, API latency while ingesting, PostgreSQL rows/s
 * written, and whether ingestion keeps up. Asserts nothing.
 *
 *   npm run bench:metrics                      (NODES=1000 INSTANCES=4 SECONDS=30 PUSH_SECONDS=1)
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';
import { startPostgres } from '../src/postgres.runner';
import { REPO_ROOT, startTs, stopProcess } from '../src/process';

const NODES = Number(process.env.NODES ?? 1000);
const INSTANCES = Number(process.env.INSTANCES ?? 4);
const SECONDS = Number(process.env.SECONDS ?? 30);
const WARMUP = Number(process.env.WARMUP ?? 10);
/** Seconds of samples per push (the agent's STRATA_AGENT_METRICS_PUSH_SECONDS). */
const PUSH_SECONDS = Number(process.env.PUSH_SECONDS ?? 1);
const STATUS_MODE = (process.env.STATUS ?? 'carried') as 'carried' | 'separate' | '0';
if (!['carried', 'separate', '0'].includes(STATUS_MODE)) throw new Error('STATUS is carried (default), separate or 0');
const STATUS = STATUS_MODE !== '0';
/** Pushes spread over this many ms after each second (the agent's per-node push delay: PUSH_SPREAD_MS, 700). */
const SPREAD_MS = Number(process.env.SPREAD_MS ?? 700);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], q: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN; };
const cpuTicks = (pid: number) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' '); return Number(f[11]) + Number(f[12]); };
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const TICK = 100; // USER_HZ
/**
 * The simulated agents' requests go over kept-alive connections (a real
 * agent holds one to the control plane), at most SOCKETS at once: a new TCP
 * connection per request overflows the listen backlog at these rates.
 */
const agentPool = new http.Agent({ keepAlive: true, maxSockets: Number(process.env.SOCKETS ?? 256) });
function agentPost(url: string, credential: string, body: unknown): Promise<{ status: number; body: string }> {
  const data = Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent: agentPool, headers: { authorization: `Bearer ${credential}`, 'content-type': 'application/json', 'content-length': data.length } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.setTimeout(30_000, () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end(data);
  });
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'strata-bench-metrics-'));
  console.log(`metrics ingestion benchmark: ${NODES} nodes x ${INSTANCES} instances sampled at 1 Hz, pushed every ${PUSH_SECONDS} s, ${SECONDS} s measured after ${WARMUP} s warm-up; status reports every 1 s: ${STATUS_MODE === '0' ? 'no' : STATUS_MODE === 'carried' ? 'carried by the metrics push' : 'separate requests'}`);
  console.log(`machine: ${os.cpus().length} cores (${os.cpus()[0]?.model}), shared with other work; PostgreSQL with fsync on`);
  const pgh = await startPostgres({ dataDir: path.join(dir, 'pg'), logFile: path.join(dir, 'pg.log') });
  // PROFILE_DIR=/some/dir writes a V8 CPU profile of the control plane there.
  const cp = await startTs({
    entry: path.join(REPO_ROOT, 'control-plane/src/main.ts'),
    env: {
      ...process.env, DATABASE_URL: pgh.url, STRATA_HOME: dir, STRATA_PORT: '0', STRATA_LOG_LEVEL: process.env.STRATA_LOG_LEVEL ?? 'warn', STRATA_ADMIN_TOKEN: 'bench-admin-token-0123456789',
      ...(process.env.PROFILE_DIR ? { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${path.join(import.meta.dirname, 'cpu-profile.cjs')}` } : {}),
    },
    logFile: path.join(dir, 'control-plane.log'), readyPrefix: 'STRATA_LISTENING',
  });
  const url = `http://127.0.0.1:${cp.readyLine.split(' ')[1]}`;
  const cpPid = cp.child.pid!;
  const admin = { authorization: 'Bearer bench-admin-token-0123456789', 'content-type': 'application/json' };
  const pool = new pg.Pool({ connectionString: pgh.url, max: 4 });
  try {
    // Nodes register through the real agent protocol (join token, then credential).
    process.stdout.write(`registering ${NODES} nodes… `);
    const nodes: { id: string; credential: string; address: string }[] = [];
    for (let i = 0; i < NODES; i += 50) {
      nodes.push(...(await Promise.all(Array.from({ length: Math.min(50, NODES - i) }, async (_, j) => {
        const n = i + j;
        const { token } = (await (await fetch(`${url}/v1/nodes/join-tokens`, { method: 'POST', headers: admin, body: '{}' })).json()) as { token: string };
        const address = `10.${Math.floor(n / 250)}.${n % 250}.1`;
        const r = (await (await fetch(`${url}/v1/agent/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ joinToken: token, name: `sim-${n}`, address, memoryMb: 8192, agentVersion: 'bench' }) })).json()) as { nodeId: string; credential: string };
        return { id: r.nodeId, credential: r.credential, address };
      }))));
    }
    console.log('done');
    let stop = false;
    let measuring = false;
    const perNode = new Map<string, { instanceId: string; clusterId: string; port: number; shard: number; engineId: string }[]>();
    // Status: what a healthy agent reports every second (instances running, each a primary owning its share of the slots),
    // from registration on, so no node is ever silent; an instance is reported once its row exists.
    const status = (nodeId: string) => ({
      agentVersion: 'bench', memoryMb: 8192, sparePorts: [], endpointPorts: [],
      instances: (perNode.get(nodeId) ?? []).map((i) => ({
        instanceId: i.instanceId, clusterId: i.clusterId, port: i.port, pid: 1000 + i.port, state: 'running', restarts: 0, lastError: null, held: false, crashedAt: null,
        cluster: {
          myId: i.engineId, role: 'primary', state: 'ok', knownNodes: INSTANCES, slotsAssigned: 16384, primaryId: null, primaryLinkUp: null,
          slotsOwned: Math.floor(16384 / INSTANCES), openSlots: [], replOffset: 0, linkDownSinceSec: null, syncInProgress: false, configEpoch: i.shard + 1,
        },
      })),
    });
    let statusSent = 0, statusFailed = 0;
    const statusLat: number[] = [];
    let pushing = false;
    const reporter = (async () => {
      // Carried: on their own only until the metrics pushes start (as before a real agent's first push).
      while (STATUS && !stop && !(STATUS_MODE === 'carried' && pushing && PUSH_SECONDS === 1)) {
        const start = Date.now();
        for (const [idx, n] of nodes.entries()) {
          const due = start + Math.floor((idx * 1000) / nodes.length);
          if (due > Date.now()) await sleep(due - Date.now());
          const t0 = performance.now();
          void agentPost(`${url}/v1/agent/status`, n.credential, status(n.id))
            .then((res) => {
              if (measuring) { statusSent++; statusLat.push(performance.now() - t0); if (res.status >= 300) statusFailed++; }
            })
            .catch(() => { if (measuring) statusFailed++; });
        }
        await sleep(Math.max(0, start + 1000 - Date.now()));
      }
    })();

    // Clusters of INSTANCES primaries, each instance on a different node (SQL: no agents to build them).
    const org = (await pool.query("SELECT id FROM organizations WHERE name = 'default'")).rows[0].id as string;
    const spec = JSON.stringify({ shards: INSTANCES, replicasPerShard: 0, memoryMbPerShard: 256, durability: 'none', evictionPolicy: 'noeviction', engineVersion: '7' });
    const clusterIds: string[] = [];
    for (let c = 0; c < NODES; c++) {
      const clusterId = randomUUID();
      clusterIds.push(clusterId);
      await pool.query("INSERT INTO clusters (id, organization_id, name, spec, phase, secrets_enc, needs_reconcile) VALUES ($1, $2, $3, $4, 'ready', 'x', false)", [clusterId, org, `bench-${c}`, spec]);
      const rows = Array.from({ length: INSTANCES }, (_, s) => ({ id: randomUUID(), shard: s, node: nodes[(c + s * Math.floor(NODES / INSTANCES)) % NODES]!, port: 7000 + s }));
      await pool.query(
        `INSERT INTO instances (id, cluster_id, shard_index, role, preferred_role, replica_index, node_id, port, memory_mb)
         SELECT i, $2, s, 'primary', 'primary', 0, n, p, 256 FROM unnest($1::uuid[], $3::int[], $4::uuid[], $5::int[]) AS u(i, s, n, p)`,
        [rows.map((r) => r.id), clusterId, rows.map((r) => r.shard), rows.map((r) => r.node.id), rows.map((r) => r.port)],
      );
      for (const r of rows) {
        const list = perNode.get(r.node.id) ?? [];
        list.push({ instanceId: r.id, clusterId, port: r.port, shard: r.shard, engineId: randomUUID().replaceAll('-', '').padEnd(40, '0') });
        perNode.set(r.node.id, list);
      }
    }
    await sleep(6000); // the control plane's instance directory reloads every 5 s

    const latency = new Array<number>(27).fill(0);
    const seconds = (ts: number) => Array.from({ length: PUSH_SECONDS }, (_, k) => ts - (PUSH_SECONDS - 1 - k) * 1000);
    const batch = (nodeId: string, ts: number) => ({
      host: seconds(ts).map((t) => ({ ts: t, cpu: 0.3, memoryTotal: 8e9, memoryAvailable: 5e9, diskTotal: 1e11, diskFree: 6e10 })),
      instances: seconds(ts).flatMap((t) => (perNode.get(nodeId) ?? []).map((i) => {
        latency[3] = 900; latency[4] = 95; latency[8] = 5;
        return {
          instanceId: i.instanceId, clusterId: i.clusterId, ts: t, intervalMs: 1000, role: 'primary', restarted: false, reads: 700, writes: 300, others: 5,
          latency, latencySumUs: 9000, clients: 20, usedMemory: 5e7, maxMemory: 2.7e8, keys: 1e5, evicted: 0, expired: 2, hits: 650, misses: 50,
          netIn: 6e4, netOut: 4e4, cpuSeconds: 0.05, replicas: [],
        };
      })),
      ...(STATUS_MODE === 'carried' ? { status: status(nodeId) } : {}),
    });

    // Load: every node samples on the second and pushes after a stable per-node delay of 0-SPREAD_MS ms, like real agents.
    const pushLat: number[] = [];
    let sent = 0, accepted = 0, rejected = 0, failed = 0, skipped = 0;
    const inFlight = new Set<string>();
    const failures = new Map<string, number>();
    const pusher = (async () => {
      while (!stop) {
        await sleep(1000 - (Date.now() % 1000) + 20);
        const ts = Math.floor(Date.now() / 1000) * 1000;
        if ((ts / 1000) % PUSH_SECONDS !== 0) continue;
        pushing = true;
        for (const [idx, n] of nodes.entries()) {
          const due = ts + 20 + Math.floor((idx * SPREAD_MS) / nodes.length);
          if (due > Date.now()) await sleep(due - Date.now());
          if (inFlight.has(n.id)) { if (measuring) skipped++; continue; }
          inFlight.add(n.id);
          const t0 = performance.now();
          void agentPost(`${url}/v1/agent/metrics`, n.credential, batch(n.id, ts))
            .then((res) => {
              if (measuring) {
                pushLat.push(performance.now() - t0);
                if (res.status < 300) {
                  const body = JSON.parse(res.body) as { accepted: number; rejected: number };
                  accepted += body.accepted;
                  rejected += body.rejected;
                } else {
                  failed++;
                  failures.set(`HTTP ${res.status}`, (failures.get(`HTTP ${res.status}`) ?? 0) + 1);
                }
                sent += INSTANCES * PUSH_SECONDS;
              }
            })
            .catch((err: Error) => {
              if (!measuring) return;
              failed++;
              failures.set(err.message, (failures.get(err.message) ?? 0) + 1);
            })
            .finally(() => inFlight.delete(n.id));
        }
      }
    })();

    // Prober: the API a console user hits while this goes on.
    const apiLat: Record<string, number[]> = { 'cluster metrics (5 min, by shard)': [], 'current ops of 1,000 clusters': [], 'list clusters': [] };
    let probeErrors = 0;
    const prober = (async () => {
      const h = { authorization: admin.authorization };
      let i = 0;
      while (!stop) {
        const [name, p] = ([
          ['cluster metrics (5 min, by shard)', `/v1/clusters/${clusterIds[i % clusterIds.length]}/metrics?metric=ops,latency_p99&from=-5m&by=shard`],
          ['current ops of 1,000 clusters', '/v1/metrics/clusters'],
          ['list clusters', '/v1/clusters'],
        ] as const)[i++ % 3]!;
        const t0 = performance.now();
        try {
          await (await fetch(url + p, { headers: h })).arrayBuffer();
          if (measuring) apiLat[name]!.push(performance.now() - t0);
        } catch (err) {
          probeErrors++;
          if (probeErrors === 1) console.log(`API probe failed: ${(err as Error).message} ${String((err as { cause?: unknown }).cause ?? '')}${cp.child.exitCode !== null ? ' (the control plane exited)' : ''}`);
        }
        await sleep(100);
      }
    })();

    const insertedRows = async () => Number((await pool.query("SELECT coalesce(sum(n_tup_ins), 0) AS n FROM pg_stat_user_tables WHERE relname LIKE 'metric\\_%'")).rows[0].n);
    const scrapeToken = readFileSync(path.join(dir, 'metrics-token'), 'utf8').trim();
    const scrape = async () => (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${scrapeToken}` }, signal: AbortSignal.timeout(20_000) })).text();
    const gauge = (text: string, name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
    /** The sum over every labelled series of a metric. */
    const total = async (name: string) => {
      const text = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${scrapeToken}` }, signal: AbortSignal.timeout(20_000) })).text();
      return [...text.matchAll(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'gm'))].reduce((n, m) => n + Number(m[1]), 0);
    };

    console.log(`warming up ${WARMUP} s…`);
    await sleep(WARMUP * 1000);
    const passes0 = await total('strata_reconcile_passes_total');
    measuring = true;
    const t0 = performance.now();
    const cpu0 = cpuTicks(cpPid);
    const client0 = process.cpuUsage();
    const pgPids = async () => [Number(readFileSync(path.join(dir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]), ...(await pool.query('SELECT pid FROM pg_stat_activity')).rows.map((r) => r.pid as number)];
    const pgCpu = async () => { let t = 0; for (const pid of await pgPids()) { try { t += cpuTicks(pid); } catch { /* gone */ } } return t; };
    const pg0 = await pgCpu();
    const rows0 = await insertedRows();
    const queues: number[] = [];
    const loopMax: number[] = [];
    // Event-loop delay: prom-client's monitor, reset at every scrape (so: the worst stall of each 5 s).
    console.log('   t    cp cpu   rss MB   pushes/s   push p99   write queue   rows/s   loop max');
    let lastCpu = cpu0, lastRows = rows0, lastT = t0, lastPushes = 0;
    for (let s = 5; s <= SECONDS; s += 5) {
      await sleep(5000);
      const now = performance.now(), cpu = cpuTicks(cpPid), rows = await insertedRows(), text = await scrape(), q = gauge(text, 'strata_metrics_write_queue_rows');
      const lag = gauge(text, 'strata_control_plane_nodejs_eventloop_lag_max_seconds') * 1000;
      queues.push(q);
      loopMax.push(lag);
      const dt = (now - lastT) / 1000;
      console.log(`${String(s).padStart(4)} s  ${((cpu - lastCpu) / TICK / dt).toFixed(2).padStart(6)}   ${rssMb(cpPid).toFixed(0).padStart(6)}   ${((pushLat.length - lastPushes) / dt).toFixed(0).padStart(8)}   ${pct(pushLat.slice(lastPushes), 0.99).toFixed(0).padStart(5)} ms   ${String(q).padStart(11)}   ${((rows - lastRows) / dt).toFixed(0).padStart(6)}   ${lag.toFixed(0).padStart(5)} ms`);
      lastCpu = cpu; lastRows = rows; lastT = now; lastPushes = pushLat.length;
    }
    const wall = (performance.now() - t0) / 1000;
    const cpuCores = (cpuTicks(cpPid) - cpu0) / TICK / wall;
    const clientCpu = process.cpuUsage(client0);
    const clientCores = (clientCpu.user + clientCpu.system) / 1e6 / wall;
    const pgCores = ((await pgCpu()) - pg0) / TICK / wall;
    const rowsPerSec = ((await insertedRows()) - rows0) / wall;
    measuring = false;
    stop = true;
    await Promise.all([pusher, prober, reporter]);
    await sleep(1500);
    const dropped = gauge(await scrape(), 'strata_metrics_rows_dropped_total');

    const expectedSamples = NODES * INSTANCES * wall;
    console.log('\nresults');
    console.log(`  control-plane CPU              ${cpuCores.toFixed(2)} cores (goal: under 1)    RSS ${rssMb(cpPid).toFixed(0)} MB`);
    console.log(`  control-plane CPU per sample   ${((cpuCores / (accepted / wall)) * 1e6).toFixed(0)} µs (=> ${((cpuCores / (accepted / wall)) * NODES * INSTANCES).toFixed(2)} cores at ${NODES * INSTANCES} samples/s if it got the CPU)`);
    console.log(`  on the same 2 cores            PostgreSQL backends ${pgCores.toFixed(2)} cores (approx.), this load generator ${clientCores.toFixed(2)} cores; load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
    console.log(`  samples pushed                 ${sent} (${(sent / wall).toFixed(0)}/s; ideal ${(expectedSamples / wall).toFixed(0)}/s), accepted ${accepted}, rejected ${rejected}, failed pushes ${failed}${failures.size ? ` (${[...failures].map(([k, v]) => `${v}x ${k}`).join('; ')})` : ''}, pushes skipped (previous still in flight) ${skipped}`);
    console.log(`  agent push latency             p50 ${pct(pushLat, 0.5).toFixed(1)} ms, p99 ${pct(pushLat, 0.99).toFixed(1)} ms`);
    if (STATUS_MODE === 'carried' && PUSH_SECONDS === 1) console.log('  agent status reports           carried by the metrics pushes');
    else if (STATUS) console.log(`  agent status reports           ${(statusSent / wall).toFixed(0)}/s, failed ${statusFailed}, p50 ${pct(statusLat, 0.5).toFixed(1)} ms, p99 ${pct(statusLat, 0.99).toFixed(1)} ms`);
    const passes = await total('strata_reconcile_passes_total');
    console.log(`  reconcile passes               ${((passes - passes0) / wall).toFixed(1)}/s while measuring, ${passes} in total (${NODES} clusters)`);
    for (const [name, xs] of Object.entries(apiLat)) console.log(`  API ${name.padEnd(34)} p50 ${pct(xs, 0.5).toFixed(1)} ms, p99 ${pct(xs, 0.99).toFixed(1)} ms (n=${xs.length})`);
    if (probeErrors) console.log(`  API probes failed               ${probeErrors}`);
    const allApi = Object.values(apiLat).flat();
    console.log(`  API p99 (all probes)           ${pct(allApi, 0.99).toFixed(1)} ms (goal: under 100 ms)`);
    console.log(`  PostgreSQL rows written        ${rowsPerSec.toFixed(0)} rows/s (1 s points + 1 min rollups, instances + nodes)`);
    console.log(`  write queue (every 5 s)        ${queues.join(', ')} rows; rows dropped ${dropped}`);
    console.log(`  event-loop delay, worst per 5 s ${loopMax.map((x) => x.toFixed(0)).join(", ")} ms`);
    const keepsUp = probeErrors === 0 && statusFailed === 0 && failed === 0 && skipped === 0 && accepted >= sent * 0.999 && dropped === 0 && Math.max(...queues) < NODES * (INSTANCES + 1) * 3 * PUSH_SECONDS;
    console.log(`  keeps up                       ${keepsUp ? 'yes' : 'NO'}`);
  } finally {
    await pool.end();
    agentPool.destroy();
    await stopProcess(cp);
    await pgh.stop();
    if (process.env.KEEP_DIR) console.log(`kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
