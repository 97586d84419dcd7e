/**
 * Stops and starts of `npm start` as a supervisor runs it: the launcher
 * (infra/local/src/start.ts) in its own process group, signals to the whole
 * group. SIGTERM with the CPU busy and engines being started ends every
 * process within a bound; SIGKILL (of the group, or of the launcher alone)
 * leaves engines running that the next start adopts with their keys; a
 * stranger on a node's address is named by pid.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Cluster } from 'ioredis';
import { loopbackPrefix } from '../src';
import { REPO_ROOT, startDetachedTs } from '../src/process';
import { alive, redisProcessesUnder, strataProcessesOf } from '../src/leftovers';

const PREFIX = loopbackPrefix('127.0.19');
const home = mkdtempSync(path.join(os.tmpdir(), 'strata-stopstart-'));
/** Bound on a stop, measured from the SIGTERM (the design's worst case is about 15 s; usually 1-2 s). */
const STOP_BOUND_MS = 15_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// Every process a test starts is ended after it whatever happened (a failed test leaves nothing to the next one).
const groups = new Set<number>();
// A worker that dies mid-test (Ctrl-C, a crash) runs no afterEach: the stack watchdog then ends the launchers' groups
// (listed in GROUPS_FILE), the agents, the control plane, the engines and PostgreSQL of this home.
const GROUPS_FILE = path.join(home, '.test-launcher-groups');
const watchdog = await startDetachedTs(path.join(REPO_ROOT, 'infra/local/src/stack-watchdog.ts'), {
  ...process.env, STRATA_WATCH_PID: String(process.pid), STRATA_WATCH_DIR: home, STRATA_WATCH_POSTGRES: '1', STRATA_WATCH_GROUPS: GROUPS_FILE,
});
const children = new Set<ChildProcess>();
afterEach(async () => {
  for (const pgid of groups) try { process.kill(-pgid, 'SIGKILL'); } catch { /* gone */ }
  groups.clear();
  writeFileSync(GROUPS_FILE, '');
  for (const p of strataProcessesOf(home)) try { process.kill(p.pid, 'SIGKILL'); } catch { /* gone */ }
  for (const c of children) c.kill('SIGKILL');
  children.clear();
  for (const pid of redisProcessesUnder(path.join(home, 'nodes'))) try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
  await sleep(300);
  for (const pid of postgresOf(home)) try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
});
afterAll(() => {
  watchdog.kill('SIGTERM');
  rmSync(home, { recursive: true, force: true });
});

/** The postmaster of this home's embedded PostgreSQL, if one still runs. */
function postgresOf(dir: string): number[] {
  try {
    const pid = Number(readFileSync(path.join(dir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
    return pid && alive(pid) ? [pid] : [];
  } catch {
    return [];
  }
}

const parentOf = (pid: number): string => {
  try { return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]!; } catch { return 'gone'; }
};

const groupAlive = (pgid: number) => {
  try { process.kill(-pgid, 0); return true; } catch { return false; }
};

interface Launcher { pgid: number; url: Promise<string>; exited: Promise<number | null>; output: () => string }

/** `npm start`'s launcher in its own process group, as a supervisor (systemd, a CI runner, a script) starts it. */
function launch(): Launcher {
  const child = spawn(process.execPath, ['--import', 'tsx', 'infra/local/src/start.ts'], {
    cwd: REPO_ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, STRATA_HOME: home, STRATA_PORT: '0', STRATA_LOCAL_NODES: '2', STRATA_ADDRESS_PREFIX: PREFIX, STRATA_AGENT_SPARES: '2' },
  });
  groups.add(child.pid!);
  appendFileSync(GROUPS_FILE, `${child.pid}\n`);
  let out = '';
  child.stderr!.on('data', (d) => { out += d; });
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const url = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (l) => {
      out += l + '\n';
      const m = /^\s+Console\s+(http:\/\/\S+?)\/$/.exec(l);
      if (m) resolve(m[1]!);
    });
    void exited.then((code) => reject(new Error(`the launcher exited (${code}) before it was ready:\n${out}`)));
  });
  url.catch(() => {});
  return { pgid: child.pid!, url, exited, output: () => out };
}

