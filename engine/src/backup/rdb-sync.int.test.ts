import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loopbackAddress } from '@strata/local';
import { startRedisFleet, TEST_CREDENTIALS, type RedisFleet } from '../redis/admin/testing/redis-fleet.fixture';
import { connectAdmin } from '../redis/admin/admin-connection';
import { openRdbSync } from './rdb-sync';
import { readRdbCounts } from './rdb-header';

let fleet: RedisFleet;
beforeAll(async () => {
  fleet = await startRedisFleet([{ host: loopbackAddress('127.0.5.19'), port: 7191 }], { memoryMb: 64 });
  const admin = await connectAdmin(target(), 5000);
  try {
    // A one-node cluster owning every slot, holding small keys, keys with a TTL and a 4 MB incompressible value.
    await admin.call('CLUSTER', 'ADDSLOTSRANGE', '0', '16383');
    for (let i = 0; i < 50 && !/cluster_state:ok/.test(String(await admin.call('CLUSTER', 'INFO'))); i++) await new Promise((r) => setTimeout(r, 100));
    for (let i = 0; i < 2000; i++) await admin.call('SET', `k${i}`, `v${i}`);
    for (let i = 0; i < 100; i++) await admin.call('EXPIRE', `k${i}`, '600');
    await admin.call('SET', 'big', randomBytes(3 * 1024 * 1024).toString('base64'));
  } finally {
    admin.disconnect();
  }
});
afterAll(async () => fleet?.stop());

function target() {
  return { host: fleet.servers[0]!.host, port: fleet.servers[0]!.port, username: TEST_CREDENTIALS.internalUser, password: TEST_CREDENTIALS.internalPassword };
}

async function drain(s: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of s) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

describe('openRdbSync (a snapshot over the replication protocol, as redis-cli --rdb)', () => {
  it('streams a whole RDB holding every key, which redis-check-rdb accepts', async () => {
    const before = Date.now();
    const sync = await openRdbSync(target());
    expect(sync.startedAt.getTime()).toBeGreaterThanOrEqual(before);
    const rdb = await drain(sync.rdb);
    expect(readRdbCounts(rdb)).toMatchObject({ keys: 2001, keysWithExpiry: 100 });
    const file = path.join(fleet.root, 'synced.rdb');
    writeFileSync(file, rdb);
    expect(execFileSync('redis-check-rdb', [file], { encoding: 'utf8' })).toMatch(/RDB looks OK/);
  });

  it('names what refused it: a wrong password, nothing listening', async () => {
    await expect(openRdbSync({ ...target(), password: 'wrong' })).rejects.toThrow(/refused the snapshot: WRONGPASS/);
    await expect(openRdbSync({ ...target(), port: 1 })).rejects.toThrow(/ECONNREFUSED/);
  });

  it('errors the stream when the connection breaks mid-transfer', async () => {
    const sync = await openRdbSync(target());
    const got = drain(sync.rdb);
    sync.rdb.once('data', () => sync.close());
    await expect(got).rejects.toThrow(/closed the connection before the snapshot was complete/);
  });
});

describe('openRdbSync after a broken transfer', () => {
  it('a new transfer starts right after one was closed unread', async () => {
    const first = await openRdbSync(target());
    first.close();
    const t0 = Date.now();
    const second = await openRdbSync({ ...target(), timeoutMs: 30_000 });
    const rdb = await drain(second.rdb);
    console.log(`second transfer answered after ${second.startedAt.getTime() - t0} ms`);
    expect(readRdbCounts(rdb)?.keys).toBe(2001);
  }, 60_000);
});
