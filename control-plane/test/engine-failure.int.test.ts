import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import net from 'node:net';
import type { Stack } from '@strata/local';
import { testStack, redisPidsOn } from './helpers/test-stack';
import type { TestApi } from './helpers/api-client';

let stack: Stack;
let api: TestApi;
let cleanup: () => Promise<void>;
let squatter: net.Server;

beforeAll(async () => {
  // No warm spares: every engine is started from scratch on the planned ports.
  ({ stack, api, cleanup } = await testStack('127.0.16', { nodes: 2, agentEnv: { STRATA_AGENT_SPARES: '0' } }));
  // Something else already listens where node-1's first engine must go.
  squatter = net.createServer().listen(7000, stack.agents[0]!.address);
  await new Promise((r) => squatter.once('listening', r));
});
afterAll(async () => {
  squatter?.close();
  await cleanup?.();
});

describe('an engine that cannot start', () => {
  it('fails the operation with the reason, and delete still cleans up', async () => {
    const r = await api.createCluster({ name: 'blocked', shards: 1, replicasPerShard: 1 });
    expect(r.status).toBe(202);
    const op = await api.waitForOperation(r.body.operation.id, 60_000);
    expect(op.state).toBe('failed');
    expect(op.error?.code).toBe('task_failed');
    expect(op.error?.message).toMatch(/127\.[0-9.]+:7000 is in use by pid \d+/);
    expect(op.steps.find((s) => s.name === 'start-instances')?.state).toBe('failed');
    const cluster = (await api.getCluster(r.body.cluster.id)).body;
    expect(cluster.status.phase).toBe('failed');
    expect(cluster.status.conditions[0]?.message).toMatch(/127\.[0-9.]+:7000 is in use by pid \d+/);

    squatter.close();
    const del = await api.deleteCluster(r.body.cluster.id);
    expect(del.status).toBe(202);
    await api.waitForGone(r.body.cluster.id);
    expect(redisPidsOn(stack.agents.map((a) => a.address))).toEqual([]);
  });
});
