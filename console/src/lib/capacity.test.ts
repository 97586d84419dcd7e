import { describe, expect, it } from 'vitest';
import type { Capacity } from '@strata/api';
import { checkCapacity, formatRoomLike, formatRoomMb, offeredSizes, shapeBounds, shardsHint, suggestName } from './capacity';

const MENU = [32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536];

/** Bounds as the server answers them for a shape (no per-node vector). */
const cap = (b: Partial<Capacity> & Pick<Capacity, 'replicasPerShard' | 'memoryMbPerShard'>): Capacity => ({
  onlineNodes: 3, maxReplicasPerShard: 2, maxMemoryMbPerShard: 2048, maxShards: 64, nodesUsed: null, ...b,
});

describe('checkCapacity', () => {
  it('fits and gives the nodes the server said the plan uses', () => {
    const c = cap({ replicasPerShard: 1, memoryMbPerShard: 256, maxShards: 12, nodesUsed: 3 });
    expect(checkCapacity(c, { shards: 3, replicasPerShard: 1, memoryMbPerShard: 256 })).toMatchObject({ ok: true, nodesUsed: 3, problem: null });
  });
  it('memory above the bound is the memory field, in GB', () => {
    const r = checkCapacity(cap({ replicasPerShard: 0, memoryMbPerShard: 65536 }), { shards: 1, replicasPerShard: 0, memoryMbPerShard: 65536 });
    expect(r?.problem).toEqual({ field: 'memoryMbPerShard', message: 'No room for 64 GB per shard: the largest free node has 2 GB. Choose 2 GB or less.' });
  });
  it('with replicas the message names the (R+1)th-largest free node', () => {
    const r = checkCapacity(cap({ replicasPerShard: 1, memoryMbPerShard: 2048, maxMemoryMbPerShard: 1024 }), { shards: 1, replicasPerShard: 1, memoryMbPerShard: 2048 });
    expect(r?.problem?.field).toBe('memoryMbPerShard');
    expect(r?.problem?.message).toContain('2nd-largest free node has 1 GB');
  });
  it('more copies than nodes is the replicas field', () => {
    const r = checkCapacity(cap({ onlineNodes: 2, maxReplicasPerShard: 1, replicasPerShard: 0, memoryMbPerShard: 32 }), { shards: 1, replicasPerShard: 2, memoryMbPerShard: 32 });
    expect(r?.problem?.field).toBe('replicasPerShard');
    expect(r?.problem?.message).toMatch(/need 3 online nodes.*2 are online. At most 1 replica\./);
  });
  it('more shards than the bound is the shards field, with how many fit, and no free memory named', () => {
    const r = checkCapacity(cap({ replicasPerShard: 1, memoryMbPerShard: 1024, maxShards: 3 }), { shards: 4, replicasPerShard: 1, memoryMbPerShard: 1024 }, MENU);
    expect(r?.problem?.field).toBe('shards');
    expect(r?.problem?.message).toContain('At most 3 shards of this size fit');
    expect(r?.problem?.message).not.toMatch(/free/);
  });
  it('bounds for other replicas (or, for shards, another memory) are not used: null while the re-query runs', () => {
    expect(checkCapacity(cap({ replicasPerShard: 1, memoryMbPerShard: 256 }), { shards: 1, replicasPerShard: 2, memoryMbPerShard: 256 })).toBeNull();
    expect(checkCapacity(cap({ replicasPerShard: 1, memoryMbPerShard: 256, maxShards: 1 }), { shards: 4, replicasPerShard: 1, memoryMbPerShard: 512 })).toBeNull();
    // The memory bound is for the replicas alone, so a too-big size is told at once.
    expect(checkCapacity(cap({ replicasPerShard: 1, memoryMbPerShard: 256, maxMemoryMbPerShard: 1000 }), { shards: 1, replicasPerShard: 1, memoryMbPerShard: 1024 })?.problem?.field).toBe('memoryMbPerShard');
  });
  it('speaks in the unit chosen and suggests a size the menu offers (1 GB chosen, 1000 MB free)', () => {
    const r = checkCapacity(cap({ replicasPerShard: 0, memoryMbPerShard: 1024, maxMemoryMbPerShard: 1000 }), { shards: 1, replicasPerShard: 0, memoryMbPerShard: 1024 }, MENU);
    expect(r?.problem).toEqual({ field: 'memoryMbPerShard', message: 'No room for 1 GB per shard: the largest free node has 0.9 GB. Choose 512 MB or less.' });
  });
  it('2 GB chosen with 2016 MB free: suggests 1 GB (offered), not 1.9 GB', () => {
    const r = checkCapacity(cap({ replicasPerShard: 0, memoryMbPerShard: 2048, maxMemoryMbPerShard: 2016 }), { shards: 1, replicasPerShard: 0, memoryMbPerShard: 2048 }, MENU);
    expect(r?.problem?.message).toBe('No room for 2 GB per shard: the largest free node has 1.9 GB. Choose 1 GB or less.');
  });
  it('no offered size fits', () => {
    const r = checkCapacity(cap({ replicasPerShard: 0, memoryMbPerShard: 32, maxMemoryMbPerShard: 16 }), { shards: 1, replicasPerShard: 0, memoryMbPerShard: 32 }, MENU);
    expect(r?.problem?.message).toMatch(/has 16 MB\. No size fits now/);
  });
  it('offeredSizes, formatRoomLike and formatRoomMb', () => {
    expect(offeredSizes(MENU, 1000)).toEqual([32, 64, 128, 256, 512]);
    expect(formatRoomLike(1000, 512)).toBe('1000 MB');
    expect(formatRoomLike(1000, 1024)).toBe('0.9 GB');
    expect(formatRoomMb(2016)).toBe('1.9 GB');
  });
  it('no online node', () => {
    expect(checkCapacity(cap({ onlineNodes: 0, maxReplicasPerShard: 0, replicasPerShard: 0, memoryMbPerShard: 32 }), { shards: 1, replicasPerShard: 0, memoryMbPerShard: 32 })?.problem?.field).toBe('shards');
  });
});

