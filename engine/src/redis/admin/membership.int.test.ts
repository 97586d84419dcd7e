import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { loopbackAddress } from '@strata/local';
import { startRedisFleet, TEST_CREDENTIALS, type RedisFleet } from './testing/redis-fleet.fixture';
import { connectAdmin } from './admin-connection';
import { joinAsReplica } from './membership';
import { parseClusterNodes } from './cluster-reply.parser';

let fleet: RedisFleet;
const clients: Redis[] = [];
const admin = async (i: number) => {
  const s = fleet.servers[i]!;
  const c = await connectAdmin({ host: s.host, port: s.port, username: TEST_CREDENTIALS.internalUser, password: TEST_CREDENTIALS.internalPassword }, 2000);
  clients.push(c);
  return c;
};

beforeAll(async () => {
  const host = loopbackAddress('127.0.5.10');
  fleet = await startRedisFleet([{ host, port: 7200 }, { host, port: 7201 }], { memoryMb: 32 });
});
afterAll(async () => {
  for (const c of clients) c.disconnect();
  await fleet?.stop();
});

describe('joinAsReplica', () => {
  it('turns a primary without slots that still holds keys (copies imported before its shard failed over) into a replica', async () => {
    const [a, b] = [await admin(0), await admin(1)];
    const [sa] = fleet.servers;
    await a.call('CLUSTER', 'ADDSLOTSRANGE', '0', '16383');
    await b.call('CLUSTER', 'MEET', sa!.host, String(sa!.port));
    const aId = String(await a.call('CLUSTER', 'MYID'));
    // B knows A and its slots (cluster_state ok) before anything is asked of it.
    for (let i = 0; i < 200 && !/cluster_state:ok/.test(String(await b.call('CLUSTER', 'INFO'))); i++) await new Promise((r) => setTimeout(r, 50));
    // A key copied into B while it imported a slot: B owns no slot, and Redis refuses to make a primary with keys a replica.
    const slot = String(await a.call('CLUSTER', 'KEYSLOT', 'copied'));
    await b.call('CLUSTER', 'SETSLOT', slot, 'IMPORTING', aId);
    await b.call('ASKING');
    await b.set('copied', 'v');
    expect(await b.dbsize()).toBe(1);
    await expect(b.call('CLUSTER', 'REPLICATE', aId)).rejects.toThrow(/must be empty/);

    await joinAsReplica(b, sa!, { timeoutMs: 5000 });
    const me = parseClusterNodes(String(await b.call('CLUSTER', 'NODES'))).find((n) => n.myself)!;
    expect(me.role).toBe('replica');
    expect(me.primaryId).toBe(aId);
  });
});
