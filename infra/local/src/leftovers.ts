/**
 * What a stack leaves behind when its stop was cut short, found in /proc:
 * redis-server processes working under the stack's nodes/ directory, agents
 * and a control plane of its state directory, and the processes that hold
 * ports the stack wants. The /proc readers are the agent's
 * (agents/src/process-utils.ts), which finds its own engines the same way.
 */
import { readdirSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import {
  describeProcess, isAlive, keepalivedProcessesUnder as keepalivedUnder, listeningSockets, processInfo, redisProcessesUnder as redisUnder, socketOwners, stopProcesses,
} from '@strata/agent/process-utils';
import { runsEntry } from './entry-names';

const readOr = (file: string): string | null => {
  try { return readFileSync(file, 'utf8'); } catch { return null; }
};
const pids = (): number[] => readdirSync('/proc').filter((n) => /^\d+$/.test(n)).map(Number);
/** Both spellings of a directory: as given and with symlinks resolved (what /proc shows). */
const spellings = (dir: string): string[] => {
  const abs = path.resolve(dir);
  try { return [...new Set([abs, realpathSync(abs)])]; } catch { return [abs]; }
};
const within = (p: string, dirs: string[]): boolean => dirs.some((d) => p === d || p.startsWith(d + '/'));

export const alive = isAlive;

export const commandOf = (pid: number): string => processInfo(pid)?.command ?? '';

export function describePid(pid: number): string {
  const p = processInfo(pid);
  return p ? describeProcess(p) : `pid ${pid} (?)`;
}

/** redis-server processes whose working directory lies under `dir` (engines and spares of this stack's nodes). */
export const redisProcessesUnder = (dir: string): number[] => redisUnder(dir).map((p) => p.pid);

/** keepalived processes working under `dir` (the floating endpoint address of nodes run as hosts). */
export const keepalivedProcessesUnder = (dir: string): number[] => keepalivedUnder(dir).map((p) => p.pid);

/**
 * SIGTERM (again every second: redis-server 7.0 ignores one that comes while it
 * writes its first AOF), then SIGKILL to those still running after `graceMs`;
 * resolves when they are gone (or 1 s after SIGKILL).
 */
export async function stopPids(list: number[], graceMs: number): Promise<void> {
  await stopProcesses(list, graceMs);
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
    const env = new Map((readOr(`/proc/${pid}/environ`) ?? '').split('\0').map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)] as const));
    if (isAgent && within(path.resolve(env.get('STRATA_AGENT_DIR') ?? '/nonexistent'), nodes)) out.push({ pid, role: 'agent' });
    else if (!isAgent && homes.includes(path.resolve(env.get('STRATA_HOME') ?? '/nonexistent'))) out.push({ pid, role: 'control plane' });
  }
  return out;
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
  const found = listeningSockets().filter((s) => wanted(s.address, s.port));
  const owners = socketOwners(new Set(found.map((s) => s.inode)));
  return found.map((s) => ({ address: s.address, port: s.port, pid: owners.get(s.inode) ?? null }));
}
