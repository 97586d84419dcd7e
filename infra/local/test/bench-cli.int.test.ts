/**
 * `npm run bench` (infra/local/src/bench-cli.ts) against a real local stack: it talks to the API
 * only through the client generated from openapi.json, so this checks that client end to end
 * (typed paths, bodies, problem+json errors) from a CLI.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createStrataClient, unwrap } from '@strata/api/client';
import { startStack, type Stack } from '../src';
import { REPO_ROOT } from '../src/process';

const dir = mkdtempSync(path.join(os.tmpdir(), 'strata-bench-cli-'));
let stack: Stack;
let clusterId: string;

beforeAll(async () => {
  stack = await startStack({ endWithLauncher: true, dir, addressPrefix: '127.0.81', port: 0, fastPostgres: true, nodes: 1 });
  const api = createStrataClient({ baseUrl: stack.url, token: stack.adminToken });
  const { cluster } = await unwrap(api.POST('/v1/clusters', { body: { name: 'cli-bench', shards: 1, replicasPerShard: 0, memoryMbPerShard: 64 } as never }));
  clusterId = cluster.id;
  for (let i = 0; ; i++) {
    const c = await unwrap(api.GET('/v1/clusters/{id}', { params: { path: { id: clusterId } } }));
    if (c.status.phase === 'ready') break;
    if (i > 1200) throw new Error(`cluster not ready: ${c.status.phase}`);
    await new Promise((r) => setTimeout(r, 50));
  }
});

afterAll(async () => {
  await stack?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const cli = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'infra/local/src/bench-cli.ts'), '--url', stack.url, '--token', stack.adminToken, ...args], {
  cwd: REPO_ROOT, encoding: 'utf8', timeout: 120_000,
});

describe('npm run bench (the CLI on the generated client)', () => {
  it('runs a benchmark through the API and prints its result', () => {
    const out = cli('--cluster', clusterId, '--workload', 'ycsb-c', '--records', '1000', '--duration', '2', '--warmup', '0', '--connections', '2', '--json');
    expect(out.status, out.stderr).toBe(0);
    expect(out.stderr).toMatch(/benchmark [0-9a-f-]{36} \(ycsb-c\) started/);
    const b = JSON.parse(out.stdout) as { state: string; clusterId: string; result: { totalOps: number; opsPerSec: number; workers: { engine?: string; engineNote?: string }[] } };
    expect(b).toMatchObject({ state: 'succeeded', clusterId });
    expect(b.result.totalOps).toBeGreaterThan(0);
    // closed-loop YCSB on the agents runs in the native worker that npm run build:native built (npm test builds it first)
    expect(b.result.workers.length).toBeGreaterThan(0);
    for (const w of b.result.workers) expect(w, w.engineNote).toMatchObject({ engine: 'native' });
  });

  it('a bad request exits 1 with the problem code and the field', () => {
    const out = cli('--cluster', clusterId, '--workload', 'ycsb-z');
    expect(out.status).toBe(1);
    expect(out.stderr).toMatch(/^400 validation_failed: .*\(workload: /m);
  });

  it('an unknown cluster exits 1 with 404 not_found', () => {
    const out = cli('--cluster', '00000000-0000-4000-8000-000000000000', '--workload', 'ycsb-c');
    expect(out.status).toBe(1);
    expect(out.stderr).toMatch(/^404 not_found: Cluster does not exist\./m);
  });
});
