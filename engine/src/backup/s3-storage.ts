/**
 * S3-compatible object storage (AWS S3, SeaweedFS, MinIO, ...). Objects are
 * written with a streaming multipart upload (multipart-upload.ts: parts of
 * `PART_BYTES`, at most `QUEUE` of them in memory): never a whole file. An upload that fails or is
 * cancelled is aborted, so no parts are left behind; an object becomes
 * visible only when its upload completes.
 */
import { createHash } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { S3Client } from '@aws-sdk/client-s3';
import { multipartUpload, type PartTarget } from './multipart-upload';
import { assertSafeKey, type BackupStorage, type PutOptions, type StorageCredentials, type StorageRef, type StoredObject } from './backup-storage';

// S3's smallest part: the upload of a snapshot streamed as it is produced starts after its first 5 MB.
const PART_BYTES = 5 * 1024 * 1024;
const QUEUE = 4;

type Sdk = typeof import('@aws-sdk/client-s3');
let sdkLoad: Promise<Sdk> | undefined;
/**
 * The AWS SDK, loaded on first use: loading it costs a process about 0.7 s of CPU, and most agents and
 * control planes never talk to an object store.
 */
const loadSdk = (): Promise<Sdk> => (sdkLoad ??= import('@aws-sdk/client-s3'));

type S3Ref = Extract<StorageRef, { kind: 's3' }>;

/** A storage error in words a user can act on (unreachable, refused credentials, missing bucket, full), prefixed `storage: `. */
export function describeStorageError(err: unknown, ref: Pick<S3Ref, 'endpoint' | 'bucket'>): string {
  return `storage: ${storageReason(err, ref)}`;
}

/** Whether an error message (e.g. a task's) came from the storage. */
export const isStorageError = (message: string) => message.startsWith('storage: ');

