import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster, Redis } from 'ioredis';
import type { FormClusterShard } from '../../domain';
import { planSlots } from '../slots.planner';
import { CUSTOMER_ACL_RULES } from '../config.renderer';
import { formCluster, observeInstance } from './index';
import { connectAdmin } from './admin-connection';
import { parseClusterNodes } from './cluster-reply.parser';
import { startRedisFleet, TEST_CREDENTIALS as creds, type RedisFleet } from './testing/redis-fleet.fixture';
import { loopbackAddress } from '@strata/local';

// 3 primaries on 127.0.5.1..3:7100, each replica on the next host at :7101.
const HOSTS = ['127.0.5.1', '127.0.5.2', '127.0.5.3'].map((h) => loopbackAddress(h));
const slots = planSlots(3);
const shards: FormClusterShard[] = HOSTS.map((host, i) => ({
  slots: [slots[i]!],
  primary: { instanceId: `00000000-0000-4000-8000-00000000000${i}`, host, port: 7100 },
  replicas: [{ instanceId: `00000000-0000-4000-8000-00000000001${i}`, host: HOSTS[(i + 1) % 3]!, port: 7101 }],
}));
const members = shards.flatMap((s) => [s.primary, ...s.replicas]);
const internal = { username: creds.internalUser, password: creds.internalPassword };

let fleet: RedisFleet | undefined;
let customerCluster: Cluster | undefined;
const admins: Redis[] = [];

async function admin(host: string, port: number): Promise<Redis> {
  const client = await connectAdmin({ host, port, ...internal }, 2000);
  admins.push(client);
  return client;
}

/** What formCluster controls, per node: id, role, primary, slots and epoch. */
async function topology(): Promise<string[]> {
  return Promise.all(
    members.map(async (m) => {
      const me = parseClusterNodes(String(await (await admin(m.host, m.port)).call('CLUSTER', 'NODES'))).find((n) => n.myself)!;
      return JSON.stringify([m.host, m.port, me.id, me.role, me.primaryId, me.slots, me.configEpoch]);
    }),
  );
}

