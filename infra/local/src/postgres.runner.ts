import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, openSync, closeSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import pg from 'pg';

/** Finds initdb/postgres: PATH first, then Debian's /usr/lib/postgresql/<v>/bin. */
export function findPostgresBin(): string | null {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (dir && existsSync(path.join(dir, 'initdb')) && existsSync(path.join(dir, 'postgres'))) return dir;
  }
  const base = '/usr/lib/postgresql';
  if (existsSync(base)) {
    for (const v of readdirSync(base).sort().reverse()) {
      const dir = path.join(base, v, 'bin');
      if (existsSync(path.join(dir, 'initdb'))) return dir;
    }
  }
  return null;
}

export async function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, host, () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    }).on('error', reject);
  });
}

const isRoot = () => process.getuid?.() === 0;

/** Runs a command as the `postgres` user when we are root (initdb refuses root). */
function asPostgres(bin: string, args: string[]): [string, string[]] {
  return isRoot() ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
}

/**
 * The postgres user's ids when we are root. The server runs as our direct
 * child under them, not through runuser: runuser answers a SIGTERM to the
 * process group by killing the server (SIGKILL) two seconds later.
 */
function postgresIds(): { uid: number; gid: number } | undefined {
  if (!isRoot()) return undefined;
  const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  const uid = id('-u');
  const gid = id('-g');
  if (!Number.isInteger(uid) || !Number.isInteger(gid) || uid <= 0) throw new Error('the postgres user does not exist (it comes with Debian\'s postgresql package)');
  return { uid, gid };
}

/** How long a stop waits at each step: fast shutdown (SIGINT), then immediate (SIGQUIT), then SIGKILL. */
const STOP_STEP_MS = { smart: 500, fast: 5000, immediate: 2000 };

export interface PostgresHandle {
  url: string;
  port: number;
  stop(): Promise<void>;
  /** Immediate shutdown (SIGQUIT) without waiting: a last resort. */
  kill(): void;
}

/**
 * An embedded PostgreSQL: a data directory of our own, system binaries,
 * loopback TCP and a Unix socket in its data directory, a database named `strata`. Reuses the directory on the next start.
 */
export async function startPostgres(opts: { dataDir: string; logFile: string; port?: number; fast?: boolean }): Promise<PostgresHandle> {
  const bin = findPostgresBin();
  if (!bin) {
    throw new Error('PostgreSQL server binaries (initdb, postgres) not found. Install Debian\'s postgresql-15 package (apt-get install postgresql-15) or set DATABASE_URL to an existing server.');
  }
  const dataDir = path.resolve(opts.dataDir);
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    if (opts.fast) copyTemplate(bin, dataDir);
    else initdb(bin, dataDir);
  } else if (isRoot()) {
    openParentsForPostgres(dataDir);
  }
  stopStale(bin, dataDir);

  const port = opts.port ?? (await freePort());
  // Local clients (the control plane, tests) talk over a Unix socket in the data directory where its path fits
  // (107 bytes): each query costs a fraction of what loopback TCP costs both sides in the kernel. TCP stays open.
  const socketDir = `${dataDir}/.s.PGSQL.${port}`.length <= 107 ? dataDir : null;
  const settings = ['-D', dataDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${socketDir ?? ''}`, '-c', 'max_connections=200'];
  if (opts.fast) settings.push('-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off');
  mkdirSync(path.dirname(opts.logFile), { recursive: true });
  const log = openSync(opts.logFile, 'a');
  const child: ChildProcess = spawn(path.join(bin, 'postgres'), settings, { stdio: ['ignore', log, log], detached: false, ...postgresIds() });
  closeSync(log);
  let exited = false;
  const gone = new Promise<void>((resolve) => child.once('exit', () => { exited = true; resolve(); }));

  const via = socketDir ? `?host=${encodeURIComponent(socketDir)}` : '';
  const url = `postgres://strata@127.0.0.1:${port}/strata${via}`;
  const admin = `postgres://strata@127.0.0.1:${port}/postgres${via}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      const has = await c.query(`SELECT 1 FROM pg_database WHERE datname = 'strata'`);
      if (!has.rowCount) await c.query('CREATE DATABASE strata');
      await c.end();
      break;
    } catch (err) {
      if (exited) throw new Error(`postgres exited during start; see ${opts.logFile}`);
      if (Date.now() > deadline) throw new Error(`postgres did not accept connections within 30 s: ${(err as Error).message}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  return {
    url,
    port,
    // Bounded: a smart shutdown for half a second, a fast one (clients disconnected, checkpoint), an immediate one (crash recovery at the next start) if that
    // takes too long, SIGKILL last.
    stop: async () => {
      // A smart shutdown first (SIGTERM): a pg.Pool's end() resolves before its
      // clients' sockets close, and a fast shutdown would answer those closing
      // clients with a FATAL error nobody listens for.
      for (const [signal, ms] of [['SIGTERM', STOP_STEP_MS.smart], ['SIGINT', STOP_STEP_MS.fast], ['SIGQUIT', STOP_STEP_MS.immediate], ['SIGKILL', 1000]] as const) {
        if (exited) return;
        try { child.kill(signal); } catch { /* gone */ }
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([gone, new Promise((r) => { timer = setTimeout(r, ms); })]);
        clearTimeout(timer);
      }
    },
    kill: () => { if (!exited) try { child.kill('SIGQUIT'); } catch { /* gone */ } },
  };
}

