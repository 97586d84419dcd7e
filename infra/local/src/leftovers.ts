/**
 * What a stack leaves behind when its stop was cut short, found in /proc:
 * redis-server processes working under the stack's nodes/ directory, agents
 * and a control plane of its state directory, and the processes that hold
 * ports the stack wants. (The agent reads /proc the same way for the ports
 * of one engine: agents/src/process-utils.ts.)
 */
import { readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { runsEntry } from './entry-bundle';

const pids = (): number[] => readdirSync('/proc').filter((n) => /^\d+$/.test(n)).map(Number);
const read = (file: string): string | null => {
  try { return readFileSync(file, 'utf8'); } catch { return null; }
};
const cwdOf = (pid: number): string | null => {
  try { return readlinkSync(`/proc/${pid}/cwd`).replace(/ \(deleted\)$/, ''); } catch { return null; }
};
/** Both spellings of a directory: as given and with symlinks resolved (what /proc shows). */
const spellings = (dir: string): string[] => {
  const abs = path.resolve(dir);
  try { return [...new Set([abs, realpathSync(abs)])]; } catch { return [abs]; }
};
const within = (p: string, dirs: string[]): boolean => dirs.some((d) => p === d || p.startsWith(d + '/'));

export function alive(pid: number): boolean {
  try { process.kill(pid, 0); } catch { return false; }
  return !/\) Z /.test(read(`/proc/${pid}/stat`) ?? '');
}

export function commandOf(pid: number): string {
  return (read(`/proc/${pid}/cmdline`) ?? '').replace(/\0+$/, '').replace(/\0/g, ' ');
}

export function describePid(pid: number): string {
  const cwd = cwdOf(pid);
  return `pid ${pid} (${commandOf(pid) || '?'}${cwd ? `, working directory ${cwd}` : ''})`;
}

/** redis-server processes whose working directory lies under `dir` (engines and spares of this stack's nodes). */
export function redisProcessesUnder(dir: string): number[] {
  const dirs = spellings(dir);
  return pids().filter((pid) => read(`/proc/${pid}/comm`)?.trim() === 'redis-server' && within(cwdOf(pid) ?? '', dirs) && alive(pid));
}

/**
 * SIGTERM (again every second: redis-server 7.0 ignores one that comes while it
 * writes its first AOF), then SIGKILL to those still running after `graceMs`;
 * resolves when they are gone (or 1 s after SIGKILL).
 */
export async function stopPids(list: number[], graceMs: number): Promise<void> {
  const term = () => { for (const pid of list.filter(alive)) try { process.kill(pid, 'SIGTERM'); } catch { /* gone */ } };
  term();
  const deadline = Date.now() + graceMs;
  let again = Date.now() + 1000;
  while (Date.now() < deadline && list.some(alive)) {
    await new Promise((r) => setTimeout(r, 25));
    if (Date.now() >= again) {
      term();
      again += 1000;
    }
  }
  for (const pid of list.filter(alive)) try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
  const end = Date.now() + 1000;
  while (Date.now() < end && list.some(alive)) await new Promise((r) => setTimeout(r, 25));
}

/** Stops the engines running under `dir` (SIGTERM, SIGKILL after `graceMs`) and returns their PIDs. */
export async function stopLeftoverRedis(dir: string, graceMs = 2000): Promise<number[]> {
  const found = redisProcessesUnder(dir);
  if (found.length && process.env.STRATA_DEBUG_LEFTOVERS) for (const pid of found) console.warn(`[leftover] ${describePid(pid)}`);
  await stopPids(found, graceMs);
  return found;
}

/**
 * Agents and the control plane of the stack in `home` other than this
 * process's children: what a launcher killed on its own (SIGKILL to its pid,
 * not its group) leaves running. Recognised by entry point and environment.
 */
export function strataProcessesOf(home: string): { pid: number; role: 'agent' | 'control plane' }[] {
  const homes = spellings(home);
  const nodes = homes.map((h) => path.join(h, 'nodes'));
  const out: { pid: number; role: 'agent' | 'control plane' }[] = [];
  for (const pid of pids()) {
    if (pid === process.pid) continue;
    const cmd = commandOf(pid);
    const isAgent = runsEntry(cmd, 'agents/src/main.ts');
    if (!isAgent && !runsEntry(cmd, 'control-plane/src/main.ts')) continue;
    const env = new Map((read(`/proc/${pid}/environ`) ?? '').split('\0').map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)] as const));
    if (isAgent && within(path.resolve(env.get('STRATA_AGENT_DIR') ?? '/nonexistent'), nodes)) out.push({ pid, role: 'agent' });
    else if (!isAgent && homes.includes(path.resolve(env.get('STRATA_HOME') ?? '/nonexistent'))) out.push({ pid, role: 'control plane' });
  }
  return out;
}

/** /proc/net/tcp's "0100007F" (little-endian words) as "127.0.0.1"; IPv6 as "::" for the wildcard, the IPv4 address it maps, or hex groups. */
function procAddress(hex: string): string {
  const bytes = hex.match(/.{8}/g)!.flatMap((w) => w.match(/../g)!.reverse().map((b) => Number.parseInt(b, 16)));
  if (bytes.length === 4) return bytes.join('.');
  if (bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff) return bytes.slice(12).join('.');
  if (bytes.every((b) => b === 0)) return '::';
  return Array.from({ length: 8 }, (_, i) => ((bytes[2 * i]! << 8) | bytes[2 * i + 1]!).toString(16)).join(':');
}

export interface PortHolder {
  address: string;
  port: number;
  /** null: a process this user cannot inspect. */
  pid: number | null;
}

export const isWildcard = (address: string): boolean => address === '0.0.0.0' || address === '::';

/**
 * Listening TCP sockets that `wanted(address, port)` selects (addresses as
 * "127.0.1.2", or "0.0.0.0" / "::" for a wildcard listener, which blocks a
 * bind to any address on its port), with the process that holds each.
 */
export function portHolders(wanted: (address: string, port: number) => boolean): PortHolder[] {
  const found: { address: string; port: number; inode: string }[] = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of (read(file) ?? '').split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length < 10 || f[3] !== '0A') continue;
      const [hex, portHex] = f[1]!.split(':');
      const address = procAddress(hex!);
      const port = Number.parseInt(portHex!, 16);
      if (wanted(address, port)) found.push({ address, port, inode: f[9]! });
    }
  }
  if (!found.length) return [];
  const inodes = new Set(found.map((s) => s.inode));
  const owner = new Map<string, number>();
  for (const pid of pids()) {
    let fds: string[];
    try { fds = readdirSync(`/proc/${pid}/fd`); } catch { continue; }
    for (const fd of fds) {
      let link = '';
      try { link = readlinkSync(`/proc/${pid}/fd/${fd}`); } catch { continue; }
      const m = /^socket:\[(\d+)\]$/.exec(link);
      if (m && inodes.has(m[1]!) && !owner.has(m[1]!)) owner.set(m[1]!, pid);
    }
  }
  return found.map((s) => ({ address: s.address, port: s.port, pid: owner.get(s.inode) ?? null }));
}
