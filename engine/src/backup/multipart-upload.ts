/**
 * A streaming multipart upload, cut from a byte stream as it arrives: each
 * chunk is copied once, into the part being filled (the first part's buffer
 * grows with it; later parts reuse the buffers of parts already sent), and a
 * full part is sent while the next one fills.
 * At most `queue` parts are held (filling or in flight): when they are all
 * taken, reading waits, so the source is slowed, never buffered whole. A
 * stream that fits in one part is sent with a single request. Whatever
 * fails (the source, a part, the completion, a stop), the upload is aborted
 * before the error is thrown, so no parts are left behind.
 *
 * Given the size the object is expected to have, parts are sized so that
 * the last one is small, and each part's request starts with its first byte
 * and is fed as the part fills: the store takes in (and hashes) the object
 * while it streams, and little is left to send once it ends. A part cut
 * short (the object ended sooner) or whose request failed is sent again
 * whole from the bytes held.
 *
 * The object store is behind `PartTarget` (S3Storage gives the AWS SDK's
 * calls), so the cutting, the bound on memory and the abort are tested
 * without one.
 */
import { PassThrough, type Readable } from 'node:stream';

export interface PartTarget {
  /** The whole object, when it fits in one part. */
  putObject(body: Buffer): Promise<void>;
  /** Starts a multipart upload; returns its id. */
  start(): Promise<string>;
  /** Sends part `partNumber` (from 1); returns its ETag. */
  putPart(uploadId: string, partNumber: number, body: Buffer): Promise<string>;
  /**
   * Sends part `partNumber` of exactly `bytes` bytes from `body`, written while the part fills (no retry: a
   * failure, or `signal`, ends it; the part is then sent again whole with putPart). Without it, parts are buffered.
   */
  streamPart?(uploadId: string, partNumber: number, body: Readable, bytes: number, signal: AbortSignal): Promise<string>;
  complete(uploadId: string, parts: { partNumber: number; etag: string }[]): Promise<void>;
  abort(uploadId: string): Promise<void>;
}

export interface MultipartOptions {
  partBytes: number;
  /**
   * The size the object is expected to have (e.g. the last copy's): parts are then sized so the last one is small
   * (`partLayout`) and, where the target can, streamed while they fill, so that little is left to send at the end.
   */
  expectedBytes?: number;
  /** Parts held at once: the one filling plus those in flight (at least 2, so one is sent while the next fills). */
  queue: number;
  signal?: AbortSignal;
  /** Sees each chunk before it is stored, in order (e.g. to hash it); throwing fails the upload. */
  onChunk?: (chunk: Buffer) => void;
}

/** A streamed part is fed to its request in slices of this much. */
const STREAM_SLICE = 256 * 1024;

/** S3's smallest part (all but the last). */
export const MIN_PART_BYTES = 5 * 1024 * 1024;

/**
 * The part size for an object of about `expectedBytes`: whole parts of at least `minBytes` covering 95 % of it,
 * so that what is left for the end is small (about 5 % of a small object, at most a part of a large one), and
 * few enough that S3's 10,000 parts hold it with room to spare.
 */
export function partLayout(expectedBytes: number, minBytes = MIN_PART_BYTES): number {
  const covered = Math.floor(expectedBytes * 0.95);
  const parts = Math.max(1, Math.floor(covered / minBytes));
  return Math.max(minBytes, Math.floor(covered / parts), Math.ceil(expectedBytes / 9000));
}

