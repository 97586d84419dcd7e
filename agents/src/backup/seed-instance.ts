/**
 * A restored primary's data: its shard's file, copied from the backup's
 * storage into the instance's directory as the RDB it loads at its first
 * start. The copy is checked against the manifest's SHA-256 on the way in;
 * a file that does not match is removed and the task fails.
 */
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Redis } from 'ioredis';
import type { InstanceSeed } from '@strata/api';
import { digestStream, openStorage } from '@strata/engine/backup';

export async function copySeed(seed: InstanceSeed, dir: string, dbfilename = 'dump.rdb'): Promise<{ bytes: number }> {
  const file = path.join(dir, dbfilename);
  const tmp = `${file}.restoring`;
  const d = digestStream();
  try {
    await pipeline(openStorage(seed.storage, seed.storageCredentials).get(seed.key), d, createWriteStream(tmp, { mode: 0o600 }));
  } catch (err) {
    await rm(tmp, { force: true });
    throw new Error(`could not copy ${seed.key} from the backup: ${(err as Error).message}`);
  }
  const got = d.result();
  if (got.sha256 !== seed.sha256) {
    await rm(tmp, { force: true });
    throw new Error(`${seed.key}: SHA-256 ${got.sha256} does not match the manifest's ${seed.sha256}`);
  }
  await rename(tmp, file);
  return { bytes: got.bytes };
}

const field = (info: string, name: string): string | undefined => new RegExp(`^${name}:(.*)$`, 'm').exec(info)?.[1]?.trim();

/**
 * Waits until the engine has loaded its file and checks what it loaded
 * against the manifest: every key, except keys whose TTL ran out since the
 * backup (a primary does not load those).
 */
export async function awaitSeedLoaded(client: Redis, seed: InstanceSeed, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const info = String(await client.call('INFO', 'persistence'));
    if (field(info, 'loading') === '0') {
      const loaded = Number(await client.call('DBSIZE'));
      const min = seed.keys - seed.keysWithExpiry;
      if (loaded < min || loaded > seed.keys) {
        throw new Error(`${seed.key}: loaded ${loaded} keys, the manifest says ${seed.keys} (${seed.keysWithExpiry} with a TTL)`);
      }
      return loaded;
    }
    if (Date.now() > deadline) throw new Error(`${seed.key}: still loading after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * With an append-only file switched on, waits until its first rewrite (the loaded data as the AOF's base) is on
 * disk: until then the backup file is the only copy on disk, and must stay.
 */
export async function awaitAofWritten(client: Redis, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const info = String(await client.call('INFO', 'persistence'));
    if (field(info, 'aof_enabled') !== '1') return;
    const busy = field(info, 'aof_rewrite_in_progress') === '1' || field(info, 'aof_rewrite_scheduled') === '1';
    if (!busy) {
      if (field(info, 'aof_last_bgrewrite_status') !== 'ok') throw new Error('the append-only file of the restored data could not be written');
      return;
    }
    if (Date.now() > deadline) throw new Error(`the append-only file of the restored data is still being written after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Connects to an engine that may still be loading its file (it answers LOADING until done). */
export async function connectWhileLoading(connect: () => Promise<Redis>, timeoutMs: number): Promise<Redis> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await connect();
    } catch (err) {
      if (!/LOADING/.test((err as Error).message) || Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
