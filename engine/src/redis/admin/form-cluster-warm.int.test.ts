import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import type { FormClusterShard } from '../../domain';
import { planSlots } from '../slots.planner';
import { formCluster, observeInstance } from './index';
import { connectAdmin } from './admin-connection';
import { startRedisFleet, TEST_CREDENTIALS as creds, type RedisFleet } from './testing/redis-fleet.fixture';
import { loopbackAddress } from '@strata/local';

// Instances started well before forming (as an agent that spawns early would have them),
// and a cluster left half-formed by an earlier, interrupted attempt.
const esc = (s: string) => s.replace(/\./g, '\\.');
const HOSTS = ['127.0.5.1', '127.0.5.2', '127.0.5.3'].map((h) => loopbackAddress(h));
const slots = planSlots(3);
const shards: FormClusterShard[] = HOSTS.map((host, i) => ({
  slots: [slots[i]!],
  primary: { instanceId: `00000000-0000-4000-8000-00000000002${i}`, host, port: 7110 },
  replicas: [{ instanceId: `00000000-0000-4000-8000-00000000003${i}`, host: HOSTS[(i + 1) % 3]!, port: 7111 }],
}));
const members = shards.flatMap((s) => [s.primary, ...s.replicas]);
const internal = { username: creds.internalUser, password: creds.internalPassword };
/** CLUSTER_WRITABLE_DELAY in redis' cluster.c: primaries stay cluster_state:fail this long after start. */
const WRITABLE_DELAY_MS = 2000;

let fleet: RedisFleet | undefined;
const admins: Redis[] = [];

describe('formCluster on warm, partially formed instances (3 primaries + 3 replicas)', () => {
  beforeAll(async () => {
    fleet = await startRedisFleet(members);
    await new Promise((r) => setTimeout(r, Math.max(0, fleet!.spawnedAt + WRITABLE_DELAY_MS + 100 - Date.now())));
  });

  afterAll(async () => {
    for (const c of admins) c.disconnect();
    await fleet?.stop();
  });

  it('finishes what an interrupted attempt started', async () => {
    const first = await connectAdmin({ ...shards[0]!.primary, ...internal }, 2000);
    admins.push(first);
    // The interrupted attempt gave shard 0 half its slots and met one node.
    await first.call('CLUSTER', 'ADDSLOTSRANGE', '0', '2000');
    await first.call('CLUSTER', 'MEET', shards[1]!.primary.host, String(shards[1]!.primary.port));

    const logs: string[] = [];
    const started = Date.now();
    await formCluster({ shards, ...internal, log: (m) => logs.push(m) });
    const took = Date.now() - started;
    console.log(`formCluster 3x1 on warm instances: ${took} ms\n  ${logs.join('\n  ')}`);
    expect(logs).toContain(`assigned slots 2001-5460 to ${HOSTS[0]}:7110`);
    expect(took).toBeLessThan(5_000);

    const views = await Promise.all(members.map((m) => observeInstance({ host: m.host, port: m.port, ...internal })));
    expect(views.map((v) => [v?.role, v?.state, v?.knownNodes])).toEqual(
      members.map((_, i) => [i % 2 === 0 ? 'primary' : 'replica', 'ok', 6]),
    );
    for (const m of members) {
      const c = await connectAdmin({ ...m, ...internal }, 2000);
      admins.push(c);
      expect(await c.call('CONFIG', 'GET', 'cluster-node-timeout')).toEqual(['cluster-node-timeout', '2000']);
    }
  });

  it('rejects with what did not converge when a node is gone', async () => {
    const down = fleet!.servers.find((s) => s.port === 7111 && s.host === HOSTS[1])!;
    process.kill(down.pid, 'SIGKILL');
    await new Promise((r) => down.process.once('exit', r));
    await expect(formCluster({ shards, ...internal, timeoutMs: 800 })).rejects.toThrow(
      new RegExp(`formCluster (could not reach 1 node\\(s\\): ${esc(HOSTS[1]!)}:7111|did not converge)`),
    );
  });
});
