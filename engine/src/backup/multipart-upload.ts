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
 * The object store is behind `PartTarget` (S3Storage gives the AWS SDK's
 * calls), so the cutting, the bound on memory and the abort are tested
 * without one.
 */

export interface PartTarget {
  /** The whole object, when it fits in one part. */
  putObject(body: Buffer): Promise<void>;
  /** Starts a multipart upload; returns its id. */
  start(): Promise<string>;
  /** Sends part `partNumber` (from 1); returns its ETag. */
  putPart(uploadId: string, partNumber: number, body: Buffer): Promise<string>;
  complete(uploadId: string, parts: { partNumber: number; etag: string }[]): Promise<void>;
  abort(uploadId: string): Promise<void>;
}

export interface MultipartOptions {
  partBytes: number;
  /** Parts held at once: the one filling plus those in flight (at least 2, so one is sent while the next fills). */
  queue: number;
  signal?: AbortSignal;
  /** Sees each chunk before it is stored, in order (e.g. to hash it); throwing fails the upload. */
  onChunk?: (chunk: Buffer) => void;
}

/** Sends `data` to `target` in parts; resolves with the byte count once the object is complete. */
export async function multipartUpload(data: AsyncIterable<Buffer>, target: PartTarget, o: MultipartOptions): Promise<number> {
  if (o.queue < 2) throw new Error('multipartUpload needs a queue of at least 2 parts');
  let uploadId: Promise<string> | undefined;
  const sent: Promise<{ partNumber: number; etag: string }>[] = [];
  /** Parts in flight, to wait for one when the queue is full. */
  const inFlight = new Set<Promise<unknown>>();
  let failed: unknown;
  // The first part grows as bytes come (a small object never takes a whole part's memory); later ones are whole parts.
  let part: Buffer = Buffer.allocUnsafeSlow(Math.min(o.partBytes, 64 * 1024));
  let filled = 0;
  let bytes = 0;

  /** Whole-part buffers whose upload ended, filled again (memory touched once: fresh pages cost more than the copy). */
  const free: Buffer[] = [];
  const send = (body: Buffer) => {
    const partNumber = sent.length + 1;
    uploadId ??= target.start();
    const p = uploadId.then((id) => target.putPart(id, partNumber, body)).then((etag) => {
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
    if (!uploadId) {
      await target.putObject(part.subarray(0, filled));
      return bytes;
    }
    if (filled > 0) send(part.subarray(0, filled));
    const parts = await Promise.all(sent);
    if (o.signal?.aborted) throw new Error('stopped');
    await target.complete(await uploadId, parts);
    return bytes;
  } catch (err) {
    if (uploadId) {
      await Promise.allSettled(inFlight);
      // A start that failed left nothing to abort.
      const id = await uploadId.catch(() => null);
      if (id !== null) await target.abort(id).catch(() => undefined);
    }
    throw err;
  }
}