describe('suggestName', () => {
  it.each([
    ['My Cluster', 'my-cluster'],
    ['  Sessions  Cache!! ', 'sessions-cache'],
    ['9lives', 'lives'],
    ['Café_Orders', 'cafe-orders'],
    ['orders-', 'orders'],
  ])('%s -> %s', (typed, suggested) => expect(suggestName(typed)).toBe(suggested));
  it('nothing to suggest for a valid name or for no letters', () => {
    expect(suggestName('my-cluster')).toBeNull();
    expect(suggestName('123')).toBeNull();
  });
});

describe('formatRoomMb', () => {
  it('rounds free room down', () => {
    expect(formatRoomMb(2016)).toBe('1.9 GB');
    expect(formatRoomMb(2048)).toBe('2 GB');
    expect(formatRoomMb(768)).toBe('768 MB');
  });
});

describe('shapeBounds (the wizard and Settings)', () => {
  it('offers memory up to the bound, keeps the current choice marked, and bounds shards for the shape asked', () => {
    const c = cap({ replicasPerShard: 0, memoryMbPerShard: 256, maxMemoryMbPerShard: 1500, maxShards: 7 });
    const b = shapeBounds(c, { shards: 9, replicasPerShard: 0, memoryMbPerShard: 256 }, 0, 256, MENU);
    expect(b.memoryOptions).toEqual([32, 64, 128, 256, 512, 1024]);
    expect(b.shardsMax).toBe(7);
    expect(b.check?.problem).toEqual({ field: 'shards', message: '9 instances of 256 MB do not fit on the nodes now. At most 7 shards of this size fit.' });
    expect(shardsHint(b.shardsMax)).toBe('1–7 fit now.');
    expect(shapeBounds(c, null, 0, 4096, MENU).memoryOptions.at(-1)).toBe(4096);
  });
  it('without bounds on hand offers the whole menu and the limits', () => {
    const b = shapeBounds(undefined, { shards: 3, replicasPerShard: 1, memoryMbPerShard: 256 }, 1, 256, MENU);
    expect(b.memoryOptions).toEqual(MENU);
    expect(b.check).toBeNull();
  });
});
