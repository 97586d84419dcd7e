/**
 * Day-two changes while a node is lost, on the real stack (3 nodes,
 * 127.0.141.x), each with a writer running and keys loaded:
 * - a settings change (memory) on a 1x1 cluster asked for right after its
 *   replica's host (agent and engines) is killed: the change does not wait
 *   for the lost copy; it ends once the node is declared down and every live
 *   copy took the new settings, and healing then rebuilds the replica on the
 *   third node with them (WAIT 1 writer: nothing acknowledged lost);
 * - a rolling restart of a 1x1 cluster (on the two nodes left) whose
 *   replica's host is killed as the roll begins: the roll stops with
 *   `node_down`, rather than pausing for good while healing waits behind it;
 *   the primary keeps serving every key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import type { Stack } from '@strata/local';
import { internalCredentials, killHost, testStack } from './helpers/test-stack';
import type { TestApi } from './helpers/api-client';
import { loadedOneShard } from './helpers/loaded-cluster';
import { expectNothingLost } from './helpers/nothing-lost';

let stack: Stack;
let api: TestApi;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ stack, api, cleanup } = await testStack('127.0.141', { nodes: 3 }));
});
afterAll(async () => cleanup?.());

async function maxmemoryMb(address: string): Promise<number> {
  const [host, port] = [address.slice(0, address.lastIndexOf(':')), Number(address.slice(address.lastIndexOf(':') + 1))];
  const r = new Redis({ host, port, ...internalCredentials(stack, address), lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await r.connect();
    const [, bytes] = (await r.config('GET', 'maxmemory')) as [string, string];
    return Number(bytes) / 1024 / 1024;
  } finally {
    r.disconnect();
  }
}

describe('day-two changes while a node is lost', () => {
  it('a settings change does not wait for the copy on the down node; healing rebuilds it elsewhere with the new settings; nothing lost', async () => {
    const { id, app, writer, replicaNode: node } = await loadedOneShard(api, { name: 'down-settings', replicasPerShard: 1, memoryMbPerShard: 64 });
    await killHost(stack, stack.agents.findIndex((a) => a.name === node.name));
    const changed = await api.updateCluster(id, { memoryMbPerShard: 48 });
    expect(changed.status, JSON.stringify(changed.body)).toBe(202);
    const op = await api.waitForOperation(changed.body.operation.id, 60_000);
    expect(op.state, JSON.stringify(op)).toBe('succeeded');
    const configure = op.steps.find((s) => s.name === 'configure')!;
    expect(configure.detail).toContain(`1 on down node ${node.name} not waited for`);
    await api.waitForEvent(id, 'node-down', (e) => e.node.id === node.id, 30_000);

    // Healing rebuilds the replica on the third node, with the new memory; the primary took it in place.
    const rebuilt = await api.waitForEvent(id, 'replica-rebuilt', () => true, 60_000);
    expect(rebuilt.replacement.nodeName).not.toBe(node.name);
    const after = await api.waitForHealthy(id, 60_000);
    const copies = after.shards[0]!.instances;
    expect(copies.map((i) => i.nodeId)).not.toContain(node.id);
    for (const c of copies) expect(await maxmemoryMb(c.address), c.address).toBe(48);

    await expectNothingLost(writer, app);
  }, 240_000);

  it('a rolling restart stops with node_down when a node holding a copy goes down, and the primary keeps every key', async () => {
    // The writer's writes are acknowledged by the primary: no replica is left to wait for once the replica's host is gone.
    const { id, app, writer, replicaNode: node } = await loadedOneShard(api, { name: 'down-restart', replicasPerShard: 1, memoryMbPerShard: 32 }, 0);
    const started = await api.restart(id);
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    await killHost(stack, stack.agents.findIndex((a) => a.name === node.name));
    const op = await api.waitForOperation(started.body.operation.id, 60_000);
    expect(op.state, JSON.stringify(op)).toBe('failed');
    expect(op.error).toMatchObject({ code: 'node_down', message: expect.stringContaining(`node ${node.name} went down during the rolling restart`) });

    await expectNothingLost(writer, app);
  }, 240_000);
});
