import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { checksumOf, getJson, LocalDirectoryStorage, StorageCache } from './backup-storage';

const dirs: string[] = [];
const storage = () => {
  const d = mkdtempSync(path.join(os.tmpdir(), 'strata-storage-'));
  dirs.push(d);
  return { root: d, s: new LocalDirectoryStorage(d) };
};
afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });

describe('LocalDirectoryStorage', () => {
  it('stores a stream, measuring its size and SHA-256, and reads it back', async () => {
    const { s } = storage();
    const data = Buffer.alloc(300_000, 7);
    const put = await s.put('b1/shard-0.rdb', Readable.from([data.subarray(0, 100_000), data.subarray(100_000)]));
    expect(put).toEqual({ bytes: data.length, sha256: createHash('sha256').update(data).digest('hex') });
    expect(await checksumOf(s, 'b1/shard-0.rdb')).toEqual({ ...put, head: Buffer.alloc(16, 7) });
    expect(await s.size('b1/shard-0.rdb')).toBe(data.length);
    expect(await s.size('b1/missing')).toBeNull();
  });

  it('leaves nothing under the key when the stream fails', async () => {
    const { root, s } = storage();
    const failing = new Readable({ read() { this.destroy(new Error('source broke')); } });
    await expect(s.put('b2/shard-0.rdb', failing)).rejects.toThrow('source broke');
    expect(readdirSync(path.join(root, 'b2'))).toEqual([]);
  });

  it('reads JSON, deletes a prefix, and refuses keys that leave the root', async () => {
    const { s } = storage();
    await s.put('b3/manifest.json', Readable.from([Buffer.from('{"a":1}')]));
    expect(await getJson(s, 'b3/manifest.json')).toEqual({ a: 1 });
    await s.deletePrefix('b3');
    expect(await s.size('b3/manifest.json')).toBeNull();
    await expect(s.put('../escape', Readable.from([Buffer.from('x')]))).rejects.toThrow(/invalid storage key/);
  });
});

describe('StorageCache', () => {
  const s3 = { kind: 's3' as const, endpoint: 'http://127.0.0.1:1', bucket: 'b', region: 'us-east-1', prefix: '', credentialsId: 'c1' };
  const creds = { accessKeyId: 'AK', secretAccessKey: 'secret-1' };

  it('reuses a storage opened with the same ref and credentials, and opens another when either differs', () => {
    const cache = new StorageCache();
    const first = cache.get(s3, creds);
    expect(cache.get({ ...s3 }, { ...creds })).toBe(first);
    expect(cache.get(s3, { ...creds, secretAccessKey: 'secret-2' })).not.toBe(first);
    expect(cache.get({ ...s3, bucket: 'other' }, creds)).not.toBe(first);
    expect(() => cache.get(s3, null)).toThrow(/credentials/);
  });

  it('keeps at most `max` storages, dropping the least recently used', () => {
    const cache = new StorageCache(2);
    const a = cache.get({ kind: 'local', root: '/a' });
    const b = cache.get({ kind: 'local', root: '/b' });
    expect(cache.get({ kind: 'local', root: '/a' })).toBe(a);
    cache.get({ kind: 'local', root: '/c' });
    expect(cache.get({ kind: 'local', root: '/a' })).toBe(a);
    expect(cache.get({ kind: 'local', root: '/b' })).not.toBe(b);
  });
});
