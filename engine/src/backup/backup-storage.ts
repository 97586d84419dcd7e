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
import { S3Storage } from './s3-storage';

/**
 * How to reach a storage, as tasks and backup rows carry it (never with
 * secrets: an S3 ref names its sealed credentials by `credentialsId`; the
 * control plane adds them to an agent's task on the way out).
 */
export type StorageRef =
  | { kind: 'local'; root: string }
  | { kind: 's3'; endpoint: string; bucket: string; region: string; prefix: string; credentialsId: string };

/** An S3 access key pair. */
export interface StorageCredentials {
  accessKeyId: string;
  secretAccessKey: string;
}

/** Options of one `put`: cancel it, follow its progress. */
export interface PutOptions {
  signal?: AbortSignal;
  /** Called as bytes are stored (total so far). */
  onProgress?: (bytes: number) => void;
  /** The size the object is expected to have (e.g. the last copy's): object storage then sends most of it while it streams. */
  expectedBytes?: number;
}

/** What writing an object measured. */
export interface StoredObject {
  bytes: number;
  sha256: string;
}

export interface BackupStorage {
  /** Streams `data` to `key`; visible under `key` only once complete (nothing is left behind when it fails). */
  put(key: string, data: Readable, opts?: PutOptions): Promise<StoredObject>;
  /** Streams the object at `key` (rejects on read when it does not exist). */
  get(key: string): Readable;
  /** Size of the object, or null when there is none. */
  size(key: string): Promise<number | null>;
  /** Deletes everything under `prefix` (a backup's objects). */
  deletePrefix(prefix: string): Promise<void>;
  /** Ends what the storage holds open (an S3 client's sockets); absent when it holds nothing. */
  destroy?(): void;
}

/** A pass-through that counts bytes and hashes them. */
export function digestStream(onBytes?: (bytes: number) => void): Transform & { result(): StoredObject } {
  const hash = createHash('sha256');
  let bytes = 0;
  const t = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      hash.update(chunk);
      bytes += chunk.length;
      onBytes?.(bytes);
      cb(null, chunk);
    },
  }) as Transform & { result(): StoredObject };
  t.result = () => ({ bytes, sha256: hash.digest('hex') });
  return t;
}

/** SHA-256 and size of an object, read as a stream, with its first bytes (`head`: up to 16, an RDB's magic and version). */
export async function checksumOf(storage: BackupStorage, key: string): Promise<StoredObject & { head: Buffer }> {
  const d = digestStream();
  let head = Buffer.alloc(0);
  await pipeline(storage.get(key), d, async function* (src) {
    for await (const c of src) if (head.length < 16) head = Buffer.concat([head, (c as Buffer).subarray(0, 16 - head.length)]);
  });
  return { ...d.result(), head };
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

  async put(key: string, data: Readable, opts: PutOptions = {}): Promise<StoredObject> {
    const file = this.file(key);
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    const tmp = `${file}.partial-${process.pid}-${Date.now()}`;
    const d = digestStream(opts.onProgress);
    try {
      await pipeline(data, d, createWriteStream(tmp, { mode: 0o600 }), opts.signal ? { signal: opts.signal } : {});
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

/** Opens the storage a ref names (an S3 ref needs its credentials). */
export function openStorage(ref: StorageRef, credentials?: StorageCredentials | null): BackupStorage {
  switch (ref.kind) {
    case 'local': return new LocalDirectoryStorage(ref.root);
    case 's3': {
      if (!credentials) throw new Error(`the credentials of storage s3://${ref.bucket} are missing`);
      return new S3Storage(ref, credentials);
    }
  }
}

/**
 * Opened storages kept for reuse, for a process that stores often (an agent
 * backing up its shards on a schedule): an S3 storage's clients (connection
 * pool, signing setup) are made once per storage and credentials, not once a
 * backup. Credentials that change make a new entry; at most `max` are kept:
 * the least recently used goes, its clients closed once no `put` through the
 * cache uses them. `close` ends them all.
 */
export class StorageCache {
  private readonly open = new Map<string, { storage: BackupStorage; puts: number; evicted: boolean }>();

  constructor(private readonly max = 8, private readonly opener: (ref: StorageRef, credentials?: StorageCredentials | null) => BackupStorage = openStorage) {}

  get(ref: StorageRef, credentials?: StorageCredentials | null): BackupStorage {
    const key = JSON.stringify([ref, credentials?.accessKeyId ?? null, credentials ? createHash('sha256').update(credentials.secretAccessKey).digest('hex') : null]);
    let entry = this.open.get(key);
    if (entry) {
      this.open.delete(key);
    } else {
      entry = { storage: this.opener(ref, credentials), puts: 0, evicted: false };
      while (this.open.size >= this.max) this.evict(this.open.keys().next().value!);
    }
    this.open.set(key, entry);
    const e = entry;
    const storage = e.storage;
    // The caller's view: every put is counted, so an evicted entry is closed only once its last put ends.
    return {
      put: async (k, data, opts) => {
        e.puts++;
        try {
          return await storage.put(k, data, opts);
        } finally {
          e.puts--;
          if (e.evicted && e.puts === 0) storage.destroy?.();
        }
      },
      get: (k) => storage.get(k),
      size: (k) => storage.size(k),
      deletePrefix: (p) => storage.deletePrefix(p),
    };
  }

  /** Ends every storage's clients (the process is stopping). */
  close(): void {
    for (const key of [...this.open.keys()]) this.evict(key);
  }

  private evict(key: string): void {
    const e = this.open.get(key)!;
    this.open.delete(key);
    e.evicted = true;
    if (e.puts === 0) e.storage.destroy?.();
  }
}
