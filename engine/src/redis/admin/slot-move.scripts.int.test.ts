/**
 * The slot move's COPY and HANDOVER scripts on a real 2-primary cluster
 * (`${STRATA_TEST_NET ?? '127.0'}.6.1..2`, port 7230): a slot copied whole
 * and the same slot copied as listed keys in parts digest alike; the
 * target restores exactly what the source holds (values of every type,
 * binary names, expiries), in the very bytes the TypeScript encoder writes
 * for the same keys; HANDOVER gives a slot up only while its digest is
 * the copy's, and refuses, changing nothing, after a value, an expiry or the
 * key set changed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { keySlot } from '../key-slot';
import { planSlots } from '../slots.planner';
import { connectAdmin } from './admin-connection';
import { BulkRestoreConnection, encodeRestores } from './bulk-restore.connection';
import { formCluster } from './form-cluster';
import { parseClusterNodes, parseOpenSlots } from './cluster-reply.parser';
import { combineDigests, COPY_SHA, copyArgs, HANDOVER_SHA, handoverArgs, loadSlotMoveScripts, parseCopyReply, parseHandoverReply, type CopyGroup } from './slot-move.scripts';
import { startRedisFleet, TEST_CREDENTIALS as creds, type RedisFleet } from './testing/redis-fleet.fixture';

const NET = process.env.STRATA_TEST_NET ?? '127.0';
const [A, B] = [1, 2].map((i) => ({ host: `${NET}.6.${i}`, port: 7230 }));
const internal = { username: creds.internalUser, password: creds.internalPassword };
const slots = planSlots(2);

let fleet: RedisFleet;
let src: Redis;
let dst: Redis;
let srcId: string;
let dstId: string;
let restorer: BulkRestoreConnection;

/** Key names hashed to `slot` (a hash tag found locally). */
function keysInSlot(slot: number, n: number, prefix: string): string[] {
  let tag = 0;
  while (keySlot(`{t${tag}}`) !== slot) tag++;
  return Array.from({ length: n }, (_, i) => `{t${tag}}${prefix}${i}`);
}

async function copy(groups: CopyGroup[]) {
  return parseCopyReply((await src.callBuffer('EVALSHA', COPY_SHA, '0', ...copyArgs(groups))) as Buffer, groups.length);
}

async function handover(slot: number, c: { keys: number; digest: string }): Promise<number> {
  const r = parseHandoverReply(await src.call('EVALSHA', HANDOVER_SHA, '0', ...handoverArgs(slot, dstId, c)));
  expect(r.serverMs).toBeGreaterThanOrEqual(0);
  expect(r.serverMs).toBeLessThan(1000);
  return r.handed ? 1 : 0;
}

async function migrating(): Promise<number[]> {
  return parseOpenSlots(String(await src.call('CLUSTER', 'NODES')), srcId).filter((o) => o.state === 'migrating').map((o) => o.slot);
}

beforeAll(async () => {
  fleet = await startRedisFleet([A!, B!]);
  await formCluster({ shards: [A!, B!].map((m, i) => ({ slots: [slots[i]!], primary: { instanceId: `00000000-0000-4000-8000-00000000002${i}`, ...m }, replicas: [] })), ...internal });
  src = await connectAdmin({ ...A!, ...internal }, 5000);
  dst = await connectAdmin({ ...B!, ...internal }, 5000);
  srcId = parseClusterNodes(String(await src.call('CLUSTER', 'NODES'))).find((n) => n.myself)!.id;
  dstId = parseClusterNodes(String(await dst.call('CLUSTER', 'NODES'))).find((n) => n.myself)!.id;
  await loadSlotMoveScripts(src);
  restorer = await BulkRestoreConnection.connect(B!.host, B!.port, internal.username, internal.password);
}, 60_000);

afterAll(async () => {
  restorer?.close();
  src?.disconnect();
  dst?.disconnect();
  await fleet?.stop();
});

