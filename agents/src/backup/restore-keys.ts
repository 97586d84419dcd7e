/**
 * A restore into another layout, one backup file on this agent: the file is
 * copied from the backup's storage (checked against its SHA-256) into a
 * scratch directory, a TEMPORARY engine is started on it (standalone,
 * `cluster-enabled no`, on this node's address with a free port and a
 * password of its own, no persistence), and its keys are moved by slot into
 * the new cluster (moveKeys). The engine is stopped and the directory
 * removed at the end, whatever happened; an agent killed meanwhile removes
 * them when it starts again (sweepRestoreScratch), and the task, handed out
 * again, starts over (RESTORE ... REPLACE makes that harmless).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Logger } from 'pino';
import type { EngineCredentials, RestoreKeysResult, RestoreKeysTaskSpec, StorageCredentials } from '@strata/api';
import { connectAdmin, internalLogin, moveKeys } from '@strata/engine/redis-admin';
import { copySeed, connectWhileLoading, awaitSeedLoaded } from './seed-instance';
import { isAlive, redisProcessesUnder, stopProcesses, waitForRedis } from '../process-utils';

export interface RestoreKeysDeps {
  dataDir: string;
  /** This node's address: the temporary engine listens there only. */
  address: string;
  redisServer: string;
  stop: AbortSignal;
  log: Logger;
  maxKeysPerSec?: number;
  /** Keys moved so far, of the file's total. */
  progress?: (done: number, total: number) => void;
}

/** Where temporary engines live (one directory each). */
export const restoreScratchRoot = (dataDir: string) => path.join(dataDir, 'restore-scratch');

/** A free TCP port on `host` (the kernel's choice). */
function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, host, () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export async function restoreKeys(p: RestoreKeysTaskSpec & { credentials: EngineCredentials; file: { storageCredentials?: StorageCredentials } }, d: RestoreKeysDeps): Promise<RestoreKeysResult> {
  const dir = path.join(restoreScratchRoot(d.dataDir), `${p.clusterId}-${p.backupShard}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  let pid: number | undefined;
  try {
    const { bytes } = await copySeed(p.file, dir);
    d.log.info({ file: p.file.key, bytes }, 'restore: backup file copied; starting a temporary engine on it');
    const port = await freePort(d.address);
    const password = randomBytes(16).toString('hex');
    const out = openSync(path.join(dir, 'engine.log'), 'a');
    let exited = false;
    try {
      const child = spawn(d.redisServer, [
        '--bind', d.address, '--port', String(port), '--protected-mode', 'yes', '--requirepass', password,
        '--dir', '.', '--dbfilename', 'dump.rdb', '--cluster-enabled', 'no', '--appendonly', 'no', '--save', '',
        '--maxmemory', '0', '--daemonize', 'no',
      ], { cwd: dir, detached: true, stdio: ['ignore', out, out] });
      pid = child.pid;
      child.once('exit', () => { exited = true; });
      child.once('error', () => { exited = true; });
      child.unref();
    } finally {
      closeSync(out);
    }
    await waitForRedis(d.address, port, 10_000, () => exited);
    const source = await connectWhileLoading(() => connectAdmin({ host: d.address, port, username: 'default', password }, 5 * 60_000), 30 * 60_000);
    try {
      const loaded = await awaitSeedLoaded(source, p.file, 30 * 60_000);
      d.log.info({ loaded, port }, 'restore: temporary engine loaded; moving keys');
      const r = await moveKeys({
        source, targets: p.targets, login: internalLogin(p.credentials),
        maxKeysPerSec: d.maxKeysPerSec, stop: d.stop, onProgress: d.progress,
      });
      d.log.info(r, 'restore: keys moved');
      return { kind: 'restore-keys', ...r };
    } finally {
      source.disconnect();
    }
  } finally {
    if (pid && isAlive(pid)) await stopProcesses([pid], 2000);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** At an agent's start: temporary engines a killed agent left (stopped) and their directories (removed). */
export async function sweepRestoreScratch(dataDir: string, log: Logger): Promise<void> {
  const root = restoreScratchRoot(dataDir);
  if (!existsSync(root)) return;
  const engines = redisProcessesUnder(root).map((p) => p.pid);
  if (engines.length) await stopProcesses(engines, 2000);
  rmSync(root, { recursive: true, force: true });
  log.warn({ killed: engines }, 'removed temporary restore engines left by an earlier agent');
}