function storageReason(err: unknown, ref: Pick<S3Ref, 'endpoint' | 'bucket'>): string {
  const e = err as { name?: string; code?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const status = e.$metadata?.httpStatusCode;
  const name = e.name && e.name !== 'Unknown' ? e.name : e.code ?? (status ? `HTTP ${status}` : 'Error');
  const where = `${ref.endpoint}, bucket ${ref.bucket}`;
  if (['InvalidAccessKeyId', 'SignatureDoesNotMatch', 'AccessDenied', 'Forbidden'].includes(name) || status === 403) {
    return `the credentials were refused (${name}) at ${where}`;
  }
  if (name === 'NoSuchBucket' || (name === 'NotFound' && status === 404)) return `no bucket ${ref.bucket} at ${ref.endpoint}`;
  if (name === 'EntityTooLarge' || name === 'QuotaExceeded' || status === 507) return `full, or the object too large (${name}) at ${where}`;
  const msg = e.message ?? String(err);
  if (/ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ETIMEDOUT|ECONNRESET|socket hang up|timed? ?out/i.test(`${name} ${msg} ${e.code ?? ''}`)) {
    return `unreachable at ${ref.endpoint} (${msg})`;
  }
  return `${name}${msg && msg !== name ? ` (${msg})` : ''} at ${where}`;
}

export class S3Storage implements BackupStorage {
  private client?: S3Client;
  private opening?: Promise<{ client: S3Client; s3: Sdk }>;

  constructor(private readonly ref: S3Ref, private readonly credentials: StorageCredentials) {}

  /** The client and the SDK's commands (both made on first use). */
  private s3(): Promise<{ client: S3Client; s3: Sdk }> {
    return (this.opening ??= loadSdk().then((s3) => ({ client: this.open(s3), s3 })));
  }

  private open(s3: Sdk): S3Client {
    this.client = new s3.S3Client(this.clientConfig());
    return this.client;
  }

  private clientConfig() {
    const { ref, credentials } = this;
    return {
      endpoint: ref.endpoint,
      region: ref.region,
      credentials: { accessKeyId: credentials.accessKeyId, secretAccessKey: credentials.secretAccessKey },
      // Path-style addressing and checksums only where required: what S3-compatible servers understand.
      forcePathStyle: true,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 3,
      // An unreachable storage fails in seconds, not minutes.
      requestHandler: { connectionTimeout: 3000, requestTimeout: 120_000 },
    } as const;
  }

  private streaming?: Promise<S3Client>;

  /** A client like `client`, without retries: for part bodies that are streams. */
  private streamingClient(): Promise<S3Client> {
    return (this.streaming ??= this.s3().then(({ s3 }) => new s3.S3Client({ ...this.clientConfig(), maxAttempts: 1 })));
  }

  private key(key: string): string {
    assertSafeKey(key);
    return `${this.ref.prefix}${key}`;
  }

  private wrap(err: unknown): Error {
    const out = new Error(describeStorageError(err, this.ref));
    (out as Error & { cause?: unknown }).cause = err;
    return out;
  }

  async put(key: string, data: Readable, opts: PutOptions = {}): Promise<StoredObject> {
    const { client, s3 } = await this.s3().catch((err) => { throw this.wrap(err); });
    const Bucket = this.ref.bucket;
    const Key = this.key(key);
    // An earlier writer of this key that died mid-upload left its parts: aborted (one writer per key at a time)
    // while the first part fills, before this upload starts.
    const cleared = this.abortUploadsUnder(Key);
    cleared.catch(() => undefined);
    const call = async <T>(f: () => Promise<T>): Promise<T> => {
      try {
        return await f();
      } catch (err) {
        throw this.wrap(err);
      }
    };
    const abortSignal = opts.signal;
    const target: PartTarget = {
      putObject: (Body) => call(async () => { await cleared; await client.send(new s3.PutObjectCommand({ Bucket, Key, Body }), { abortSignal }); }),
      start: () => call(async () => { await cleared; return (await client.send(new s3.CreateMultipartUploadCommand({ Bucket, Key }), { abortSignal })).UploadId!; }),
      putPart: (UploadId, PartNumber, Body) => call(async () => (await client.send(new s3.UploadPartCommand({ Bucket, Key, UploadId, PartNumber, Body }), { abortSignal })).ETag!),
      // Streamed parts go through a client without retries (a stream cannot be sent twice; the part is sent again whole).
      streamPart: (UploadId, PartNumber, Body, ContentLength, stop) => call(async () => {
        const signal = abortSignal ? AbortSignal.any([abortSignal, stop]) : stop;
        return (await (await this.streamingClient()).send(new s3.UploadPartCommand({ Bucket, Key, UploadId, PartNumber, Body, ContentLength }), { abortSignal: signal })).ETag!;
      }),
      complete: (UploadId, parts) => call(async () => {
        await client.send(new s3.CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload: { Parts: parts.map((x) => ({ PartNumber: x.partNumber, ETag: x.etag })) } }), { abortSignal });
      }),
      abort: (UploadId) => call(async () => { await client.send(new s3.AbortMultipartUploadCommand({ Bucket, Key, UploadId })); }),
    };
    const hash = createHash('sha256');
    let bytes = 0;
    try {
      await multipartUpload(data, target, {
        partBytes: PART_BYTES, queue: QUEUE, signal: opts.signal, expectedBytes: opts.expectedBytes,
        onChunk: (c) => {
          hash.update(c);
          bytes += c.length;
          opts.onProgress?.(bytes);
        },
      });
    } catch (err) {
      // Also what a concurrent writer of this key may have left (the upload's own parts are aborted already).
      await this.abortUploads(key);
      throw err;
    }
    return { bytes, sha256: hash.digest('hex') };
  }

  get(key: string): Readable {
    const out = new PassThrough();
    const objectKey = this.key(key);
    this.s3().then(({ client, s3 }) => client.send(new s3.GetObjectCommand({ Bucket: this.ref.bucket, Key: objectKey })))
      .then((r) => pipeline(r.Body as Readable, out))
      .catch((err) => out.destroy(this.wrap(err)));
    return out;
  }

  async size(key: string): Promise<number | null> {
    try {
      const { client, s3 } = await this.s3();
      const r = await client.send(new s3.HeadObjectCommand({ Bucket: this.ref.bucket, Key: this.key(key) }));
      return r.ContentLength ?? 0;
    } catch (err) {
      if ((err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return null;
      throw this.wrap(err);
    }
  }

  /** Deletes every object under `prefix/` and aborts every unfinished upload there. */
  async deletePrefix(prefix: string): Promise<void> {
    const full = `${this.key(prefix)}/`;
    try {
      const { client, s3 } = await this.s3();
      let token: string | undefined;
      do {
        const page = await client.send(new s3.ListObjectsV2Command({ Bucket: this.ref.bucket, Prefix: full, ContinuationToken: token }));
        const keys = (page.Contents ?? []).map((o) => ({ Key: o.Key! }));
        if (keys.length) await client.send(new s3.DeleteObjectsCommand({ Bucket: this.ref.bucket, Delete: { Objects: keys, Quiet: true } }));
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      await this.abortUploadsUnder(full);
    } catch (err) {
      throw this.wrap(err);
    }
  }

  /** Unfinished multipart uploads under a prefix (tests check none is left). */
  async openUploads(prefix = ''): Promise<string[]> {
    const { client, s3 } = await this.s3();
    const r = await client.send(new s3.ListMultipartUploadsCommand({ Bucket: this.ref.bucket, Prefix: `${this.ref.prefix}${prefix}` }));
    return (r.Uploads ?? []).map((u) => u.Key!);
  }

  /**
   * Every unfinished multipart upload under the storage's prefix (keys relative to it), page by page: what a
   * writer that died mid-upload (a `kill -9`) left, until it is aborted.
   */
  async unfinishedUploads(): Promise<{ key: string; uploadId: string; initiated: Date | null }[]> {
    try {
      const { client, s3 } = await this.s3();
      const out: { key: string; uploadId: string; initiated: Date | null }[] = [];
      let KeyMarker: string | undefined;
      let UploadIdMarker: string | undefined;
      do {
        const page = await client.send(new s3.ListMultipartUploadsCommand({ Bucket: this.ref.bucket, Prefix: this.ref.prefix, KeyMarker, UploadIdMarker }));
        for (const u of page.Uploads ?? []) out.push({ key: u.Key!.slice(this.ref.prefix.length), uploadId: u.UploadId!, initiated: u.Initiated ?? null });
        [KeyMarker, UploadIdMarker] = page.IsTruncated ? [page.NextKeyMarker, page.NextUploadIdMarker] : [undefined, undefined];
      } while (KeyMarker);
      return out;
    } catch (err) {
      throw this.wrap(err);
    }
  }

  /** Aborts one unfinished multipart upload (`key` relative to the storage's prefix); one already gone is no error. */
  async abortUpload(key: string, uploadId: string): Promise<void> {
    try {
      const { client, s3 } = await this.s3();
      await client.send(new s3.AbortMultipartUploadCommand({ Bucket: this.ref.bucket, Key: this.key(key), UploadId: uploadId }));
    } catch (err) {
      if ((err as { name?: string }).name === 'NoSuchUpload' || (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return;
      throw this.wrap(err);
    }
  }

  /** Object keys under a prefix (relative to the storage's own prefix). */
  async list(prefix = ''): Promise<string[]> {
    const { client, s3 } = await this.s3();
    const out: string[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(new s3.ListObjectsV2Command({ Bucket: this.ref.bucket, Prefix: `${this.ref.prefix}${prefix}`, ContinuationToken: token }));
      out.push(...(page.Contents ?? []).map((o) => o.Key!.slice(this.ref.prefix.length)));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return out;
  }

  private async abortUploads(key: string): Promise<void> {
    await this.abortUploadsUnder(this.key(key)).catch(() => undefined);
  }

  private async abortUploadsUnder(prefix: string): Promise<void> {
    const { client, s3 } = await this.s3();
    const r = await client.send(new s3.ListMultipartUploadsCommand({ Bucket: this.ref.bucket, Prefix: prefix }));
    for (const u of r.Uploads ?? []) {
      await client.send(new s3.AbortMultipartUploadCommand({ Bucket: this.ref.bucket, Key: u.Key!, UploadId: u.UploadId! }));
    }
  }

  /** Proves the bucket is there and the credentials may write and delete in it (a small probe object). */
  async check(): Promise<void> {
    const probe = `${this.ref.prefix}.strata-probe`;
    try {
      const { client, s3 } = await this.s3();
      await client.send(new s3.HeadBucketCommand({ Bucket: this.ref.bucket }));
      await client.send(new s3.PutObjectCommand({ Bucket: this.ref.bucket, Key: probe, Body: 'ok' }));
      await client.send(new s3.DeleteObjectCommand({ Bucket: this.ref.bucket, Key: probe }));
    } catch (err) {
      throw this.wrap(err);
    }
  }

  destroy(): void {
    this.client?.destroy();
    void this.streaming?.then((c) => c.destroy());
  }
}
