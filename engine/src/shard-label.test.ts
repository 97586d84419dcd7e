import { describe, expect, it } from 'vitest';
import { shardLabel, shardName, shardNames, shardNumber } from './shard-label';

describe('shard labels', () => {
  it('count from 1 for people, whatever the 0-based index', () => {
    expect(shardNumber(0)).toBe(1);
    expect(shardLabel(0)).toBe('Shard 1');
    expect(shardLabel(3)).toBe('Shard 4');
    expect(shardName(1)).toBe('shard 2');
  });
  it('list several shards in order', () => {
    expect(shardNames([2])).toBe('shard 3');
    expect(shardNames([2, 0])).toBe('shards 1 and 3');
    expect(shardNames([3, 0, 1])).toBe('shards 1, 2 and 4');
  });
});