async function api<T>(url: string, method: string, p: string, body?: unknown): Promise<T> {
  const token = readFileSync(path.join(home, 'admin-token'), 'utf8').trim();
  const res = await fetch(url + p, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
  return (await res.json()) as T;
}

async function waitReady(url: string, id: string): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    const c = await api<{ status: { phase: string } }>(url, 'GET', `/v1/clusters/${id}`);
    if (c.status.phase === 'ready') return;
    await sleep(100);
  }
  throw new Error(`cluster ${id} not ready`);
}

async function client(url: string, id: string): Promise<Cluster> {
  const { uri } = await api<{ uri: string }>(url, 'GET', `/v1/clusters/${id}/connection`);
  const u = new URL(uri);
  const c = new Cluster([{ host: u.hostname, port: Number(u.port) }], { redisOptions: { username: u.username, password: u.password } });
  c.on('error', () => {});
  return c;
}

const KEYS = 2000;
async function writeKeys(url: string, id: string): Promise<void> {
  const c = await client(url, id);
  try {
    for (let i = 0; i < KEYS; i += 200) await Promise.all(Array.from({ length: 200 }, (_, j) => c.set(`k${i + j}`, `v${i + j}`)));
  } finally {
    c.disconnect();
  }
}
async function keysPresent(url: string, id: string): Promise<number> {
  const c = await client(url, id);
  try {
    const values = await Promise.all(Array.from({ length: KEYS }, (_, i) => c.get(`k${i}`)));
    return values.filter((v, i) => v === `v${i}`).length;
  } finally {
    c.disconnect();
  }
}

