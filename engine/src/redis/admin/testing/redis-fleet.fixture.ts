/**
 * Test fixture: real redis-server processes with configs from
 * renderRedisConfig, each in its own temp dir. Integration tests only.
 * A fleet started where an earlier one's test process died first ends that
 * one's leftovers on its addresses.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, readlink, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { Durability, EngineCredentials, EvictionPolicy } from '../../../domain';
import { renderRedisConfig } from '../../config.renderer';
import { connectAdmin } from '../admin-connection';

export interface FleetMember {
  host: string;
  port: number;
}

export interface RunningRedis extends FleetMember {
  dir: string;
  pid: number;
  process: ChildProcess;
}

export interface RedisFleet {
  root: string;
  servers: RunningRedis[];
  /** When the last process was spawned (Date.now()). */
  spawnedAt: number;
  stop(): Promise<void>;
}

export const TEST_CREDENTIALS: EngineCredentials = {
  customerUser: 'customer',
  customerPassword: 'c0ffee00c0ffee00c0ffee00',
  internalUser: 'strata-internal',
  internalPassword: 'deadbeef"with quote\\and backslash',
};

export interface FleetOptions {
  credentials?: EngineCredentials;
  memoryMb?: number;
  durability?: Durability;
  evictionPolicy?: EvictionPolicy;
  redisServer?: string;
}

/** A process's start time (clock ticks since boot, /proc/<pid>/stat field 22): with its PID, who it is. */
async function startTime(pid: number | string): Promise<string | null> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  return stat ? stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null : null;
}

/** Whether the test process that started a fleet (its `owner` file: PID and start time) still runs. */
async function ownerAlive(root: string): Promise<boolean> {
  const owner = await readFile(join(root, 'owner'), 'utf8').catch(() => '');
  const [pid, started] = owner.trim().split(' ');
  return !!pid && (await startTime(pid)) === started;
}

/**
 * Ends what an earlier fleet left on these members' addresses when its test process died without stopping it
 * (a crash, a kill): its servers (redis-server or valkey-server), known by their working directory (each runs in
 * its member's directory under a `strata-engine-` temp dir), and those temp dirs. A fleet whose test process
 * still runs (another run of the same test) is left alone.
 */
async function clearLeftovers(members: FleetMember[]): Promise<void> {
  const wanted = new Set(members.map((m) => `${m.host}-${m.port}`));
  for (const pid of (await readdir('/proc').catch(() => [] as string[])).filter((d) => /^\d+$/.test(d))) {
    if (!/^(redis|valkey)-server\b/.test(await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => ''))) continue;
    const cwd = await readlink(`/proc/${pid}/cwd`).catch(() => '');
    const root = dirname(cwd);
    if (dirname(root) !== tmpdir() || !basename(root).startsWith('strata-engine-') || !wanted.has(basename(cwd))) continue;
    if (await ownerAlive(root)) continue;
    try {
      process.kill(Number(pid), 'SIGKILL');
    } catch {
      // gone already
    }
    await rm(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
  }
}

/** Spawns one redis-server per member and waits until each answers PING as the internal user. */
export async function startRedisFleet(members: FleetMember[], opts: FleetOptions = {}): Promise<RedisFleet> {
  const credentials = opts.credentials ?? TEST_CREDENTIALS;
  await clearLeftovers(members);
  const root = await mkdtemp(join(tmpdir(), 'strata-engine-'));
  await writeFile(join(root, 'owner'), `${process.pid} ${await startTime(process.pid)}`);
  const servers: RunningRedis[] = [];
  const fleet: RedisFleet = {
    root,
    servers,
    spawnedAt: 0,
    stop: () => stopFleet(root, servers),
  };
  try {
    for (const m of members) {
      const dir = join(root, `${m.host}-${m.port}`);
      await mkdir(dir);
      const config = renderRedisConfig({
        address: m.host,
        port: m.port,
        dataDir: dir,
        memoryMb: opts.memoryMb ?? 64,
        durability: opts.durability ?? 'none',
        evictionPolicy: opts.evictionPolicy ?? 'noeviction',
        credentials,
      });
      await writeFile(join(dir, 'redis.conf'), config, { mode: 0o600 });
      const child = spawn(opts.redisServer ?? 'redis-server', [join(dir, 'redis.conf')], { stdio: 'ignore' });
      if (child.pid === undefined) throw new Error(`redis-server for ${m.host}:${m.port} did not start`);
      servers.push({ ...m, dir, pid: child.pid, process: child });
    }
    fleet.spawnedAt = Date.now();
    await Promise.all(servers.map((s) => waitForPing(s, credentials, 10_000)));
    return fleet;
  } catch (err) {
    await fleet.stop();
    throw err;
  }
}

async function waitForPing(server: RunningRedis, credentials: EngineCredentials, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (server.process.exitCode !== null) {
      throw new Error(`redis-server ${server.host}:${server.port} exited with ${server.process.exitCode}; see ${server.dir}/redis.log`);
    }
    try {
      const client = await connectAdmin({ host: server.host, port: server.port, username: credentials.internalUser, password: credentials.internalPassword }, 500);
      // The answer must come from this member's own server, not from a stranger already on the address (ours then
      // exits on its failed bind, which the loop above reports).
      const info = String(await client.call('INFO', 'server').finally(() => client.disconnect()));
      const pid = /process_id:(\d+)/.exec(info)?.[1];
      if (Number(pid) !== server.pid) throw new Error(`${server.host}:${server.port} is served by another process (pid ${pid})`);
      return;
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`redis-server ${server.host}:${server.port} did not answer PING: ${String(err)}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }
}

/** A process's children (a redis-server's save or AOF rewrite fork), by PID. */
async function childPids(pid: number): Promise<number[]> {
  const text = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '');
  return text.split(' ').filter(Boolean).map(Number);
}

/**
 * Kills every spawned process by PID (and its save or rewrite fork, which would otherwise go on writing into its
 * directory), waits for it to exit and removes the temp dirs.
 */
async function stopFleet(root: string, servers: RunningRedis[]): Promise<void> {
  await Promise.all(
    servers.map(
      async (s) => {
        if (s.process.exitCode !== null || s.process.signalCode !== null) return;
        const exited = new Promise<void>((resolve) => s.process.once('exit', () => resolve()));
        const forks = await childPids(s.pid);
        for (const pid of [...forks, s.pid]) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // already gone
          }
        }
        await exited;
      },
    ),
  );
  // A fork killed a moment ago may still be closing its files.
  await rm(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
}
