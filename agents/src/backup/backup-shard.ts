/**
 * One shard's part of a backup, on the agent that runs the chosen instance
 * (an in-sync replica where the shard has one, so its primary never forks):
 * BGSAVE there (or, for a consistent backup, wait for the snapshot started
 * during the write pause), then stream the file to the backup's storage,
 * hashing it on the way. The key counts come from the RDB's own header (the
 * database size when the snapshot was taken).
 *
 * The snapshot is moved to a name of its own (`backup-<id>.rdb`, with its
 * time in `backup-<id>.json`) before it streams: a task run again after the
 * agent died mid-upload streams that file again instead of taking another
 * snapshot. Files of other backups found there are removed (one backup of a
 * cluster runs at a time, so they belong to backups that ended).
 */
import { createReadStream } from 'node:fs';
import { readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import type { Redis } from 'ioredis';
import type { BackupShardResult, BackupShardTaskSpec, StorageCredentials } from '@strata/api';
import { openStorage, readRdbCounts, type RdbCounts, type StoredObject } from '@strata/engine/backup';

const POLL_MS = 50;

export interface BackupShardDeps {
  client: Redis;
  /** The instance's data directory (where its engine writes dump.rdb). */
  instanceDir: string;
  stop: AbortSignal;
  log: (msg: string) => void;
  /** Longest wait for the snapshot itself. */
  snapshotTimeoutMs?: number;
  /** Bytes stored so far of the file's total (called at most every `progressEveryMs`). */
  progress?: (bytes: number, total: number) => void;
  progressEveryMs?: number;
  /** Upload rate limit (bytes a second; 0 or absent: none). */
  maxBytesPerSec?: number;
}

/** Holds chunks back so that no more than `rate` bytes a second pass. */
function throttle(rate: number): Transform {
  const started = Date.now();
  let passed = 0;
  return new Transform({
    transform(c: Buffer, _enc, cb) {
      passed += c.length;
      const due = started + (passed / rate) * 1000 - Date.now();
      if (due > 0) setTimeout(() => cb(null, c), due);
      else cb(null, c);
    },
  });
}

const field = (info: string, name: string): string | undefined => new RegExp(`^${name}:(.*)$`, 'm').exec(info)?.[1]?.trim();

async function persistence(client: Redis): Promise<{ inProgress: boolean; saves: number; status: string }> {
  const info = String(await client.call('INFO', 'persistence'));
  return { inProgress: field(info, 'rdb_bgsave_in_progress') === '1', saves: Number(field(info, 'rdb_saves') ?? 0), status: field(info, 'rdb_last_bgsave_status') ?? 'unknown' };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts a snapshot of our own and waits until it is on disk. Returns when it started. */
async function snapshot(d: BackupShardDeps): Promise<Date> {
  const deadline = Date.now() + (d.snapshotTimeoutMs ?? 30 * 60_000);
  for (;;) {
    if (d.stop.aborted) throw new Error('stopped');
    if (Date.now() > deadline) throw new Error('the snapshot did not finish in time');
    const before = await persistence(d.client);
    if (before.inProgress) { await sleep(POLL_MS); continue; }
    const startedAt = new Date();
    try {
      // SCHEDULE: during an AOF rewrite the save runs right after it instead of failing.
      await d.client.call('BGSAVE', 'SCHEDULE');
    } catch (err) {
      // Another save (e.g. for a replica's full sync) started in between: wait for it, then ours.
      if (/in progress/i.test((err as Error).message)) { await sleep(POLL_MS); continue; }
      throw err;
    }
    for (;;) {
      if (Date.now() > deadline) throw new Error('the snapshot did not finish in time');
      const p = await persistence(d.client);
      if (!p.inProgress && p.saves > before.saves) {
        if (p.status !== 'ok') throw new Error(`BGSAVE failed on the instance (rdb_last_bgsave_status:${p.status}); see its redis.log`);
        return startedAt;
      }
      await sleep(POLL_MS);
    }
  }
}

/** Waits for the snapshot a consistent backup started during its write pause; it must be the only save since. */
async function awaitSnapshot(d: BackupShardDeps, savesBefore: number): Promise<void> {
  const deadline = Date.now() + (d.snapshotTimeoutMs ?? 30 * 60_000);
  for (;;) {
    if (d.stop.aborted) throw new Error('stopped');
    if (Date.now() > deadline) throw new Error('the snapshot did not finish in time');
    const p = await persistence(d.client);
    if (!p.inProgress && p.saves > savesBefore) {
      if (p.saves > savesBefore + 1) throw new Error('another snapshot replaced the one taken during the write pause; the consistent backup must start again');
      if (p.status !== 'ok') throw new Error(`BGSAVE failed on the instance (rdb_last_bgsave_status:${p.status}); see its redis.log`);
      return;
    }
    if (!p.inProgress && p.saves === savesBefore) throw new Error('the snapshot started during the write pause is not running on this instance');
    await sleep(POLL_MS);
  }
}

/** Removes what earlier backups left in the instance's directory (they ended: one backup of a cluster runs at a time). */
async function removeOthers(dir: string, backupId: string): Promise<void> {
  for (const f of await readdir(dir).catch(() => [] as string[])) {
    if (/^backup-[0-9a-f-]{36}\.(rdb|json)$/.test(f) && !f.startsWith(`backup-${backupId}.`)) await rm(path.join(dir, f), { force: true });
  }
}

/** This backup's snapshot in the instance's directory: taken now, or left by an earlier run of this task. */
async function ownSnapshot(p: BackupShardTaskSpec, d: BackupShardDeps, mine: string): Promise<Date> {
  const meta = mine.replace(/\.rdb$/, '.json');
  const kept = await stat(mine).catch(() => null);
  if (kept) {
    const at = await readFile(meta, 'utf8').then((t) => new Date(JSON.parse(t).snapshotAt as string), () => kept.mtime);
    d.log(`shard ${p.shard}: resuming with the snapshot taken at ${at.toISOString()}`);
    return at;
  }
  const dbfilename = String(((await d.client.call('CONFIG', 'GET', 'dbfilename')) as string[])[1] ?? 'dump.rdb');
  let snapshotAt: Date;
  if (p.awaitSave) {
    await awaitSnapshot(d, p.awaitSave.savesBefore);
    snapshotAt = new Date(p.awaitSave.snapshotAt);
  } else {
    snapshotAt = await snapshot(d);
  }
  // A private name for this snapshot: a later save (a replica's full sync) may replace dump.rdb while it streams.
  // Moved, not copied: no RDB is left behind for a later restart to load (with durability none it would bring back this old data).
  await rename(path.join(d.instanceDir, dbfilename), mine);
  await writeFile(meta, JSON.stringify({ snapshotAt: snapshotAt.toISOString() }));
  return snapshotAt;
}

export async function backupShard(p: BackupShardTaskSpec & { storageCredentials?: StorageCredentials }, d: BackupShardDeps): Promise<BackupShardResult> {
  const server = String(await d.client.call('INFO', 'server'));
  const memory = String(await d.client.call('INFO', 'memory'));
  const engineVersion = field(server, 'redis_version') ?? 'unknown';
  const usedMemoryBytes = Number(field(memory, 'used_memory') ?? 0);
  await removeOthers(d.instanceDir, p.backupId);
  const mine = path.join(d.instanceDir, `backup-${p.backupId}.rdb`);
  const snapshotAt = await ownSnapshot(p, d, mine);
  const total = (await stat(mine)).size;
  let lastReport = 0;
  const onProgress = (bytes: number) => {
    const now = Date.now();
    if (now - lastReport < (d.progressEveryMs ?? 1000) && bytes < total) return;
    lastReport = now;
    d.progress?.(bytes, total);
  };
  try {
    let head = Buffer.alloc(0);
    let counts: RdbCounts | null = null;
    // Reads the header on the way through; no listener of its own, so nothing flows before the storage reads it.
    const tap = new Transform({
      transform(c: Buffer, _enc, cb) {
        if (!counts && head.length <= 1 << 20) {
          head = Buffer.concat([head, c]);
          try {
            counts = readRdbCounts(head);
          } catch (err) {
            cb(err as Error);
            return;
          }
        }
        cb(null, c);
      },
    });
    const src = createReadStream(mine, { highWaterMark: 256 * 1024 });
    src.on('error', (err) => tap.destroy(err));
    if (d.maxBytesPerSec) {
      const slow = throttle(d.maxBytesPerSec);
      slow.on('error', (err) => tap.destroy(err));
      src.pipe(slow).pipe(tap);
    } else {
      src.pipe(tap);
    }
    const stored: StoredObject = await openStorage(p.storage, p.storageCredentials).put(p.key, tap, { signal: d.stop, onProgress });
    const c = counts as RdbCounts | null;
    if (!c) throw new Error(`could not read the key counts from the snapshot's header (${stored.bytes} bytes)`);
    d.log(`shard ${p.shard}: ${stored.bytes} bytes, ${c.keys} keys stored as ${p.key}`);
    await removeSnapshot(mine);
    return {
      kind: 'backup-shard', bytes: stored.bytes, sha256: stored.sha256, keys: c.keys, keysWithExpiry: c.keysWithExpiry, usedMemoryBytes, engineVersion,
      snapshotAt: snapshotAt.toISOString(), finishedAt: new Date().toISOString(),
    };
  } catch (err) {
    // A failed run leaves nothing behind (only an agent killed mid-upload leaves the file, for the task's next run).
    await removeSnapshot(mine);
    throw err;
  }
}

const removeSnapshot = async (mine: string) => {
  await rm(mine, { force: true });
  await rm(mine.replace(/\.rdb$/, '.json'), { force: true });
};