function initdb(bin: string, dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (isRoot()) {
    openParentsForPostgres(dataDir);
    spawnSync('chown', ['-R', 'postgres:postgres', dataDir]);
  }
  const [cmd, args] = asPostgres(path.join(bin, 'initdb'), ['-D', dataDir, '-U', 'strata', '--auth=trust', '-E', 'UTF8', '--no-instructions']);
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`initdb failed: ${r.stderr || r.stdout}`);
}

/**
 * Test stacks (`fast`) start from a copy of one initdb'd data directory per
 * PostgreSQL build and user, kept in the temp directory: copying it takes a
 * tenth of what initdb does, and every test file needs a fresh one.
 */
function copyTemplate(bin: string, dataDir: string): void {
  const version = spawnSync(path.join(bin, 'postgres'), ['--version'], { encoding: 'utf8' }).stdout.trim().replace(/[^\w.]+/g, '-');
  const template = path.join(os.tmpdir(), `strata-pg-template-${version}-${process.getuid?.() ?? 0}`);
  if (!existsSync(path.join(template, 'PG_VERSION'))) {
    const building = mkdtempSync(`${template}.building-`);
    initdb(bin, building);
    try {
      renameSync(building, template);
    } catch {
      rmSync(building, { recursive: true, force: true }); // another process made it first
    }
  }
  mkdirSync(path.dirname(dataDir), { recursive: true });
  if (isRoot()) openParentsForPostgres(dataDir);
  const r = spawnSync('cp', ['-a', template, dataDir], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`copying the PostgreSQL template ${template} failed: ${r.stderr}`);
}

function postmasterPid(dataDir: string): number | null {
  const f = path.join(dataDir, 'postmaster.pid');
  if (!existsSync(f)) return null;
  const pid = Number.parseInt(readFileSync(f, 'utf8').split('\n')[0] ?? '', 10);
  return Number.isFinite(pid) ? pid : null;
}

/** A postmaster left behind by a launcher that was killed: stop it before starting ours. */
function stopStale(bin: string, dataDir: string): void {
  const pid = postmasterPid(dataDir);
  if (!pid) return;
  try { process.kill(pid, 0); } catch { return; }
  const [cmd, args] = asPostgres(path.join(bin, 'pg_ctl'), ['-D', dataDir, 'stop', '-m', 'fast', '-w', '-t', '10']);
  spawnSync(cmd, args, { stdio: 'ignore' });
  // Still running after 10 s: killed (crash recovery runs when ours starts).
  try {
    if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres') process.kill(pid, 'SIGKILL');
  } catch { /* stopped */ }
}

/** The postgres user must be able to reach its data directory through our folders. */
function openParentsForPostgres(dataDir: string): void {
  let dir = path.dirname(dataDir);
  while (dir !== path.dirname(dir)) {
    try {
      const mode = Number.parseInt(spawnSync('stat', ['-c', '%a', dir], { encoding: 'utf8' }).stdout.trim(), 8);
      if ((mode & 0o001) === 0) chmodSync(dir, mode | 0o001);
    } catch { /* best effort */ }
    dir = path.dirname(dir);
  }
}
