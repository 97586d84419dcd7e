/**
 * The console's connection snippets are programs that run as shown: each is
 * written to a file (or run as a shell line) with the real connection details
 * of a live 3x1 cluster, its install line is followed, and it must print the
 * value it wrote. redis-cli, ioredis, redis-py and go-redis are run; the keys
 * they wrote are then read back through an independent client.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Connection } from '@strata/api';
import { buildSnippet } from '../../console/src/interfaces/Cluster/snippets';
import { testStack } from './helpers/test-stack';
import type { TestApi } from './helpers/api-client';
import { appClient } from './helpers/workload';

const ROOT = path.resolve(import.meta.dirname, '../..');
let api: TestApi;
let cleanup: () => Promise<void>;
let conn: Connection;
let clusterUri: string;
let work: string;

beforeAll(async () => {
  ({ api, cleanup } = await testStack('127.0.71', { nodes: 3 }));
  const r = await api.createCluster({ name: 'snippets', shards: 3, replicasPerShard: 1, memoryMbPerShard: 32 });
  expect(r.status).toBe(202);
  await api.waitForPhase(r.body.cluster.id, 'ready');
  await api.waitForHealthy(r.body.cluster.id);
  conn = (await api.connection(r.body.cluster.id)).body;
  clusterUri = conn.uri;
  work = mkdtempSync(path.join(os.tmpdir(), 'strata-snippets-'));
}, 180_000);
afterAll(async () => {
  if (work) rmSync(work, { recursive: true, force: true });
  await cleanup?.();
});

/** The snippet with its greeting key made unique, so each client's write is its own. */
function snippet(client: Parameters<typeof buildSnippet>[0], key: string): string {
  const s = buildSnippet(client, conn, true);
  expect(s).toContain('greeting');
  return s.replaceAll('greeting', key);
}

const run = (cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) =>
  execFileSync(cmd, args, { cwd, encoding: 'utf8', timeout: 240_000, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });

async function readBack(key: string): Promise<string | null> {
  const client = appClient(clusterUri);
  try {
    return await client.get(key);
  } finally {
    client.disconnect();
  }
}

describe('connection snippets run against a live cluster', () => {
  it('redis-cli: both command lines, in cluster mode', async () => {
    const lines = buildSnippet('redis-cli', conn, true).split('\n').filter((l) => l.startsWith('redis-cli '));
    expect(lines).toHaveLength(2);
    for (const [i, line] of lines.entries()) {
      // The line as shown, with a command appended (the interactive prompt otherwise).
      const key = `snippet:cli:${i}`;
      expect(run('bash', ['-c', `${line} SET ${key} hello-${i}`], work).trim()).toBe('OK');
      expect(run('bash', ['-c', `${line} GET ${key}`], work).trim()).toBe(`hello-${i}`);
      expect(await readBack(key)).toBe(`hello-${i}`);
    }
  });

  it('ioredis: saved as main.mjs and run with node', async () => {
    const dir = mkdtempSync(path.join(work, 'ioredis-'));
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
    const code = snippet('ioredis', 'snippet:ioredis');
    expect(code.split('\n')[0]).toContain('npm install ioredis');
    writeFileSync(path.join(dir, 'main.mjs'), `${code}\ncluster.disconnect();\n`);
    expect(run(process.execPath, ['main.mjs'], dir).trim()).toBe('hello');
    expect(await readBack('snippet:ioredis')).toBe('hello');
  });

  it('redis-py: saved as main.py and run with python3', async () => {
    const dir = mkdtempSync(path.join(work, 'redis-py-'));
    const code = snippet('redis-py', 'snippet:redis-py');
    expect(code.split('\n')[0]).toBe('# pip install redis');
    writeFileSync(path.join(dir, 'main.py'), code);
    expect(run('python3', ['main.py'], dir).trim()).toBe('hello');
    expect(await readBack('snippet:redis-py')).toBe('hello');
  });

  it('go-redis: the install line, then go run', async () => {
    const dir = mkdtempSync(path.join(work, 'go-redis-'));
    const code = snippet('go-redis', 'snippet:go-redis');
    const install = /^\/\/ install: (.*?)\s+\(save as main\.go, run: go run \.\)$/.exec(code.split('\n')[0]!)?.[1];
    expect(install).toBe('go mod init example && go get github.com/redis/go-redis/v9');
    writeFileSync(path.join(dir, 'main.go'), code);
    const env = { GOFLAGS: '-mod=mod', GOTOOLCHAIN: 'local' };
    run('bash', ['-c', install!], dir, env);
    expect(run('go', ['run', '.'], dir, env).trim()).toBe('hello');
    expect(await readBack('snippet:go-redis')).toBe('hello');
  }, 300_000);
});
