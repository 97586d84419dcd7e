import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisFleet, TEST_CREDENTIALS, type RedisFleet } from './testing/redis-fleet.fixture';
import { applyInstanceSettings, SPARE_USERS } from './apply-settings';
import { connectAdmin } from './admin-connection';
import { loopbackAddress } from '@strata/local';
import { sha256Hex } from '../database-users';

const spareCreds = { ...SPARE_USERS, internalPassword: 'spare-internal-pw', customerPassword: 'spare-customer-pw' };
let fleet: RedisFleet;

beforeAll(async () => {
  fleet = await startRedisFleet([{ host: loopbackAddress('127.0.5.9'), port: 7190 }], { credentials: spareCreds, memoryMb: 32 });
});
afterAll(async () => fleet?.stop());

describe('applyInstanceSettings (claiming a warm spare)', () => {
  it("installs the cluster's users (its database users too) and settings and removes the spare's users", async () => {
    const [s] = fleet.servers;
    await applyInstanceSettings({
      host: s!.host, port: s!.port, current: { username: SPARE_USERS.internalUser, password: spareCreds.internalPassword },
      settings: {
        memoryMb: 128, durability: 'aof-everysec', evictionPolicy: 'allkeys-lru',
        credentials: { ...TEST_CREDENTIALS, databaseUsers: [{ name: 'reader', preset: 'read-only', keyPatterns: ['orders:*'], passwordHashes: [sha256Hex('reader-password-0123')] }] },
      },
    });
    const admin = await connectAdmin({ host: s!.host, port: s!.port, username: TEST_CREDENTIALS.internalUser, password: TEST_CREDENTIALS.internalPassword }, 2000);
    try {
      expect(((await admin.call('ACL', 'USERS')) as string[]).sort()).toEqual(['customer', 'default', 'reader', 'strata-internal']);
      expect(await admin.call('CONFIG', 'GET', 'maxmemory')).toEqual(['maxmemory', String(128 * 1024 * 1024)]);
      expect(await admin.call('CONFIG', 'GET', 'maxmemory-policy')).toEqual(['maxmemory-policy', 'allkeys-lru']);
      expect(await admin.call('CONFIG', 'GET', 'appendonly')).toEqual(['appendonly', 'yes']);
      expect(await admin.call('CONFIG', 'GET', 'masteruser')).toEqual(['masteruser', 'strata-internal']);
    } finally {
      admin.disconnect();
    }
    const customer = await connectAdmin({ host: s!.host, port: s!.port, username: TEST_CREDENTIALS.customerUser, password: TEST_CREDENTIALS.customerPassword }, 2000);
    try {
      await expect(customer.call('CONFIG', 'GET', 'maxmemory')).rejects.toThrow(/NOPERM/);
      expect(await customer.ping()).toBe('PONG');
    } finally {
      customer.disconnect();
    }
    const reader = await connectAdmin({ host: s!.host, port: s!.port, username: 'reader', password: 'reader-password-0123' }, 2000);
    try {
      await expect(reader.set('orders:1', 'x')).rejects.toThrow(/NOPERM/);
    } finally {
      reader.disconnect();
    }
    await expect(connectAdmin({ host: s!.host, port: s!.port, username: SPARE_USERS.internalUser, password: spareCreds.internalPassword }, 1000)).rejects.toThrow(/WRONGPASS/);
  });
});