describe('formCluster against real redis-server processes (3 primaries + 3 replicas)', () => {
  beforeAll(async () => {
    fleet = await startRedisFleet(members);
  });

  afterAll(async () => {
    customerCluster?.disconnect();
    for (const c of admins) c.disconnect();
    await fleet?.stop();
  });

  it('forms the cluster and reports when it is ready', async () => {
    const logs: string[] = [];
    const started = Date.now();
    await formCluster({ shards, ...internal, log: (m) => logs.push(m) });
    const took = Date.now() - started;
    console.log(`formCluster 3x1 on fresh processes: ${took} ms (${Date.now() - fleet!.spawnedAt} ms after spawn)\n  ${logs.join('\n  ')}`);
    expect(took).toBeLessThan(30_000);
    for (const m of members) {
      expect(await (await admin(m.host, m.port)).call('CONFIG', 'GET', 'cluster-node-timeout')).toEqual(['cluster-node-timeout', '2000']);
    }
  });

  it('serves a customer Cluster client across every primary', async () => {
    customerCluster = new Cluster(
      HOSTS.map((host) => ({ host, port: 7100 })),
      { redisOptions: { username: creds.customerUser, password: creds.customerPassword }, enableReadyCheck: true },
    );
    const keys = Array.from({ length: 1000 }, (_, i) => `key:${i}`);
    await Promise.all(keys.map((k, i) => customerCluster!.set(k, `value-${i}`)));
    const values = await Promise.all(keys.map((k) => customerCluster!.get(k)));
    expect(values).toEqual(keys.map((_, i) => `value-${i}`));

    const sizes = await Promise.all(shards.map(async (s) => Number(await (await admin(s.primary.host, s.primary.port)).dbsize())));
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(1000);
    for (const size of sizes) expect(size).toBeGreaterThan(250);
  });

  it('denies admin commands to the customer and logins to the default user', async () => {
    const customer = await connectAdmin({ host: HOSTS[0]!, port: 7100, username: creds.customerUser, password: creds.customerPassword }, 2000);
    admins.push(customer);
    const denied: string[][] = [
      ['CONFIG', 'GET', 'maxmemory'],
      ['CONFIG', 'SET', 'maxmemory', '1mb'],
      ['SHUTDOWN', 'NOSAVE'],
      ['DEBUG', 'SLEEP', '0'],
      ['MODULE', 'LIST'],
      ['ACL', 'SETUSER', 'evil', 'on', '>x', '+@all'],
      ['CLUSTER', 'ADDSLOTS', '1'],
      ['CLUSTER', 'RESET'],
      ['CLUSTER', 'FAILOVER'],
      ['CLUSTER', 'MEET', '127.0.0.1', '1'],
      ['CLUSTER', 'FORGET', 'abc'],
    ];
    const root = await admin(HOSTS[0]!, 7100);
    for (const [cmd, ...args] of denied) {
      const what = `${cmd} ${args.join(' ')}`;
      // DEBUG and MODULE are also disabled server-wide (enable-*-command no), which redis checks first.
      await expect(customer.call(cmd!, ...args), what).rejects.toThrow(/NOPERM|not allowed/);
      expect(String(await root.call('ACL', 'DRYRUN', creds.customerUser, cmd!, ...args)), what).toMatch(/no permissions/);
    }
    // Re-allowed commands exist in this redis-server (it started with them) and work.
    expect(CUSTOMER_ACL_RULES).toContain('+cluster|slots');
    expect(String(await customer.call('CLUSTER', 'INFO'))).toContain('cluster_state:ok');
    expect(String(await customer.call('INFO', 'server'))).toContain('redis_version');

    await expect(customer.call('AUTH', 'default', '')).rejects.toThrow(/WRONGPASS|invalid/i);
    await expect(connectAdmin({ host: HOSTS[0]!, port: 7100, username: 'default', password: 'anything' }, 1000)).rejects.toThrow(/WRONGPASS/);
    await expect(connectAdmin({ host: HOSTS[0]!, port: 7100, username: 'default', password: '' }, 1000)).rejects.toThrow(/WRONGPASS|NOAUTH/);
  });

  it('is idempotent: a second call succeeds and changes nothing', async () => {
    const before = await topology();
    const logs: string[] = [];
    const started = Date.now();
    await formCluster({ shards, ...internal, log: (m) => logs.push(m) });
    console.log(`formCluster again: ${Date.now() - started} ms`);
    expect(await topology()).toEqual(before);
    expect(logs.filter((l) => !l.includes('formed in'))).toEqual([]);
  });

  it('observeInstance reports role, state and replication of each node', async () => {
    const views = await Promise.all(members.map((m) => observeInstance({ host: m.host, port: m.port, ...internal })));
    const ids = views.map((v) => v?.myId);
    shards.forEach((s, i) => {
      const primary = views[i * 2]!;
      const replica = views[i * 2 + 1]!;
      expect(primary).toMatchObject({ role: 'primary', state: 'ok', knownNodes: 6, slotsAssigned: 16384, primaryId: null, primaryLinkUp: null });
      expect(replica).toMatchObject({ role: 'replica', state: 'ok', knownNodes: 6, primaryId: primary.myId, primaryLinkUp: true });
      expect(s.primary.port).toBe(7100);
    });
    expect(new Set(ids).size).toBe(6);
    expect(await observeInstance({ host: HOSTS[0]!, port: 7199, ...internal, timeoutMs: 300 })).toBeNull();
    expect(await observeInstance({ host: HOSTS[0]!, port: 7100, username: 'default', password: 'nope' })).toBeNull();
  });

  it('keeps a failover that already happened when called again', async () => {
    const replica = shards[0]!.replicas[0]!;
    const client = await admin(replica.host, replica.port);
    await client.call('CLUSTER', 'FAILOVER');
    const deadline = Date.now() + 10_000;
    for (;;) {
      const [planned, promoted] = await Promise.all(
        [shards[0]!.primary, replica].map((m) => observeInstance({ host: m.host, port: m.port, ...internal })),
      );
      if (promoted?.role === 'primary' && planned?.role === 'replica' && planned.primaryLinkUp) break;
      if (Date.now() > deadline) throw new Error('manual failover did not complete');
      await new Promise((r) => setTimeout(r, 20));
    }
    const logs: string[] = [];
    await formCluster({ shards, ...internal, log: (m) => logs.push(m) });
    expect(logs[0]).toContain(`${HOSTS[1]}:7101 already took over as primary from ${HOSTS[0]}:7100`);
    const view = await observeInstance({ host: replica.host, port: replica.port, ...internal });
    expect(view).toMatchObject({ role: 'primary', state: 'ok' });
  });
});