/** Sends `data` to `target` in parts; resolves with the byte count once the object is complete. */
export async function multipartUpload(data: AsyncIterable<Buffer>, target: PartTarget, options: MultipartOptions): Promise<number> {
  if (options.queue < 2) throw new Error('multipartUpload needs a queue of at least 2 parts');
  const streaming = options.expectedBytes !== undefined && target.streamPart !== undefined;
  const o = streaming ? { ...options, partBytes: Math.max(options.partBytes, partLayout(options.expectedBytes!, options.partBytes)) } : options;
  let uploadId: Promise<string> | undefined;
  const sent: Promise<{ partNumber: number; etag: string }>[] = [];
  /** Parts in flight, to wait for one when the queue is full. */
  const inFlight = new Set<Promise<unknown>>();
  let failed: unknown;
  // The first part grows as bytes come (a small object never takes a whole part's memory); later ones are whole parts.
  let part: Buffer = Buffer.allocUnsafeSlow(streaming ? o.partBytes : Math.min(o.partBytes, 64 * 1024));
  let filled = 0;
  let bytes = 0;

  /** Whole-part buffers whose upload ended, filled again (memory touched once: fresh pages cost more than the copy). */
  const free: Buffer[] = [];
  /** The part filling, streamed as it fills (streaming mode): its request, its body, and how to stop it. */
  let live: { request: Promise<string>; body: PassThrough; stop: AbortController; fed: number } | null = null;
  const startLive = () => {
    const partNumber = sent.length + 1;
    uploadId ??= target.start();
    const body = new PassThrough({ highWaterMark: o.partBytes });
    const stop = new AbortController();
    const request = uploadId.then((id) => target.streamPart!(id, partNumber, body, o.partBytes, stop.signal));
    request.catch(() => undefined);
    live = { request, body, stop, fed: 0 };
  };
  const send = (body: Buffer) => {
    const partNumber = sent.length + 1;
    uploadId ??= target.start();
    const streamed = live;
    live = null;
    if (streamed) {
      // Whole: its stream ends and its request completes; cut short (the last part): its request is stopped.
      if (body.length === o.partBytes) streamed.body.end();
      else streamed.stop.abort();
    }
    // A part whose stream failed (or was cut short) is sent whole.
    const put = () => uploadId!.then((id) => target.putPart(id, partNumber, body));
    const etag = streamed && body.length === o.partBytes ? streamed.request.catch(put) : streamed ? streamed.request.then(put, put) : put();
    const p = etag.then((etag) => {
      if (body.length === o.partBytes) free.push(body);
      return { partNumber, etag };
    });
    // A failed part is seen at the next chunk (and at the end): reading stops there.
    const settled = p.then(() => undefined, (err) => { failed ??= err; });
    inFlight.add(settled);
    void settled.then(() => inFlight.delete(settled));
    sent.push(p);
  };

  try {
    for await (const c of data) {
      if (failed) throw failed;
      if (o.signal?.aborted) throw new Error('stopped');
      const chunk = c as Buffer;
      o.onChunk?.(chunk);
      bytes += chunk.length;
      let at = 0;
      while (at < chunk.length) {
        const n = Math.min(chunk.length - at, o.partBytes - filled);
        if (filled + n > part.length) {
          const grown = Buffer.allocUnsafeSlow(Math.min(o.partBytes, Math.max(part.length * 2, filled + n)));
          part.copy(grown, 0, 0, filled);
          part = grown;
        }
        chunk.copy(part, filled, at, at + n);
        filled += n;
        at += n;
        if (streaming) {
          if (!live) startLive();
          // Fed in slices of at least STREAM_SLICE (fewer, larger socket writes), and the part's end.
          if (filled - live!.fed >= STREAM_SLICE || filled === o.partBytes) {
            live!.body.write(part.subarray(live!.fed, filled));
            live!.fed = filled;
          }
        }
        if (filled === o.partBytes) {
          send(part);
          // The part filling next counts too: wait until fewer than `queue` are held.
          while (inFlight.size >= o.queue - 1) await Promise.race(inFlight);
          if (failed) throw failed;
          part = free.pop() ?? Buffer.allocUnsafeSlow(o.partBytes);
          filled = 0;
        }
      }
    }
    if (o.signal?.aborted) throw new Error('stopped');
    if (!uploadId && !live) {
      await target.putObject(part.subarray(0, filled));
      return bytes;
    }
    if (filled > 0) send(part.subarray(0, filled));
    const parts = await Promise.all(sent);
    if (o.signal?.aborted) throw new Error('stopped');
    await target.complete(await uploadId!, parts);
    return bytes;
  } catch (err) {
    (live as { stop: AbortController } | null)?.stop.abort();
    if (uploadId) {
      await Promise.allSettled(inFlight);
      // A start that failed left nothing to abort.
      const id = await uploadId.catch(() => null);
      if (id !== null) await target.abort(id).catch(() => undefined);
    }
    throw err;
  }
}
