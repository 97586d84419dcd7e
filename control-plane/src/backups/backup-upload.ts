/**
 * An uploaded RDB file becoming a backup (POST /v1/backups/upload). The
 * request body streams through one pass into the organization's storage,
 * never held whole in memory: on the way its size is held to the limit, its
 * header read (RDB version, key counts, the writer's memory), its databases
 * listed (keys outside database 0 are refused as soon as they show) and its
 * SHA-256 and CRC-64 computed. Once stored, a file that is not a whole RDB (truncated,
 * a flipped byte, not an RDB at all) is refused and removed; a whole one
 * gets its manifest and the backup is completed, restorable like an import.
 *
 * The backup row exists while the file streams (`running`, trigger
 * `upload`); this process touches it every few seconds, so a control plane
 * that dies mid-upload leaves a row the coordinator fails, removing its
 * objects.
 */
import { randomUUID } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import { isRdbVersionError, RdbDatabaseScan, rdbDatabasesProblem, RdbTrailerCheck, readRdbCounts, type RdbCounts } from '@strata/engine/backup';
import { AppError, unprocessable } from '../errors';
import { requestTimedOut } from '../http/request-deadline';
import type { BackupCoordinator } from './backup-coordinator';
import { shardKey } from './backup-coordinator';
import type { BackupRow, BackupStore } from './backup.store';
import type { BackupStorageStore } from './backup-storage.store';
import { rdbDatabasesUnsupported, rdbVersionUnsupported } from './backup.service';

export interface BackupUploadDeps {
  store: BackupStore;
  storage: BackupStorageStore;
  coordinator: BackupCoordinator;
  /** The largest file accepted (bytes). */
  maxBytes: number;
  /** How often a running upload's row is touched (its process is alive). */
  touchEveryMs?: number;
  /** An upload that sends no byte for this long (while it is read) is ended with 408; its total duration is not bounded. */
  idleTimeoutMs?: number;
}

/** The header must show the first database's key counts within this many bytes (aux fields come first; they are small). */
const HEADER_MAX = 1 << 20;
/** Field named by an upload's refusals. */
const FIELD = 'body';

export const uploadTooLarge = (maxBytes: number) =>
  new AppError(413, 'payload_too_large', 'File too large', `The file is larger than the upload limit of ${maxBytes} bytes; nothing was stored.`, [
    { field: FIELD, message: `larger than ${maxBytes} bytes` },
  ]);

/** `why`: what is wrong with the file, as a sentence about "it". */
const corrupted = (why: string) =>
  unprocessable('backup_corrupted', 'Not a whole RDB file', `The uploaded file was refused: ${why}; nothing was stored.`, [{ field: FIELD, message: why }]);

export class BackupUploads {
  constructor(private readonly d: BackupUploadDeps) {}