describe('slot move scripts on redis-server', () => {
  it('copies a slot whole or in listed parts with one digest, and the target gets exactly the source\'s keys', async () => {
    const slot = slots[0]!.start + 10;
    const [s, h, l, z, t, bin] = keysInSlot(slot, 6, ':k');
    await src.set(s!, 'plain');
    await src.hset(h!, { a: '1', b: Buffer.from([0, 0xff, 0x0d, 0x0a]) });
    await src.rpush(l!, 'x', 'y', 'z');
    await src.zadd(z!, 1, 'one', 2, 'two');
    await src.set(t!, 'expiring', 'PX', 600_000);
    await src.set(Buffer.concat([Buffer.from(bin!), Buffer.from([0, 0xfe, 0x0d, 0x0a])]), 'binary name');
    const names = (await src.callBuffer('CLUSTER', 'GETKEYSINSLOT', String(slot), '100')) as Buffer[];
    expect(names).toHaveLength(6);

    const whole = await copy([{ slot }]);
    expect(whole.keys).toBe(6);
    const parts = [await copy([{ slot, keys: names.slice(0, 2) }]), await copy([{ slot, keys: [...names.slice(2), Buffer.from(`${bin!}:gone`)] }])];
    expect(parts.map((p) => p.groups[0]!.keys)).toEqual([2, 4]);
    expect(combineDigests(parts[0]!.groups[0]!.digest, parts[1]!.groups[0]!.digest)).toBe(whole.groups[0]!.digest);

    // The script's RESTORE-ASKING commands are byte for byte what the TypeScript encoder (a restore's key mover)
    // writes for the same keys: the two encoders cannot drift apart.
    const listed = await copy([{ slot, keys: names }]);
    const entries = await Promise.all(names.map(async (k) => ({ key: k, payload: (await src.callBuffer('DUMP', k)) as Buffer, expireAt: Number(await src.call('PEXPIRETIME', k)) })));
    expect(listed.restores.equals(encodeRestores(entries))).toBe(true);

    await dst.call('CLUSTER', 'SETSLOT', String(slot), 'IMPORTING', srcId);
    await restorer.restoreEncoded(whole.restores, whole.keys);
    expect(Number(await dst.call('CLUSTER', 'COUNTKEYSINSLOT', String(slot)))).toBe(6);
    for (const k of names) {
      const [d1, d2] = [await src.callBuffer('DUMP', k), await dst.pipeline().call('ASKING').callBuffer('DUMP', k).exec().then((r) => r![1]![1])];
      expect(d2, k.toString('latin1')).toEqual(d1);
    }
    const [srcExpiry, dstExpiry] = [Number(await src.call('PEXPIRETIME', t!)), Number(await dst.pipeline().call('ASKING').call('PEXPIRETIME', t!).exec().then((r) => r![1]![1]))];
    expect(srcExpiry).toBeGreaterThan(Date.now());
    expect(dstExpiry).toBe(srcExpiry);

    // Unchanged: handed over (the keys leave the source, the slot migrates to the target).
    expect(await handover(slot, whole.groups[0]!)).toBe(1);
    expect(await src.call('CLUSTER', 'COUNTKEYSINSLOT', String(slot))).toBe(0);
    expect(await migrating()).toContain(slot);
  });

  it.each(([
    ['a value changed', (k: string[]) => src.set(k[0]!, 'newer')],
    ['an expiry changed', (k: string[]) => src.pexpire(k[1]!, 900_000)],
    ['an expiry removed', (k: string[]) => src.persist(k[2]!)],
    ['a key added', (k: string[]) => src.set(`${k[0]!}:new`, 'x')],
    ['a key deleted', (k: string[]) => src.del(k[0]!)],
    ['a key deleted and another added', (k: string[]) => src.pipeline().del(k[0]!).set(`${k[0]!}:other`, 'v1').exec()],
  ] as [string, (k: string[]) => Promise<unknown>][]).map(([what, change], i) => [what, change, i] as const))('refuses the handover, changing nothing, after %s', async (_what, change, i) => {
    // Each case has a slot of its own: a case's fresh copy is handed over, so its slot is migrating afterwards.
    const slot = slots[0]!.start + 100 + i * 10;
    const keys = keysInSlot(slot, 3, ':r');
    await src.set(keys[0]!, 'v1');
    await src.set(keys[1]!, 'v2', 'PX', 600_000);
    await src.set(keys[2]!, 'v3', 'PX', 600_000);
    const c = (await copy([{ slot }])).groups[0]!;
    expect(c.keys).toBe(3);
    await change(keys);
    const before = Number(await src.call('CLUSTER', 'COUNTKEYSINSLOT', String(slot)));
    expect(await handover(slot, c)).toBe(0);
    expect(Number(await src.call('CLUSTER', 'COUNTKEYSINSLOT', String(slot)))).toBe(before);
    expect(await migrating()).not.toContain(slot);
    // A fresh copy of the changed slot is handed over.
    expect(await handover(slot, (await copy([{ slot }])).groups[0]!)).toBe(1);
    expect(await migrating()).toContain(slot);
  });

  it('hands an empty slot over only while it stays empty', async () => {
    const slot = slots[0]!.start + 2000;
    const empty = (await copy([{ slot }])).groups[0]!;
    expect(empty).toEqual({ keys: 0, digest: '0'.repeat(32) });
    const [k] = keysInSlot(slot, 1, ':e');
    await src.set(k!, 'arrived');
    expect(await handover(slot, empty)).toBe(0);
    await src.del(k!);
    expect(await handover(slot, empty)).toBe(1);
  });
});
