import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Cluster } from 'ioredis';
import { loopbackPrefix, startStack, type Stack } from '../src';
import { alive, describePid, redisProcessesUnder, strataProcessesOf } from '../src/leftovers';
import { REPO_ROOT } from '../src/process';

const dir = mkdtempSync(path.join(os.tmpdir(), 'strata-local-'));
const prefix = loopbackPrefix('127.0.15');
let stack: Stack | undefined;
afterAll(async () => {
  await stack?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const redisOnPrefix = () => {
  try {
    return execFileSync('pgrep', ['-a', 'redis-server'], { encoding: 'utf8' }).split('\n').filter((l) => l.includes(`${prefix}.`));
  } catch {
    return [];
  }
};

async function api<T>(s: Stack, method: string, p: string, body?: unknown): Promise<T> {
  const res = await fetch(s.url + p, { method, headers: { authorization: `Bearer ${s.adminToken}`, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
  return (await res.json()) as T;
}

async function waitReady(s: Stack, id: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const c = await api<{ status: { phase: string } }>(s, 'GET', `/v1/clusters/${id}`);
    if (c.status.phase === 'ready') return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('cluster not ready');
}

describe('the local stack (what npm start runs)', () => {
  let clusterId: string;

  it('stops everything on shutdown, leaving no redis-server behind', async () => {
    stack = await startStack({ dir, addressPrefix: prefix, port: 0, nodes: 2, fastPostgres: true });
    const created = await api<{ cluster: { id: string } }>(stack, 'POST', '/v1/clusters', { name: 'keeps', shards: 2, replicasPerShard: 1, durability: 'aof-always' });
    clusterId = created.cluster.id;
    await waitReady(stack, clusterId);
    const conn = await api<{ uri: string }>(stack, 'GET', `/v1/clusters/${clusterId}/connection`);
    const u = new URL(conn.uri);
    const client = new Cluster([{ host: u.hostname, port: Number(u.port) }], { redisOptions: { username: u.username, password: u.password } });
    for (let i = 0; i < 100; i++) await client.set(`k${i}`, `v${i}`);
    client.disconnect();
    expect(redisOnPrefix().length).toBeGreaterThanOrEqual(4);
    const { leftoverPids } = await stack.stop();
    stack = undefined;
    expect(leftoverPids).toEqual([]);
    expect(redisOnPrefix()).toEqual([]);
  });

  it('keeps clusters and their data across a restart', async () => {
    stack = await startStack({ dir, addressPrefix: prefix, port: 0, nodes: 2, fastPostgres: true });
    await waitReady(stack, clusterId);
    const conn = await api<{ uri: string }>(stack, 'GET', `/v1/clusters/${clusterId}/connection`);
    const u = new URL(conn.uri);
    const client = new Cluster([{ host: u.hostname, port: Number(u.port) }], { redisOptions: { username: u.username, password: u.password } });
    try {
      const values = await Promise.all(Array.from({ length: 100 }, (_, i) => client.get(`k${i}`)));
      expect(values.filter((v, i) => v === `v${i}`)).toHaveLength(100);
    } finally {
      client.disconnect();
    }
  });
});

describe('a stack started for tests (endWithLauncher)', () => {
  it('ends with its launcher: after a kill -9 of the launcher, no agent, control plane, engine or PostgreSQL of it runs', async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'strata-orphan-'));
    const launcher = spawn(process.execPath, ['--import', 'tsx', 'infra/local/test/fixtures/stack-launcher.ts', home, loopbackPrefix('127.0.116')], {
      cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        createInterface({ input: launcher.stdout! }).on('line', (l) => { if (l === 'STACK_READY') resolve(); });
        launcher.once('exit', (code) => reject(new Error(`the launcher exited (${code}) before its stack was up`)));
      });
      const postgres = Number(readFileSync(path.join(home, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
      const started = [...strataProcessesOf(home).map((p) => p.pid), ...redisProcessesUnder(path.join(home, 'nodes')), postgres];
      // an agent, the control plane, the agent's warm spares and PostgreSQL
      expect(started.length).toBeGreaterThanOrEqual(4);
      launcher.kill('SIGKILL');
      const deadline = Date.now() + 30_000;
      while (started.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
      expect(started.filter(alive).map(describePid)).toEqual([]);
    } finally {
      launcher.kill('SIGKILL');
      for (const p of [...strataProcessesOf(home).map((x) => x.pid), ...redisProcessesUnder(path.join(home, 'nodes'))]) try { process.kill(p, 'SIGKILL'); } catch { /* gone */ }
      rmSync(home, { recursive: true, force: true });
    }
  });
});
