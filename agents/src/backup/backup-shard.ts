/**
 * One shard's part of a backup, on the agent that runs the chosen instance
 * (an in-sync replica where the shard has one, so its primary never forks):
 * BGSAVE there, wait for that very snapshot to finish, then stream the file
 * to the backup's storage, hashing it on the way. The key counts come from
 * the RDB's own header (the database size when the snapshot was taken).
 */
import { createReadStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import type { Redis } from 'ioredis';
import type { BackupShardResult, BackupShardTaskSpec } from '@strata/api';
import { openStorage, readRdbCounts, type RdbCounts } from '@strata/engine/backup';

const POLL_MS = 50;

export interface BackupShardDeps {
  client: Redis;
  /** The instance's data directory (where its engine writes dump.rdb). */
  instanceDir: string;
  stop: AbortSignal;
  log: (msg: string) => void;
  /** Longest wait for the snapshot itself. */
  snapshotTimeoutMs?: number;
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

export async function backupShard(p: BackupShardTaskSpec, d: BackupShardDeps): Promise<BackupShardResult> {
  const server = String(await d.client.call('INFO', 'server'));
  const memory = String(await d.client.call('INFO', 'memory'));
  const engineVersion = field(server, 'redis_version') ?? 'unknown';
  const usedMemoryBytes = Number(field(memory, 'used_memory') ?? 0);
  const dbfilename = String(((await d.client.call('CONFIG', 'GET', 'dbfilename')) as string[])[1] ?? 'dump.rdb');
  const snapshotAt = await snapshot(d);
  // A private name for this snapshot: a later save (a replica's full sync) may replace dump.rdb while it streams.
  const mine = path.join(d.instanceDir, `backup-${p.backupId}.rdb`);
  // Moved, not copied: no RDB is left behind for a later restart to load (with durability none it would bring back this old data).
  await rm(mine, { force: true });
  await rename(path.join(d.instanceDir, dbfilename), mine);
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
    const src = createReadStream(mine);
    src.on('error', (err) => tap.destroy(err));
    src.pipe(tap);
    const stored = await openStorage(p.storage).put(p.key, tap);
    const c = counts as RdbCounts | null;
    if (!c) throw new Error(`could not read the key counts from the snapshot's header (${stored.bytes} bytes)`);
    d.log(`shard ${p.shard}: ${stored.bytes} bytes, ${c.keys} keys stored as ${p.key}`);
    return {
      kind: 'backup-shard', bytes: stored.bytes, sha256: stored.sha256, keys: c.keys, keysWithExpiry: c.keysWithExpiry, usedMemoryBytes, engineVersion,
      snapshotAt: snapshotAt.toISOString(), finishedAt: new Date().toISOString(),
    };
  } finally {
    await rm(mine, { force: true });
  }
}
