/**
 * Idle cost: what Strata's own processes (control plane, agents, PostgreSQL)
 * consume while nothing happens. Starts a stack (3 nodes), creates small
 * clusters (CLUSTERS, shards x replicas per shard), waits until they are
 * ready and settled (SETTLE seconds), then measures for WINDOW seconds, ROUNDS
 * times, the CPU-seconds of each process group from /proc/<pid>/stat
 * (utime + stime; for PostgreSQL the postmaster and every process below it,
 * including backends that exited during the window), and prints them with
 * the median. redis-server processes are reported separately: engines are
 * the customer's cost. Asserts nothing.
 *
 *   STRATA_TEST_NET=127.8 npm run bench:idle
 *
 * Settings (environment): ROUNDS (3), WINDOW (30 s), SETTLE (20 s),
 * CONTROL_PLANES (1; 2 runs two sharing PostgreSQL, agents reporting to both),
 * CLUSTERS ("3x1,1x1,2x1"), QUERY_LOG=N (after the rounds, log every
 * PostgreSQL statement for N seconds and print statements per second by
 * kind), REQUESTS=1 (control-plane requests per second by route and
 * reconcile passes, read from /metrics between rounds), PROFILE_DIR=dir (after the rounds, one more window with a V8 CPU
 * profile of the control plane and every agent written to dir; not counted),
 * PERF_MAP=1 (the control plane and agents write /tmp/perf-<pid>.map, so
 * `perf record -g -p <pid>` names JavaScript functions), HOLD=N (keep the
 * stack running N seconds after the rounds and print its PIDs, for perf or
 * strace).
 */
import { readFileSync, readdirSync, mkdtempSync, rmSync, statSync, openSync, readSync, closeSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Cluster, ClusterWithOperation } from '@strata/api';
import { startStack } from '../src/stack';
import { redisProcessesUnder } from '../src/leftovers';

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const WINDOW = Number(process.env.WINDOW ?? 30);
const SETTLE = Number(process.env.SETTLE ?? 20);
const CLUSTERS = (process.env.CLUSTERS ?? '3x1,1x1,2x1').split(',').map((s) => s.trim().split('x').map(Number) as [number, number]);
const CONTROL_PLANES = Number(process.env.CONTROL_PLANES ?? 1);
const QUERY_LOG = Number(process.env.QUERY_LOG ?? 0);
const PROFILE_DIR = process.env.PROFILE_DIR ? path.resolve(process.env.PROFILE_DIR) : undefined;
const TICK = 100; // USER_HZ
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2; };

interface ProcStat { pid: number; ppid: number; own: number; children: number; sys: number; title: string }
/** utime+stime (own) and cutime+cstime (reaped children) in seconds, or null when the process is gone. */
function procStat(pid: number): ProcStat | null {
  try {
    const raw = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = raw.slice(raw.lastIndexOf(') ') + 2).split(' ');
    let title = '';
    try { title = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0+$/, '').replace(/\0/g, ' '); } catch { /* gone */ }
    return { pid, ppid: Number(f[1]), own: (Number(f[11]) + Number(f[12])) / TICK, children: (Number(f[13]) + Number(f[14])) / TICK, sys: Number(f[12]) / TICK, title };
  } catch {
    return null;
  }
}
function allProcs(): ProcStat[] {
  return readdirSync('/proc').filter((n) => /^\d+$/.test(n)).map((n) => procStat(Number(n))).filter((p): p is ProcStat => p !== null);
}
/** `root` and every process whose parent chain leads to it. */
function tree(root: number, procs = allProcs()): ProcStat[] {
  const kids = new Map<number, ProcStat[]>();
  for (const p of procs) (kids.get(p.ppid) ?? kids.set(p.ppid, []).get(p.ppid)!).push(p);
  const out: ProcStat[] = [];
  const walk = (pid: number) => { const p = procs.find((x) => x.pid === pid); if (p) out.push(p); for (const k of kids.get(pid) ?? []) walk(k.pid); };
  walk(root);
  return out;
}

