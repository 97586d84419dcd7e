import { existsSync, readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { openInstanceSocket, type TlsLogin } from '@strata/engine/redis-admin';
import path from 'node:path';
import net from 'node:net';

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A zombie or a recycled pid is not our engine.
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/\) Z /.test(stat);
  } catch {
    return true;
  }
}

/** The engines' process names: Redis 7.0's and Valkey 8's (the valkey-8 engine). */
export const ENGINE_PROGRAMS = ['redis-server', 'valkey-server'] as const;

/**
 * Is `pid` an engine (redis-server or valkey-server) serving this port? (Each sets its title to "<program> host:port
 * [cluster]"; a TLS instance's title names its TLS port.)
 */
export function isRedisOnPort(pid: number, port: number): boolean {
  if (!isAlive(pid)) return false;
  try {
    const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return ENGINE_PROGRAMS.some((p) => cmd.includes(p)) && cmd.includes(`:${port}`);
  } catch {
    return false;
  }
}

export function readPid(file: string): number | null {
  if (!existsSync(file)) return null;
  const n = Number.parseInt(readFileSync(file, 'utf8').trim(), 10);
  return Number.isFinite(n) && n > 0 ? n : null;
}

/**
 * Resolves when a Redis server answers on host:port (any RESP reply to PING,
 * e.g. -NOAUTH, counts), or rejects at the deadline or when our process died.
 * A plain TCP connect is not enough: another program may hold the port.
 */