  /**
   * Streams `body` (`length`: its Content-Length when sent) into the storage as a backup named `name`.
   * Resolves with the completed backup; rejects with a problem (413, 422) after removing what was stored.
   */
  async receive(organizationId: string, input: { name?: string; body: Readable; length: number | null }): Promise<BackupRow> {
    const { maxBytes } = this.d;
    if (input.length !== null && input.length > maxBytes) throw uploadTooLarge(maxBytes);
    const id = randomUUID();
    const key = shardKey(id, 0);
    const ref = await this.d.storage.refFor(organizationId);
    await this.d.store.insertUpload({ id, organizationId, clusterName: input.name ?? 'uploaded RDB', storage: ref, shards: [{ shard: 0, key }] });
    const alive = setInterval(() => void this.d.store.touchUpload(id).catch(() => {}), this.d.touchEveryMs ?? 5000);
    alive.unref();

    const trailer = new RdbTrailerCheck();
    const scan = new RdbDatabaseScan();
    let head = Buffer.alloc(0);
    let counts: RdbCounts | null = null;
    let seen = 0;
    /** Why the file's keys could not be read, when they could not. */
    let unreadable: string | null = null;
    /** Why the stream was stopped on the way (the answer the user gets). */
    let refusal: AppError | null = null;
    // Idle: no byte for idleTimeoutMs while the body is read (not while the storage holds it back).
    const idleMs = this.d.idleTimeoutMs ?? 60_000;
    const idle = setTimeout(function check() {
      if (input.body.isPaused() || input.body.readableEnded) return void idle.refresh();
      refusal = requestTimedOut(idleMs, FIELD, `no byte of the file arrived for ${idleMs / 1000} s; nothing was stored`);
      input.body.unpipe(inspect);
      inspect.destroy(refusal);
    }, idleMs);
    idle.unref();
    const inspect = new Transform({
      transform(c: Buffer, _enc, cb) {
        idle.refresh();
        seen += c.length;
        if (seen > maxBytes) return cb(refusal = uploadTooLarge(maxBytes));
        if (!counts) {
          head = Buffer.concat([head, c.subarray(0, HEADER_MAX + 1 - head.length)]);
          try {
            counts = readRdbCounts(head);
          } catch (err) {
            const msg = (err as Error).message;
            return cb(refusal = isRdbVersionError(msg) ? rdbVersionUnsupported(msg, FIELD, 'the uploaded file') : corrupted(`it cannot be read as an RDB file (${msg})`));
          }
          if (!counts && head.length > HEADER_MAX) return cb(refusal = corrupted(`it has no database header in its first ${HEADER_MAX} bytes`));
        }
        trailer.update(c);
        // A file that stops parsing is read to its end all the same: a damaged byte is named by the CRC-64 check
        // there, which is the more exact verdict (a flipped bit often makes a length unreadable first).
        if (unreadable === null) {
          try {
            scan.update(c);
          } catch (err) {
            unreadable = `it cannot be read as an RDB file (${(err as Error).message})`;
          }
        }
        // Refused at the first database other than 0 (its header comes before its keys).
        const others = rdbDatabasesProblem(scan.databases);
        if (others) return cb(refusal = rdbDatabasesUnsupported(others, FIELD, 'the uploaded file'));
        cb(null, c);
      },
    });
    // The storage's pipeline reports the check's refusals while it runs; one before it started is in `refusal` already.
    inspect.on('error', () => {});
    input.body.on('error', (err) => inspect.destroy(err));
    input.body.pipe(inspect);

    try {
      const storage = await this.d.storage.open(ref);
      const stored = await storage.put(key, inspect);
      const c = counts as RdbCounts | null;
      const problem = trailer.problem() ?? unreadable ?? (c ? null : 'it ends before its first database header');
      if (problem) throw refusal = corrupted(problem);
      const row = await this.d.store.get(id);
      const done = row && await this.d.coordinator.completeUpload(row, {
        bytes: stored.bytes, sha256: stored.sha256, keys: c!.keys, keysWithExpiry: c!.keysWithExpiry,
        // The writer's memory when it saved; without it, a guess from the file's size (compressed values may need more).
        usedMemoryBytes: c!.usedMemoryBytes ?? stored.bytes * 2, engineVersion: c!.redisVersion ?? 'unknown',
      });
      if (!done) throw new AppError(409, 'invalid_state', 'Upload ended', `Backup ${id} was cancelled or failed while its file was stored.`);
      return (await this.d.store.get(id))!;
    } catch (err) {
      clearInterval(alive);
      // Failed, its objects removed (the coordinator's sweep), then its record: a refused upload leaves nothing.
      // Should the storage not answer, the failed backup stays listed until its objects could be removed.
      const b = await this.d.store.get(id);
      if (b?.status === 'running') await this.d.coordinator.fail(b, refusal?.code ?? 'upload_failed', refusal?.detail ?? (err as Error).message);
      // Removed again here: the storage may have finished writing after a sweep (an upload judged stale while it streamed).
      const removed = await (await this.d.storage.open(ref)).deletePrefix(id).then(() => true, () => false);
      if (removed || (await this.d.store.get(id))?.filesRemoved) await this.d.store.delete(id);
      throw refusal ?? err;
    } finally {
      clearInterval(alive);
      clearTimeout(idle);
    }
  }
}