async function until<T>(what: string, get: () => T, ok: (v: T) => boolean, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = get();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what} (last: ${JSON.stringify(v)})`);
    await sleep(100);
  }
}

/** The redis-server pids of one cluster's instances, from the nodes' registries and pid files. */
function enginePidsOf(clusterId: string): number[] {
  const pids: number[] = [];
  for (const node of readdirSync(path.join(home, 'nodes'))) {
    const dir = path.join(home, 'nodes', node);
    let records: { spec: { instanceId: string; clusterId: string } }[] = [];
    try { records = JSON.parse(readFileSync(path.join(dir, 'instances.json'), 'utf8')); } catch { continue; }
    for (const r of records.filter((r) => r.spec.clusterId === clusterId)) {
      try { pids.push(Number(readFileSync(path.join(dir, 'instances', r.spec.instanceId, 'redis.pid'), 'utf8'))); } catch { /* not running */ }
    }
  }
  return pids.sort((a, b) => a - b);
}

/** Until the group and every engine of this home are gone (or the bound passes): how long it took, and what was left. */
async function gone(pgid: number, since: number): Promise<{ ms: number; engines: number[]; group: boolean }> {
  for (;;) {
    const engines = redisProcessesUnder(path.join(home, 'nodes'));
    const group = groupAlive(pgid);
    if ((!engines.length && !group) || Date.now() - since > STOP_BOUND_MS + 5000) return { ms: Date.now() - since, engines, group };
    await sleep(50);
  }
}

describe('npm start stopped and started by a supervisor (signals to its process group)', () => {
  let clusterId: string;

  it('SIGTERM with the CPU busy and engines being started: every process and engine gone within the bound', async () => {
    const l = launch();
    const url = await l.url;
    const created = await api<{ cluster: { id: string } }>(url, 'POST', '/v1/clusters', { name: 'kept', shards: 2, replicasPerShard: 1, durability: 'aof-everysec' });
    clusterId = created.cluster.id;
    await waitReady(url, clusterId);
    await writeKeys(url, clusterId);
    const hogs = [0, 1].map(() => spawn('sh', ['-c', 'exec yes > /dev/null'], { stdio: 'ignore' }));
    hogs.forEach((h) => children.add(h));
    try {
      // In flight at the stop: spares being claimed (each switched to AOF at runtime) and engines starting.
      await api(url, 'POST', '/v1/clusters', { name: 'in-flight', shards: 2, replicasPerShard: 1, durability: 'aof-always' });
      await sleep(700);
      expect(redisProcessesUnder(path.join(home, 'nodes')).length).toBeGreaterThanOrEqual(4);
      const t0 = Date.now();
      process.kill(-l.pgid, 'SIGTERM');
      const after = await gone(l.pgid, t0);
      console.log(`stop under load: group and engines gone in ${after.ms} ms`);
      expect(after).toMatchObject({ engines: [], group: false });
      expect(after.ms).toBeLessThan(STOP_BOUND_MS);
      expect(await l.exited).toBe(0);
      expect(postgresOf(home)).toEqual([]);
    } finally {
      hogs.forEach((h) => h.kill('SIGKILL'));
    }
  });

  it('SIGKILL to the group: engines outlive it; the next start adopts them and the keys are there', async () => {
    const first = launch();
    const url = await first.url;
    await waitReady(url, clusterId);
    expect(await keysPresent(url, clusterId)).toBe(KEYS);
    const engines = await until('the cluster\'s 4 engines', () => enginePidsOf(clusterId), (p) => p.length === 4 && p.every(alive));
    process.kill(-first.pgid, 'SIGKILL');
    await first.exited;
    await sleep(300);
    // What a supervisor's SIGKILL leaves: the engines, in their own sessions, still on their ports.
    expect(engines.filter(alive)).toEqual(engines);

    const second = launch();
    const url2 = await second.url;
    await waitReady(url2, clusterId);
    expect(await keysPresent(url2, clusterId)).toBe(KEYS);
    // Adopted, not restarted: the same processes serve.
    expect(enginePidsOf(clusterId)).toEqual(engines);
    const t0 = Date.now();
    process.kill(-second.pgid, 'SIGTERM');
    expect(await gone(second.pgid, t0)).toMatchObject({ engines: [], group: false });
    expect(await second.exited).toBe(0);
  });

  it('SIGKILL to the launcher alone: the next start ends the agents and control plane it left and adopts the engines', async () => {
    const first = launch();
    const url = await first.url;
    await waitReady(url, clusterId);
    const engines = await until('the cluster\'s 4 engines', () => enginePidsOf(clusterId), (p) => p.length === 4 && p.every(alive));
    // Two agents and the control plane. An agent the launcher restarted during the start (it restarts one that
    // exits) can overlap its predecessor's last moments: wait for the set to settle, naming each process.
    const found = await until('two agents and the control plane', () => strataProcessesOf(home).map((p) => `${p.pid} ${p.role} (parent ${parentOf(p.pid)})`), (l) => l.length === 3, 10_000);
    const orphans = found.map((p) => Number(p.split(' ')[0]));
    process.kill(first.pgid, 'SIGKILL');
    await first.exited;
    expect(orphans.every(alive)).toBe(true);

    const second = launch();
    const url2 = await second.url;
    expect(orphans.filter(alive)).toEqual([]);
    await waitReady(url2, clusterId);
    expect(await keysPresent(url2, clusterId)).toBe(KEYS);
    expect(enginePidsOf(clusterId)).toEqual(engines);
    const t0 = Date.now();
    process.kill(-second.pgid, 'SIGTERM');
    expect(await gone(second.pgid, t0)).toMatchObject({ engines: [], group: false });
    // The first launcher's PostgreSQL (its child, orphaned) was stopped by the second start, which ran its own.
    expect(postgresOf(home)).toEqual([]);
  });

  it('a stranger listening on a node\'s address: the start fails and names its pid and command line', async () => {
    const address = `${PREFIX}.2`;
    const stranger = spawn(process.execPath, ['-e', `require('node:net').createServer().listen(7000, '${address}', () => console.log('listening'))`], { stdio: ['ignore', 'pipe', 'inherit'] });
    children.add(stranger);
    await new Promise<void>((resolve, reject) => {
      stranger.stdout!.once('data', () => resolve());
      stranger.once('exit', (code) => reject(new Error(`the stranger could not listen (exit ${code})`)));
    });
    try {
      const l = launch();
      await expect(l.url).rejects.toThrow(/./);
      expect(await l.exited).toBe(1);
      expect(l.output()).toContain(`${address}:7000  pid ${stranger.pid} (${process.execPath} -e`);
      expect(groupAlive(l.pgid)).toBe(false);
      expect(alive(stranger.pid!)).toBe(true);
    } finally {
      stranger.kill('SIGKILL');
    }
  });
});
