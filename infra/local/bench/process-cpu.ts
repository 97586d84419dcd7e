/**
 * CPU time of the processes a bench starts, read from /proc/<pid>/stat:
 * where a run's time went (engines, agents, control plane, the bench itself).
 */
import { readdirSync, readFileSync } from 'node:fs';

/** CPU time (ms) a process used, with its waited-for children's (a redis-server's snapshot forks); 0 once gone. */
export function cpuMs(pid: number): number {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * (1000 / 100);
  } catch {
    return 0;
  }
}

/** The redis-server processes on these addresses (they name themselves after their address). */
export function enginePids(prefix: string): number[] {
  const out: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (readFileSync(`/proc/${d}/cmdline`, 'utf8').startsWith(`redis-server ${prefix}.`)) out.push(Number(d));
    } catch { /* gone */ }
  }
  return out;
}

/**
 * CPU used by groups of processes from now on: the returned function says how much (ms) per group so far. A process
 * that started meanwhile counts from its start; one that exited meanwhile is not counted (its time is gone with it).
 */
export function cpuMeter(groups: Record<string, () => number[]>): () => string {
  const before = new Map<number, number>();
  for (const pids of Object.values(groups)) for (const p of pids()) before.set(p, cpuMs(p));
  return () => Object.entries(groups).map(([k, pids]) => `${k} ${Math.round(pids().reduce((n, p) => n + cpuMs(p) - (before.get(p) ?? 0), 0))}`).join(', ');
}
