/**
 * One shard's part of a backup, on the agent that runs the chosen instance
 * (an in-sync replica where the shard has one, so its primary never forks).
 * By default the instance forks and streams a fresh snapshot over the
 * replication protocol (as `redis-cli --rdb`: diskless, nothing written to
 * its disk) straight into the backup's storage, hashed on the way; a run
 * interrupted by the agent's death simply starts again. A consistent
 * backup's snapshot was started by BGSAVE during the write pause: the task
 * waits for that file, moves it to a name of its own (`backup-<id>.rdb`,
 * its time in `backup-<id>.json`) and streams it; a run after the agent died
 * mid-upload streams that file again. Files of other backups found there
 * are removed (one backup of a cluster runs at a time, so they belong to
 * backups that ended). The key counts come from the RDB's own header.
 */
import { createReadStream } from 'node:fs';
import { readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import type { Redis } from 'ioredis';
import type { BackupShardResult, BackupShardTaskSpec, StorageCredentials } from '@strata/api';
import { openStorage, RdbDatabaseScan, rdbDatabasesProblem, readRdbCounts, type RdbCounts, type RdbSync, type StoredObject } from '@strata/engine/backup';

/** How often a running snapshot is looked at (INFO persistence on the local instance: cheap). */
const POLL_MS = 10;

export interface BackupShardDeps {
  client: Redis;
  /** The instance's data directory (where its engine writes dump.rdb). */
  instanceDir: string;
  stop: AbortSignal;
  log: (msg: string) => void;
  /** Longest wait for the snapshot itself. */
  snapshotTimeoutMs?: number;
  /** Bytes stored so far, of the total when known (called at most every `progressEveryMs`, and once at the end). */
  progress?: (bytes: number, total: number | null) => void;
  /** A fresh snapshot of the instance, streamed over the replication protocol (openRdbSync). */
  openSync: () => Promise<RdbSync>;
  progressEveryMs?: number;
  /** Upload rate limit (bytes a second; 0 or absent: none). */
  maxBytesPerSec?: number;
  /** Refuse a file with keys outside database 0 (an import's source; a cluster's own instances have database 0 only). */
  checkDatabases?: boolean;
  /** Opens the backup's storage (e.g. a StorageCache's, reusing its clients); openStorage when absent. */
  openStorage?: typeof openStorage;
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

/**
 * Each shard's last snapshot size, in this agent process: the next snapshot of the shard is expected to be about
 * as large, which lets object storage take in most of it while it streams (PutOptions.expectedBytes).
 */
const lastBytes = new Map<string, number>();

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
  if (!p.awaitSave) throw new Error('no snapshot to wait for');
  await awaitSnapshot(d, p.awaitSave.savesBefore);
  const snapshotAt = new Date(p.awaitSave.snapshotAt);
  // A private name for this snapshot: a later save (a replica's full sync) may replace dump.rdb while it streams.
  // Moved, not copied: no RDB is left behind for a later restart to load (with durability none it would bring back this old data).
  await rename(path.join(d.instanceDir, dbfilename), mine);
  await writeFile(meta, JSON.stringify({ snapshotAt: snapshotAt.toISOString() }));
  return snapshotAt;
}

/** Where a shard's bytes come from: the instance streaming a fresh snapshot, or this backup's file on disk. */
async function openSource(p: BackupShardTaskSpec, d: BackupShardDeps, mine: string): Promise<{ stream: Readable; snapshotAt: Date; total: number | null; close: () => void }> {
  const kept = await stat(mine).catch(() => null);
  if (p.awaitSave || kept) {
    const snapshotAt = await ownSnapshot(p, d, mine);
    const stream = createReadStream(mine, { highWaterMark: 256 * 1024 });
    return { stream, snapshotAt, total: (await stat(mine)).size, close: () => stream.destroy() };
  }
  // Streamed as it is produced (diskless, over the replication protocol): nothing written to the instance's disk.
  const sync = await d.openSync();
  d.stop.addEventListener('abort', () => sync.close(), { once: true });
  return { stream: sync.rdb, snapshotAt: sync.startedAt, total: sync.length, close: () => sync.close() };
}

export async function backupShard(p: BackupShardTaskSpec & { storageCredentials?: StorageCredentials }, d: BackupShardDeps): Promise<BackupShardResult> {
  const startedAt = performance.now();
  const cpuBefore = process.cpuUsage();
  const [server, memory] = (await Promise.all([d.client.call('INFO', 'server'), d.client.call('INFO', 'memory'), removeOthers(d.instanceDir, p.backupId)])).map(String);
  const engineVersion = field(server!, 'redis_version') ?? 'unknown';
  const usedMemoryBytes = Number(field(memory!, 'used_memory') ?? 0);
  const mine = path.join(d.instanceDir, `backup-${p.backupId}.rdb`);
  let lastReport = 0;
  let total: number | null = null;
  const onProgress = (bytes: number) => {
    const now = Date.now();
    if (now - lastReport < (d.progressEveryMs ?? 1000)) return;
    lastReport = now;
    d.progress?.(bytes, total);
  };
  let src: Awaited<ReturnType<typeof openSource>> | undefined;
  try {
    src = await openSource(p, d, mine);
    const openedAt = performance.now();
    let lastByteAt = openedAt;
    total = src.total;
    let head = Buffer.alloc(0);
    let counts: RdbCounts | null = null;
    const scan = d.checkDatabases ? new RdbDatabaseScan() : null;
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
        if (scan) {
          try {
            scan.update(c);
          } catch (err) {
            cb(err as Error);
            return;
          }
          const others = rdbDatabasesProblem(scan.databases);
          if (others) {
            cb(new Error(others));
            return;
          }
        }
        cb(null, c);
      },
      flush(cb) {
        lastByteAt = performance.now();
        cb();
      },
    });
    // The storage's pipeline reports the tap's errors while it runs; before it started (or after it failed) they are ours already.
    tap.on('error', () => {});
    src.stream.on('error', (err) => tap.destroy(err));
    if (d.maxBytesPerSec) {
      const slow = throttle(d.maxBytesPerSec);
      slow.on('error', (err) => tap.destroy(err));
      src.stream.pipe(slow).pipe(tap);
    } else {
      src.stream.pipe(tap);
    }
    const sizeKey = `${p.clusterId}:${p.shard}`;
    const expectedBytes = total ?? lastBytes.get(sizeKey);
    const stored: StoredObject = await (d.openStorage ?? openStorage)(p.storage, p.storageCredentials).put(p.key, tap, { signal: d.stop, onProgress, ...(expectedBytes ? { expectedBytes } : {}) });
    lastBytes.set(sizeKey, stored.bytes);
    const c = counts as RdbCounts | null;
    if (!c) throw new Error(`could not read the key counts from the snapshot's header (${stored.bytes} bytes)`);
    const storedAt = performance.now();
    const cpu = process.cpuUsage(cpuBefore);
    d.progress?.(stored.bytes, stored.bytes);
    d.log(`shard ${p.shard}: ${stored.bytes} bytes, ${c.keys} keys stored as ${p.key}`);
    await removeSnapshot(mine);
    return {
      kind: 'backup-shard', bytes: stored.bytes, sha256: stored.sha256, keys: c.keys, keysWithExpiry: c.keysWithExpiry, usedMemoryBytes, engineVersion,
      snapshotAt: src.snapshotAt.toISOString(), finishedAt: new Date().toISOString(),
      phases: {
        openMs: Math.round(openedAt - startedAt), streamMs: Math.round(lastByteAt - openedAt), storeMs: Math.round(storedAt - lastByteAt),
        cpuMs: Math.round((cpu.user + cpu.system) / 1000),
      },
    };
  } catch (err) {
    // A failed run leaves nothing behind (only an agent killed mid-upload leaves a file, for the task's next run);
    // closing the transfer stops the instance's fork.
    src?.close();
    await removeSnapshot(mine);
    throw err;
  }
}

const removeSnapshot = async (mine: string) => {
  await rm(mine, { force: true });
  await rm(mine.replace(/\.rdb$/, '.json'), { force: true });
};