export async function waitForRedis(host: string, port: number, timeoutMs: number, isDead: () => boolean, tlsLogin?: TlsLogin): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      // A TLS instance: the handshake verifies its certificate against the cluster's CA.
      const { socket: s, readyEvent } = openInstanceSocket(host, port, tlsLogin);
      const done = (v: boolean) => { clearTimeout(t); s.destroy(); resolve(v); };
      const t = setTimeout(() => done(false), tlsLogin ? 1000 : 200);
      s.once(readyEvent, () => s.write('PING\r\n'));
      s.once('data', (d) => done(d[0] === 0x2b /* + */ || d[0] === 0x2d /* - */));
      s.once('error', () => done(false));
    });
    if (isDead()) throw new Error('redis-server exited during start');
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`redis-server did not answer on ${host}:${port} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return !isAlive(pid);
}

/**
 * Ends processes within a bound: SIGTERM to all at once (redis-server then
 * writes its AOF buffer, fsyncs and exits), SIGKILL to those still running
 * after `graceMs`. Returns the pids that needed SIGKILL.
 *
 * SIGTERM is sent again every second: redis-server 7.0 ignores one that
 * arrives while it writes its first AOF ("Writing initial AOF, can't exit",
 * after CONFIG SET appendonly yes or a replica's full sync) and keeps
 * running; the next one, once that rewrite is done, stops it cleanly.
 */
export async function stopProcesses(pids: Iterable<number>, graceMs: number): Promise<number[]> {
  const live = [...new Set(pids)].filter(isAlive);
  const term = () => { for (const pid of live.filter(isAlive)) try { process.kill(pid, 'SIGTERM'); } catch { /* gone */ } };
  term();
  const deadline = Date.now() + graceMs;
  let again = Date.now() + 1000;
  while (Date.now() < deadline && live.some(isAlive)) {
    await new Promise((r) => setTimeout(r, 20));
    if (Date.now() >= again) {
      term();
      again += 1000;
    }
  }
  const killed = live.filter(isAlive);
  for (const pid of killed) try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
  const end = Date.now() + 1000;
  while (Date.now() < end && killed.some(isAlive)) await new Promise((r) => setTimeout(r, 20));
  return killed;
}

/** A process as /proc shows it: its command line and working directory (null when unreadable). */
export interface ProcessInfo {
  pid: number;
  command: string;
  cwd: string | null;
}

export function processInfo(pid: number): ProcessInfo | null {
  try {
    const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0+$/, '').replace(/\0/g, ' ');
    let cwd: string | null = null;
    try { cwd = readlinkSync(`/proc/${pid}/cwd`); } catch { /* another user's */ }
    return { pid, command, cwd };
  } catch {
    return null;
  }
}

export const describeProcess = (p: ProcessInfo): string => `pid ${p.pid} (${p.command}${p.cwd ? `, working directory ${p.cwd}` : ''})`;

/** `dir` with symlinks resolved, as /proc/<pid>/cwd shows it. */
const real = (dir: string): string => {
  try { return realpathSync(dir); } catch { return path.resolve(dir); }
};

/** Does this process work in `dir` or under it? (A directory removed since is still matched by its old path.) */
export function worksUnder(p: ProcessInfo, dir: string): boolean {
  const cwd = p.cwd?.replace(/ \(deleted\)$/, '');
  const root = real(dir);
  return !!cwd && (cwd === root || cwd.startsWith(root + '/'));
}

/** Engine processes (redis-server, valkey-server) whose working directory is `dir` or lies under it (engines and spares of one node). */
export const redisProcessesUnder = (dir: string): ProcessInfo[] => programProcessesUnder(ENGINE_PROGRAMS, dir);

/** keepalived processes (parent and VRRP child) whose working directory is `dir` or lies under it (floating-address.ts). */
export const keepalivedProcessesUnder = (dir: string): ProcessInfo[] => programProcessesUnder(['keepalived'], dir);

/** Live processes of these programs (by process name) whose working directory is `dir` or lies under it. */
function programProcessesUnder(programs: readonly string[], dir: string): ProcessInfo[] {
  const root = real(dir);
  const out: ProcessInfo[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let comm = '';
    try { comm = readFileSync(`/proc/${name}/comm`, 'utf8').trim(); } catch { continue; }
    if (!programs.includes(comm)) continue;
    const p = processInfo(Number(name));
    if (p && worksUnder(p, root) && isAlive(p.pid)) out.push(p);
  }
  return out;
}

/** IPv4 "0100007F" (as /proc/net/tcp prints it, little-endian words) to "127.0.0.1"; IPv6 to its eight groups, or to the IPv4 address it maps. */
function procAddress(hex: string): string {
  const words = hex.match(/.{8}/g)!.map((w) => w.match(/../g)!.reverse().map((b) => Number.parseInt(b, 16)));
  if (words.length === 1) return words[0]!.join('.');
  const bytes = words.flat();
  if (bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff) return bytes.slice(12).join('.');
  if (bytes.every((b) => b === 0)) return '::';
  return Array.from({ length: 8 }, (_, i) => ((bytes[2 * i]! << 8) | bytes[2 * i + 1]!).toString(16)).join(':');
}

/** Listening TCP sockets on this host (from /proc/net/tcp and tcp6), with the socket inode. */
export function listeningSockets(): { address: string; port: number; inode: string }[] {
  const out: { address: string; port: number; inode: string }[] = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try { text = readFileSync(file, 'utf8'); } catch { continue; }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length < 10 || f[3] !== '0A') continue;
      const [addr, port] = f[1]!.split(':');
      out.push({ address: procAddress(addr!), port: Number.parseInt(port!, 16), inode: f[9]! });
    }
  }
  return out;
}

/** The processes that hold these socket inodes open (those this user may inspect). */
export function socketOwners(inodes: Set<string>): Map<string, number> {
  const owners = new Map<string, number>();
  if (!inodes.size) return owners;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let fds: string[];
    try { fds = readdirSync(`/proc/${name}/fd`); } catch { continue; }
    for (const fd of fds) {
      let link: string;
      try { link = readlinkSync(`/proc/${name}/fd/${fd}`); } catch { continue; }
      const m = /^socket:\[(\d+)\]$/.exec(link);
      if (m && inodes.has(m[1]!) && !owners.has(m[1]!)) owners.set(m[1]!, Number(name));
    }
  }
  return owners;
}

const WILDCARD = new Set(['0.0.0.0', '::']);

/**
 * Whether a TCP connection to host:port is accepted: a listener on that address or on a wildcard
 * address (where a server on host:port could not bind). Refused: false; accepted or no answer
 * within `timeoutMs`: true. About 0.1 ms on this host, where reading /proc/net/tcp costs
 * milliseconds of CPU (the kernel walks its whole connection table): check this first, and ask
 * `portHolders` who it is only when something answers.
 */
export function acceptsConnections(host: string, port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (answer: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(() => done(true), timeoutMs);
    socket.once('connect', () => done(true));
    socket.once('error', (err: NodeJS.ErrnoException) => done(err.code !== 'ECONNREFUSED' && err.code !== 'EADDRNOTAVAIL'));
  });
}

/** `portHolders`, asked only when something accepts connections on host:port (see `acceptsConnections`). */
export async function portHoldersIfListening(host: string, port: number): Promise<ReturnType<typeof portHolders>> {
  return (await acceptsConnections(host, port)) ? portHolders(host, port) : [];
}

/**
 * Who listens where a server on host:port would bind (the address itself or
 * a wildcard address on that port): each holder's process, or null where
 * /proc does not tell (another user's process).
 */
export function portHolders(host: string, port: number): { address: string; port: number; process: ProcessInfo | null }[] {
  const held = listeningSockets().filter((s) => s.port === port && (s.address === host || WILDCARD.has(s.address)));
  const owners = socketOwners(new Set(held.map((s) => s.inode)));
  return held.map((s) => {
    const pid = owners.get(s.inode);
    return { address: s.address, port: s.port, process: pid ? processInfo(pid) : null };
  });
}
