import { describe, expect, it } from 'vitest';
import type { Capacity } from '@strata/api';
import { checkCapacity, formatRoomLike, formatRoomMb, maxMemoryMbPerShard, maxShards, offeredSizes, suggestName } from './capacity';

const MENU = [32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536];

const cap = (free: number[]): Capacity => ({
  onlineNodes: free.length,
  nodeFreeMemoryMb: [...free].sort((a, b) => b - a),
  maxMemoryMbPerShard: Math.max(0, ...free),
  maxReplicasPerShard: Math.max(0, free.length - 1),
});

describe('checkCapacity', () => {
  it('fits and counts the nodes the plan uses', () => {
    expect(checkCapacity(cap([2048, 2048, 2048]), { shards: 3, replicasPerShard: 1, memoryMbPerShard: 256 })).toMatchObject({ ok: true, nodesUsed: 3 });
  });
  it('memory no node can hold is the memory field, in GB', () => {
    const r = checkCapacity(cap([2048, 2048, 2048]), { shards: 1, replicasPerShard: 0, memoryMbPerShard: 65536 });
    expect(r.problem).toEqual({ field: 'memoryMbPerShard', message: 'No room for 64 GB per shard: the largest free node has 2 GB. Choose 2 GB or less.' });
  });
  it('with replicas the bound is the (R+1)th-largest free node', () => {
    const c = cap([4096, 1024, 512]);
    expect(maxMemoryMbPerShard(c, 0)).toBe(4096);
    expect(maxMemoryMbPerShard(c, 1)).toBe(1024);
    const r = checkCapacity(c, { shards: 1, replicasPerShard: 1, memoryMbPerShard: 2048 });
    expect(r.problem?.field).toBe('memoryMbPerShard');
    expect(r.problem?.message).toContain('2nd-largest free node has 1 GB');
  });
  it('more copies than nodes is the replicas field', () => {
    const r = checkCapacity(cap([2048, 2048]), { shards: 1, replicasPerShard: 2, memoryMbPerShard: 32 });
    expect(r.problem?.field).toBe('replicasPerShard');
    expect(r.problem?.message).toMatch(/need 3 online nodes.*2 are online. At most 1 replica\./);
  });
  it('too many shards for the total is the shards field, with how many fit', () => {
    const c = cap([2048, 2048, 2048]);
    expect(maxShards(c, 1, 1024, 64)).toBe(3);
    const r = checkCapacity(c, { shards: 4, replicasPerShard: 1, memoryMbPerShard: 1024 });
    expect(r.problem?.field).toBe('shards');
    expect(r.problem?.message).toContain('At most 3 shards of this size fit');
  });
  it('speaks in the unit chosen and suggests a size the menu offers (1 GB chosen, 1000 MB free)', () => {
    const r = checkCapacity(cap([1000, 1000, 1000]), { shards: 1, replicasPerShard: 0, memoryMbPerShard: 1024 }, 64, MENU);
    expect(r.problem).toEqual({ field: 'memoryMbPerShard', message: 'No room for 1 GB per shard: the largest free node has 0.9 GB. Choose 512 MB or less.' });
  });
  it('2 GB chosen with 2016 MB free: suggests 1 GB (offered), not 1.9 GB', () => {
    const r = checkCapacity(cap([2016, 2016, 2016]), { shards: 1, replicasPerShard: 0, memoryMbPerShard: 2048 }, 64, MENU);
    expect(r.problem?.message).toBe('No room for 2 GB per shard: the largest free node has 1.9 GB. Choose 1 GB or less.');
  });
  it('no offered size fits', () => {
    const r = checkCapacity(cap([16, 16]), { shards: 1, replicasPerShard: 0, memoryMbPerShard: 32 }, 64, MENU);
    expect(r.problem?.message).toMatch(/has 16 MB\. No size fits now/);
  });
  it("the shards message gives no fleet-wide free memory (other tenants' usage)", () => {
    const r = checkCapacity(cap([2048, 2048, 2048]), { shards: 4, replicasPerShard: 1, memoryMbPerShard: 1024 }, 64, MENU);
    expect(r.problem?.message).not.toMatch(/free/);
  });
  it('offeredSizes and formatRoomLike', () => {
    expect(offeredSizes(MENU, 1000)).toEqual([32, 64, 128, 256, 512]);
    expect(formatRoomLike(1000, 512)).toBe('1000 MB');
    expect(formatRoomLike(1000, 1024)).toBe('0.9 GB');
  });
  it('no online node', () => {
    expect(checkCapacity(cap([]), { shards: 1, replicasPerShard: 0, memoryMbPerShard: 32 }).problem?.field).toBe('shards');
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
