import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import type { Stack } from '@strata/local';
import type { Topology } from '@strata/api';
import { testStack, redisPidsOn } from './helpers/test-stack';
import type { TestApi } from './helpers/api-client';
import { clusterFromUri } from './helpers/redis-client';

let stack: Stack;
let api: TestApi;
let cleanup: () => Promise<void>;
let clusterId: string;

beforeAll(async () => {
  ({ stack, api, cleanup } = await testStack('127.0.13'));
  const r = await api.createCluster({ name: 'steady', shards: 3, replicasPerShard: 1, durability: 'aof-everysec' });
  clusterId = r.body.cluster.id;
  await api.waitForPhase(clusterId, 'ready');
});
afterAll(async () => cleanup?.());

const addresses = () => stack.agents.map((a) => a.address);

describe('agent supervision', () => {
  it('an agent restart adopts running engines: same PIDs, data still served', async () => {
    const client = clusterFromUri((await api.connection(clusterId)).body.uri);
    await client.set('before-restart', '1');
    const before = redisPidsOn(addresses()).sort();
    expect(before).toHaveLength(6);
    const sparesBefore = redisPidsOn(addresses(), 'spares').sort();
    expect(sparesBefore.length).toBeGreaterThan(0);

    for (const i of [0, 1, 2]) {
      await stack.stopAgent(i, 'SIGKILL');
      await stack.startAgent(i);
    }
    expect(redisPidsOn(addresses()).sort()).toEqual(before);
    expect(redisPidsOn(addresses(), 'spares').sort()).toEqual(sparesBefore);
    expect(await client.get('before-restart')).toBe('1');
    client.disconnect();
    // The restarted agents report the same engines, so the cluster stays ready.
    await new Promise((r) => setTimeout(r, 1500));
    expect((await api.getCluster(clusterId)).body.status.phase).toBe('ready');
  });

  it('a crashed redis-server is restarted, reported, and the cluster returns to ready', async () => {
    const topo: Topology = (await api.topology(clusterId)).body;
    const replica = topo.shards[0]!.instances.find((i) => i.role === 'replica')!;
    const [host, port] = replica.address.split(':');
    const victim = redisPidsOn([host!]).find((pid) => {
      try { return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(`:${port}`); } catch { return false; }
    })!;
    expect(victim).toBeGreaterThan(0);
    process.kill(victim, 'SIGKILL');

    // The agent notices, reports a restart, and brings it back with a new PID.
    const deadline = Date.now() + 20_000;
    for (;;) {
      const c = (await api.getCluster(clusterId)).body;
      const pids = redisPidsOn(addresses());
      const node = (await api.nodes()).body.items.find((n) => n.id === replica.nodeId)!;
      const seen = node.instances.find((i) => i.id === replica.id)!;
      if (c.status.phase === 'ready' && pids.length === 6 && !pids.includes(victim) && seen.restarts === 1 && seen.state === 'running') break;
      if (Date.now() > deadline) throw new Error(`not recovered: phase ${c.status.phase}, ${pids.length} engines, restarts ${seen.restarts}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const topoAfter: Topology = (await api.topology(clusterId)).body;
    expect(topoAfter.shards[0]!.instances.find((i) => i.id === replica.id)).toMatchObject({ health: 'healthy', observedRole: 'replica' });
  });

  it('an agent that dies is started again by the launcher (as systemd would), and its node returns online', async () => {
    const agent = stack.agents[1]!;
    const before = agent.proc!.child.pid!;
    const node = (await api.nodes()).body.items.find((n) => n.name === agent.name)!;
    process.kill(before, 'SIGKILL');
    const deadline = Date.now() + 30_000;
    for (;;) {
      const now = (await api.nodes()).body.items.find((n) => n.id === node.id)!;
      const restarted = agent.proc?.child.pid !== before && agent.proc?.child.exitCode === null;
      if (restarted && now.status === 'online' && Date.now() - Date.parse(now.lastHeartbeatAt!) < 2000) break;
      if (Date.now() > deadline) throw new Error(`agent not restarted: status ${now.status}, restarts ${agent.restarts}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(agent.restarts).toBe(1);
    await api.waitForPhase(clusterId, 'ready');
  });
});
