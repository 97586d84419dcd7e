/**
 * Where backups live. One small interface, so object storage (S3) can sit
 * beside the local directory: whoever holds a `StorageRef` (the control
 * plane writing a manifest, an agent streaming its shard's snapshot) opens
 * the same storage with `openStorage`. Objects are written under a
 * temporary name and renamed into place, so a reader never sees half a file;
 * a SHA-256 and the byte count are computed while the data streams through,
 * never with a whole file in memory.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** How to reach a storage, as tasks and backup rows carry it (never with secrets). */
export type StorageRef = { kind: 'local'; root: string };

/** What writing an object measured. */
export interface StoredObject {
  bytes: number;
  sha256: string;
}

export interface BackupStorage {
  /** Streams `data` to `key`; visible under `key` only once complete. */
  put(key: string, data: Readable): Promise<StoredObject>;
  /** Streams the object at `key` (rejects on read when it does not exist). */
  get(key: string): Readable;
  /** Size of the object, or null when there is none. */
  size(key: string): Promise<number | null>;
  /** Deletes everything under `prefix` (a backup's objects). */
  deletePrefix(prefix: string): Promise<void>;
}

/** A pass-through that counts bytes and hashes them. */
export function digestStream(): Transform & { result(): StoredObject } {
  const hash = createHash('sha256');
  let bytes = 0;
  const t = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      hash.update(chunk);
      bytes += chunk.length;
      cb(null, chunk);
    },
  }) as Transform & { result(): StoredObject };
  t.result = () => ({ bytes, sha256: hash.digest('hex') });
  return t;
}

/** SHA-256 and size of an object, read as a stream. */
export async function checksumOf(storage: BackupStorage, key: string): Promise<StoredObject> {
  const d = digestStream();
  await pipeline(storage.get(key), d, async function* (src) { for await (const _ of src) { /* drain */ } });
  return d.result();
}

/** Reads a small JSON object (a manifest). */
export async function getJson<T>(storage: BackupStorage, key: string): Promise<T> {
  const chunks: Buffer[] = [];
  for await (const c of storage.get(key)) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as T;
}

/** Keys are relative paths of safe segments: a key can never leave its storage's root. */
export function assertSafeKey(key: string): void {
  if (!/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/.test(key) || key.split('/').some((s) => s === '.' || s === '..')) {
    throw new Error(`invalid storage key ${JSON.stringify(key)}`);
  }
}

/**
 * A directory on a file system the writer and readers share: the control
 * plane's host in a local installation (`npm start`), where agents and the
 * control plane run on one machine. Agents on other machines need object
 * storage.
 */
export class LocalDirectoryStorage implements BackupStorage {
  constructor(private readonly root: string) {}

  private file(key: string): string {
    assertSafeKey(key);
    return path.join(this.root, key);
  }

  async put(key: string, data: Readable): Promise<StoredObject> {
    const file = this.file(key);
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    const tmp = `${file}.partial-${process.pid}-${Date.now()}`;
    const d = digestStream();
    try {
      await pipeline(data, d, createWriteStream(tmp, { mode: 0o600 }));
      await rename(tmp, file);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
    return d.result();
  }

  get(key: string): Readable {
    return createReadStream(this.file(key));
  }

  async size(key: string): Promise<number | null> {
    try {
      return (await stat(this.file(key))).size;
    } catch {
      return null;
    }
  }

  async deletePrefix(prefix: string): Promise<void> {
    await rm(this.file(prefix), { recursive: true, force: true });
  }

  /** For tests and tools: the bytes of a small object. */
  read(key: string): Promise<Buffer> {
    return readFile(this.file(key));
  }
}

/** Opens the storage a ref names. */
export function openStorage(ref: StorageRef): BackupStorage {
  switch (ref.kind) {
    case 'local': return new LocalDirectoryStorage(ref.root);
  }
}
