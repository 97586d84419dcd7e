/**
 * The stable endpoint (issue 7): the connection URI an application stored
 * keeps working when any one node is lost, including the node whose agent
 * was serving the endpoint. Checked with ioredis, redis-py and go-redis,
 * each given nothing but the URI read before the loss.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import path from 'node:path';
import type { Stack } from '@strata/local';
import type { Connection } from '@strata/api';
import { redisPidsOn, testStack } from './helpers/test-stack';
import type { TestApi } from './helpers/api-client';
import { clusterFromUri } from './helpers/redis-client';
import { appClient, countPresent, DurableWriter, loadKeys } from './helpers/workload';

const run = promisify(execFile);
const GO_CLIENT = path.join(import.meta.dirname, 'clients/go-redis');
const PY_CLIENT = path.join(import.meta.dirname, 'clients/redis_py_client.py');
// redis-py for the python3 on PATH is installed by `npm test` (scripts/bootstrap.mjs).
const PYTHON = 'python3';

let stack: Stack;
let api: TestApi;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ stack, api, cleanup } = await testStack('127.0.26', { nodes: 4, extraEnv: { STRATA_NODE_OFFLINE_AFTER_MS: '2000', STRATA_NODE_DOWN_AFTER_MS: '4000' } }));
  // Build the go-redis client while the stack starts its first cluster (module download + compile).
  await run('go', ['build', '-o', path.join(stack.dir, 'go-redis-client'), '.'], { cwd: GO_CLIENT, env: { ...process.env, GOFLAGS: '-mod=mod' } });
});
afterAll(async () => cleanup?.());

const KEYS = 2_000;

async function servedBy(id: string, not?: string): Promise<Connection> {
  return api.pollUntil(async () => {
    const c = (await api.connection(id)).body;
    return c.endpoint && c.endpoint.servedBy.length === 1 && c.endpoint.servedBy[0] !== not ? c : undefined;
  }, 15_000, () => `no single agent serves the endpoint of ${id}${not ? ` other than ${not}` : ''}`);
}

describe('the stable endpoint', () => {
  it('outlives the node serving it: the URI read before the loss works after it with ioredis, redis-py and go-redis', async () => {
    const r = await api.createCluster({ name: 'endpoint', shards: 3, replicasPerShard: 1, memoryMbPerShard: 64 });
    const id = r.body.cluster.id;
    await api.waitForHealthy(id);
    const before = await servedBy(id);
    const uri = before.uri;
    expect(new URL(uri).host).toBe(`${stack.endpointHost}:${before.endpoint!.port}`);
    expect(before.seeds.every((s) => !s.startsWith(`${stack.endpointHost}:`))).toBe(true);

    const app = clusterFromUri(uri);
    await loadKeys(app, 'e', KEYS, 1);
    app.disconnect();
    // A long-lived application client, given only the URI and left to retry as ioredis does by
    // default, writes (acknowledged by a replica) throughout the loss.
    const writerClient = appClient(uri);
    const writer = new DurableWriter(writerClient, 'ew', 1).start();
    await new Promise((res) => setTimeout(res, 300));
    const ackedBeforeLoss = writer.acked.length;

    // Lose the node whose agent serves the endpoint: its agent and every engine on it.
    const holder = before.endpoint!.servedBy[0]!;
    const index = stack.agents.findIndex((a) => a.name === holder);
    const agent = stack.agents[index]!;
    await stack.stopAgent(index, 'SIGKILL');
    for (const pid of redisPidsOn([agent.address])) process.kill(pid, 'SIGKILL');

    // Another agent takes the address; the URI, unchanged, reaches the cluster again.
    const after = await servedBy(id, holder);
    expect(after.uri).toBe(uri);

    // Redis fails the lost primaries over on its own (cluster-node-timeout); an application
    // reconnecting with the same URI then reads every key.
    const present = await api.pollUntil(async () => {
      const c = clusterFromUri(uri);
      try {
        const n = await countPresent(c, 'e', KEYS);
        await c.set('e-after-loss', '1');
        return n;
      } catch {
        await new Promise((res) => setTimeout(res, 300));
        return undefined;
      } finally {
        c.disconnect();
      }
    }, 60_000, () => 'a client given the URI could not read every key within 60 s of the node loss');
    expect(present).toBe(KEYS);

    // redis-py and go-redis with the same URI, while the loss is still being healed (the node is
    // down; its copies are being rebuilt).
    const phaseDuringClients = (await api.getCluster(id)).body.status.phase;
    console.log(`redis-py and go-redis connect while the cluster is ${phaseDuringClients}`);
    const py = await run(PYTHON, [PY_CLIENT, uri, 'e', String(KEYS)], { timeout: 60_000 });
    expect(py.stdout.trim()).toBe(`present ${KEYS}`);
    const go = await run(path.join(stack.dir, 'go-redis-client'), [uri, 'e', String(KEYS)], { timeout: 60_000 });
    expect(go.stdout.trim()).toBe(`present ${KEYS}`);

    // The long-lived writer recovered on its own and lost nothing it was told was written.
    const ackedAfterLoss = writer.acked.length;
    await api.pollUntil(async () => (writer.acked.length > ackedAfterLoss + 50 ? true : undefined), 30_000, () => 'the URI-only writer did not resume writing after the node loss');
    await writer.stop();
    expect(ackedBeforeLoss).toBeGreaterThan(0);
    const check = appClient(uri);
    expect(await writer.lost(check)).toEqual([]);
    check.disconnect();
    writerClient.disconnect();
    await stack.startAgent(index);
  });
});
