import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { checksumOf, getJson, LocalDirectoryStorage, StorageCache, type BackupStorage, type StorageRef, type StoredObject } from './backup-storage';

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
  /** Storages that count what is done to them. */
  const fakes = () => {
    const made: { ref: StorageRef; destroyed: number; release?: () => void }[] = [];
    const opener = (ref: StorageRef): BackupStorage => {
      const m: (typeof made)[number] = { ref, destroyed: 0 };
      made.push(m);
      return {
        put: () => new Promise<StoredObject>((resolve) => { m.release = () => resolve({ bytes: 0, sha256: '' }); }),
        get: () => Readable.from([]), size: async () => null, deletePrefix: async () => {}, destroy: () => { m.destroyed++; },
      };
    };
    return { made, opener };
  };

  it('opens a storage once per ref and credentials, and another when either differs', () => {
    const { made, opener } = fakes();
    const cache = new StorageCache(8, opener);
    cache.get(s3, creds);
    cache.get({ ...s3 }, { ...creds });
    expect(made).toHaveLength(1);
    cache.get(s3, { ...creds, secretAccessKey: 'secret-2' });
    cache.get({ ...s3, bucket: 'other' }, creds);
    expect(made).toHaveLength(3);
    // The real opener refuses an S3 ref without credentials.
    expect(() => new StorageCache().get(s3, null)).toThrow(/credentials/);
  });

  it('keeps at most `max`, closing the least recently used once no put uses it; close ends them all', async () => {
    const { made, opener } = fakes();
    const cache = new StorageCache(2, opener);
    const a = cache.get({ kind: 'local', root: '/a' });
    cache.get({ kind: 'local', root: '/b' });
    const putting = a.put('k', Readable.from([]));
    cache.get({ kind: 'local', root: '/a' }); // a is the most recent now
    cache.get({ kind: 'local', root: '/c' }); // evicts b: idle, closed at once
    expect(made.map((m) => m.destroyed)).toEqual([0, 1, 0]);
    cache.get({ kind: 'local', root: '/d' }); // evicts a while its put runs: closed when the put ends
    expect(made[0]!.destroyed).toBe(0);
    made[0]!.release!();
    await putting;
    expect(made[0]!.destroyed).toBe(1);
    cache.close();
    expect(made.map((m) => m.destroyed)).toEqual([1, 1, 1, 1]);
  });
});