/**
 * A group of processes measured over a window. With `withChildren`, a member's
 * reaped children count too (cutime/cstime: PostgreSQL backends and autovacuum
 * workers that exit are reaped by the postmaster): the group's CPU is then
 * the change of own + children over the members alive at the end, minus the
 * start value of members that exited meanwhile (their total arrived in their
 * parent's children time).
 */
class Group {
  private start = new Map<number, number>();
  private startSys = new Map<number, number>();
  constructor(readonly name: string, private readonly members: () => ProcStat[], private readonly withChildren: boolean) {}
  private value = (p: ProcStat) => p.own + (this.withChildren ? p.children : 0);
  begin(): void {
    const now = this.members();
    this.start = new Map(now.map((p) => [p.pid, this.value(p)]));
    this.startSys = new Map(now.map((p) => [p.pid, p.sys]));
  }
  /** `sys`: kernel time of the members alive at both ends (without reaped children). */
  end(): { seconds: number; sys: number; processes: ProcStat[]; byTitle: Map<string, number> } {
    const now = this.members();
    const alive = new Set(now.map((p) => p.pid));
    let seconds = 0;
    let sys = 0;
    const byTitle = new Map<string, number>();
    for (const p of now) {
      const d = this.value(p) - (this.start.get(p.pid) ?? 0);
      seconds += d;
      sys += this.startSys.has(p.pid) ? p.sys - this.startSys.get(p.pid)! : 0;
      const t = kindOf(p.title);
      byTitle.set(t, (byTitle.get(t) ?? 0) + d);
    }
    if (this.withChildren) {
      for (const [pid, v] of this.start) if (!alive.has(pid)) seconds -= v;
    }
    return { seconds, sys, processes: now, byTitle };
  }
}
/** PostgreSQL process titles without their client address: "postgres: strata strata 127.0.0.1(5432) idle" -> "backend". */
function kindOf(title: string): string {
  const m = /^postgres: (.*)$/.exec(title);
  if (!m) return title.includes('postgres') ? 'postmaster' : title.slice(0, 40);
  return /\d+\.\d+\.\d+\.\d+\(\d+\)/.test(m[1]!) ? 'backends' : m[1]!.replace(/\s+$/, '');
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'strata-bench-idle-'));
const nodeOptions = [
  process.env.NODE_OPTIONS ?? '',
  PROFILE_DIR ? `--require ${path.join(import.meta.dirname, 'idle-profile.cjs')}` : '',
  process.env.PERF_MAP ? '--perf-basic-prof-only-functions' : '',
].join(' ').trim();
const profileEnv = (name: string): NodeJS.ProcessEnv => ({
  ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}),
  ...(PROFILE_DIR ? { PROFILE_DIR, PROFILE_NAME: name } : {}),
});
if (PROFILE_DIR) mkdirSync(PROFILE_DIR, { recursive: true });
console.log(`idle cost: 3 nodes, ${CONTROL_PLANES} control plane(s), clusters ${CLUSTERS.map(([s, r]) => `${s}x${r}`).join(', ')} (shards x replicas per shard), ${ROUNDS} rounds of ${WINDOW} s after ${SETTLE} s settling; ${os.cpus().length} cores, load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
const stack = await startStack({ endWithLauncher: true,
  dir, nodes: 3, port: 0, fastPostgres: true, controlPlanes: CONTROL_PLANES, addressPrefix: process.env.STRATA_BENCH_PREFIX ?? '127.0.94',
  extraEnv: profileEnv('control-plane'), agentEnv: profileEnv('agent'),
});
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await stack.stop();
  rmSync(dir, { recursive: true, force: true });
};
process.on('SIGINT', () => void stop().then(() => process.exit(130)));
process.on('SIGTERM', () => void stop().then(() => process.exit(143)));

const headers = { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' };
const call = async <T>(method: string, p: string, body?: unknown): Promise<T> =>
  (await (await fetch(stack.url + p, { method, headers, body: body ? JSON.stringify(body) : undefined })).json()) as T;

const cpName = (i: number) => (CONTROL_PLANES === 1 ? 'control plane' : `control plane ${i + 1}`);
function postmasterPid(): number {
  return Number.parseInt(readFileSync(path.join(dir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]!, 10);
}

/**
 * Control-plane counters from its Prometheus exposition: requests by route
 * and reconcile passes (cumulative), with REQUESTS=1 only: a scrape starts
 * the control plane's event-loop sampling for 5 minutes (as it would for a
 * real Prometheus), which is not idle cost.
 */
async function cpCounters(): Promise<Map<string, number>> {
  if (!process.env.REQUESTS) return new Map();
  const token = readFileSync(path.join(dir, 'metrics-token'), 'utf8').trim();
  const text = await (await fetch(`${stack.url}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text();
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    const req = /^strata_http_request_duration_seconds_count\{(.*)\} (\S+)$/.exec(line);
    if (req) {
      const labels = Object.fromEntries([...req[1]!.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
      const k = `${labels.method} ${labels.route}`;
      out.set(k, (out.get(k) ?? 0) + Number(req[2]));
    }
    const pass = /^strata_reconcile_passes_total\{outcome="(\w+)"\} (\S+)$/.exec(line);
    if (pass) out.set(`reconcile passes (${pass[1]})`, Number(pass[2]));
  }
  return out;
}

const pgClient = new pg.Client({ connectionString: stack.databaseUrl });
await pgClient.connect();
/** Commits, rows written and read in the strata database (cumulative; PostgreSQL flushes these counters about once a second). */
async function dbCounters(): Promise<Record<string, number>> {
  const r = await pgClient.query<Record<string, string>>(`SELECT sessions, xact_commit, tup_inserted, tup_updated, tup_deleted, tup_returned, tup_fetched FROM pg_stat_database WHERE datname = current_database()`);
  return Object.fromEntries(Object.entries(r.rows[0]!).map(([k, v]) => [k, Number(v)]));
}

try {
  const t0 = Date.now();
  const ids: string[] = [];
  for (const [i, [shards, replicasPerShard]] of CLUSTERS.entries()) {
    const r = await call<ClusterWithOperation>('POST', '/v1/clusters', { name: `idle-${i}`, memoryMbPerShard: 32, shards, replicasPerShard });
    if (!r.cluster) throw new Error(`create failed: ${JSON.stringify(r)}`);
    ids.push(r.cluster.id);
  }
  for (const id of ids) {
    for (;;) {
      const c = await call<Cluster>('GET', `/v1/clusters/${id}`);
      if (c.status.phase === 'ready') break;
      if (c.status.phase === 'failed' || Date.now() - t0 > 120_000) throw new Error(`cluster ${id} not ready within 120 s (${c.status.phase})`);
      await sleep(500);
    }
  }
  console.log(`${ids.length} clusters ready after ${((Date.now() - t0) / 1000).toFixed(1)} s; settling ${SETTLE} s`);
  await sleep(SETTLE * 1000);

  const groups = () => {
    const pm = postmasterPid();
    return [
      ...stack.controlPlanes.map((c, i) => {
        const pid = c.proc!.child.pid!;
        return new Group(cpName(i), () => [procStat(pid)].filter((p): p is ProcStat => p !== null), false);
      }),
      ...stack.agents.map((a) => { const pid = a.proc!.child.pid!; return new Group(`agent ${a.name}`, () => [procStat(pid)].filter((p): p is ProcStat => p !== null), false); }),
      new Group('postgresql', () => tree(pm), true),
      new Group('redis-server', () => redisProcessesUnder(path.join(dir, 'nodes')).map(procStat).filter((p): p is ProcStat => p !== null), true),
    ];
  };
  const rows: Record<string, number[]> = {};
  const sysRows: Record<string, number[]> = {};
  let lastPg: Map<string, number> = new Map();
  let redisCount = 0;
  const db: Record<string, number>[] = [];
  const cp: Map<string, number>[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const gs = groups();
    const cp0 = await cpCounters();
    const db0 = await dbCounters();
    gs.forEach((g) => g.begin());
    const w0 = performance.now();
    await sleep(WINDOW * 1000);
    const wall = (performance.now() - w0) / 1000;
    const results = gs.map((g) => ({ g, r: g.end() }));
    const db1 = await dbCounters();
    db.push(Object.fromEntries(Object.keys(db1).map((k) => [k, (db1[k]! - db0[k]!) / wall])));
    const cp1 = await cpCounters();
    cp.push(new Map([...cp1].map(([k, v]) => [k, (v - (cp0.get(k) ?? 0)) / wall])));
    for (const { g, r } of results) {
      (rows[g.name] ??= []).push(r.seconds * (WINDOW / wall));
      (sysRows[g.name] ??= []).push(r.sys * (WINDOW / wall));
    }
    const strata = results.filter(({ g }) => g.name !== 'redis-server').reduce((s, { r }) => s + r.seconds, 0) * (WINDOW / wall);
    (rows.agents ??= []).push(results.filter(({ g }) => g.name.startsWith('agent ')).reduce((s, { r }) => s + r.seconds, 0) * (WINDOW / wall));
    (rows.strata ??= []).push(strata);
    lastPg = results.find(({ g }) => g.name === 'postgresql')!.r.byTitle;
    redisCount = results.find(({ g }) => g.name === 'redis-server')!.r.processes.length;
    console.log(`round ${round + 1}: Strata ${strata.toFixed(2)} CPU-s = ${((strata / WINDOW) * 100).toFixed(1)} % of one core (load average ${os.loadavg()[0]!.toFixed(1)})`);
  }

  const order = [...stack.controlPlanes.map((_, i) => cpName(i)), ...stack.agents.map((a) => `agent ${a.name}`), 'agents', 'postgresql', 'strata', 'redis-server'];
  const label = (k: string) => (k === 'strata' ? "Strata's own (cp + agents + pg)" : k === 'agents' ? 'agents (sum)' : k === 'redis-server' ? `redis-server (${redisCount}, customer)` : k);
  console.log(`\nCPU-seconds per ${WINDOW} s window (rounds, median, median as % of one core):`);
  console.log(`${'process group'.padEnd(36)}${Array.from({ length: ROUNDS }, (_, i) => `r${i + 1}`.padStart(8)).join('')}${'median'.padStart(9)}${'% core'.padStart(9)}`);
  for (const k of order) {
    const xs = rows[k]!;
    const m = median(xs);
    console.log(`${label(k).padEnd(36)}${xs.map((x) => x.toFixed(2).padStart(8)).join('')}${m.toFixed(2).padStart(9)}${((m / WINDOW) * 100).toFixed(1).padStart(8)}%`);
  }
  console.log(`\nkernel (system) time, median CPU-s: ${Object.entries(sysRows).map(([k, xs]) => `${k} ${median(xs).toFixed(2)}`).join(', ')}`);
  console.log(`PostgreSQL by process (last round, CPU-s): ${[...lastPg].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ')}`);
  const dbm = Object.fromEntries(Object.keys(db[0]!).map((k) => [k, median(db.map((d) => d[k]!))]));
  console.log(`PostgreSQL per second (median): ${Object.entries(dbm).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ')}`);
  const cpKeys = [...new Set(cp.flatMap((m) => [...m.keys()]))].filter((k) => cp.some((m) => (m.get(k) ?? 0) > 0)).sort();
  if (cpKeys.length) console.log(`control plane per second (median): ${cpKeys.map((k) => `${k} ${median(cp.map((m) => m.get(k) ?? 0)).toFixed(2)}`).join(', ')}`);

  if (QUERY_LOG > 0) await logQueries(QUERY_LOG);
  if (PROFILE_DIR) {
    const targets = [...stack.controlPlanes.map((c) => c.proc!.child.pid!), ...stack.agents.map((a) => a.proc!.child.pid!)];
    for (const pid of targets) process.kill(pid, 'SIGUSR2');
    await sleep(WINDOW * 1000);
    for (const pid of targets) process.kill(pid, 'SIGUSR2');
    await sleep(1000);
    console.log(`CPU profiles of a ${WINDOW} s window in ${PROFILE_DIR}`);
  }
  const hold = Number(process.env.HOLD ?? 0);
  if (hold > 0) {
    console.log(`holding the stack ${hold} s: control plane(s) ${stack.controlPlanes.map((c) => c.proc!.child.pid).join(' ')}, agents ${stack.agents.map((a) => a.proc!.child.pid).join(' ')}, postmaster ${postmasterPid()}`);
    await sleep(hold * 1000);
  }
} finally {
  await pgClient.end().catch(() => {});
  await stop();
}

/** Every statement for `seconds` (log_min_duration_statement = 0), grouped by its text with literals and parameters masked. */
async function logQueries(seconds: number): Promise<void> {
  const logFile = path.join(dir, 'logs', 'postgres.log');
  const from = statSync(logFile).size;
  await pgClient.query(`ALTER SYSTEM SET log_min_duration_statement = 0`);
  await pgClient.query(`ALTER SYSTEM SET log_autovacuum_min_duration = 0`);
  await pgClient.query(`SELECT pg_reload_conf()`);
  await sleep(seconds * 1000);
  await pgClient.query(`ALTER SYSTEM RESET log_min_duration_statement`);
  await pgClient.query(`ALTER SYSTEM RESET log_autovacuum_min_duration`);
  await pgClient.query(`SELECT pg_reload_conf()`);
  await sleep(300);
  const size = statSync(logFile).size;
  const buf = Buffer.alloc(size - from);
  const fd = openSync(logFile, 'r');
  readSync(fd, buf, 0, buf.length, from);
  closeSync(fd);
  const kinds = new Map<string, { n: number; ms: number }>();
  const vacuum = { n: 0, cpu: 0 };
  // One entry per statement: "duration: 0.123 ms  statement: …" (simple protocol) or "… execute <name>: …" (extended).
  const entries = buf.toString('utf8').split(/\n(?=\S)/);
  for (const e of entries) {
    const v = /automatic (?:vacuum|analyze) of table[\s\S]*CPU: user: ([\d.]+) s, system: ([\d.]+) s/.exec(e);
    if (v) {
      vacuum.n++;
      vacuum.cpu += Number(v[1]) + Number(v[2]);
      continue;
    }
    const m = /duration: ([\d.]+) ms {2}(?:statement|execute [^:]*): ([\s\S]*)$/.exec(e);
    if (!m) continue;
    const text = m[2]!.replace(/\s+/g, ' ').replace(/'(?:[^']|'')*'/g, "'?'").replace(/\b\d+\b/g, '?').replace(/\$\d+/g, '$').slice(0, 110);
    if (text.includes('log_min_duration_statement') || text.includes('pg_reload_conf')) continue;
    const k = kinds.get(text) ?? { n: 0, ms: 0 };
    k.n++;
    k.ms += Number(m[1]);
    kinds.set(text, k);
  }
  const total = [...kinds.values()].reduce((s, k) => s + k.n, 0);
  console.log(`\nPostgreSQL statements over ${seconds} s: ${(total / seconds).toFixed(1)}/s; autovacuum: ${vacuum.n} vacuum/analyze runs, ${vacuum.cpu.toFixed(2)} CPU-s`);
  for (const [text, k] of [...kinds].sort((a, b) => b[1].n - a[1].n).slice(0, 25)) {
    console.log(`${(k.n / seconds).toFixed(2).padStart(8)}/s ${(k.ms / k.n).toFixed(3).padStart(8)} ms  ${text}`);
  }
}
