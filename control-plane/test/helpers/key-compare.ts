/**
 * Key-by-key comparison of two clusters (a backup's source and a restore of
 * it): each key's type, value in a canonical form, and TTL within 2 s.
 */
import { expect } from 'vitest';
import type { Cluster as RedisCluster, Redis } from 'ioredis';

/** A key's type, value in a canonical form, and remaining TTL (ms; -1 none). */
export async function readKey(c: RedisCluster | Redis, key: string): Promise<{ type: string; value: unknown; pttl: number }> {
  const type = await c.type(key);
  const value = type === 'string' ? await c.get(key)
    : type === 'hash' ? Object.entries(await c.hgetall(key)).sort()
    : type === 'list' ? await c.lrange(key, 0, -1)
    : type === 'set' ? (await c.smembers(key)).sort()
    : type === 'zset' ? await c.zrange(key, 0, -1, 'WITHSCORES')
    : type === 'stream' ? await c.xrange(key, '-', '+')
    : null;
  return { type, value, pttl: await c.pttl(key) };
}

/** Every key of `keys` has the same type and value in `dst` as in `src`, and a TTL within 2 s (or none in both). */
export async function expectSameKeys(src: RedisCluster | Redis, dst: RedisCluster | Redis, keys: readonly string[]): Promise<void> {
  for (const key of keys) {
    const [a, b] = await Promise.all([readKey(src, key), readKey(dst, key)]);
    expect({ key, type: b.type, value: b.value }).toEqual({ key, type: a.type, value: a.value });
    if (a.pttl < 0) expect(b.pttl, key).toBe(-1);
    else expect(Math.abs(a.pttl - b.pttl), key).toBeLessThan(2000);
  }
}
