import { readFileSync, statfsSync } from 'node:fs';
import type { HostMetricSample } from '@strata/api';

interface CpuTimes { busy: number; total: number }

/** Parses the aggregate `cpu` line of /proc/stat into busy and total jiffies. */
export function parseProcStat(text: string): CpuTimes {
  const line = text.split('\n').find((l) => l.startsWith('cpu '));
  if (!line) return { busy: 0, total: 0 };
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  const total = v.slice(0, 8).reduce((s, n) => s + (n || 0), 0);
  const idle = (v[3] ?? 0) + (v[4] ?? 0);
  return { busy: total - idle, total };
}

/** MemTotal and MemAvailable of /proc/meminfo in bytes. */
export function parseMeminfo(text: string): { total: number; available: number } {
  const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? 0) * 1024;
  return { total: kb('MemTotal'), available: kb('MemAvailable') };
}

/** Host CPU (busy share since the previous call), memory and the data directory's disk. */
export class HostSampler {
  private prev?: CpuTimes;

  constructor(private readonly dataDir: string) {}

  sample(ts: number): HostMetricSample | null {
    const cpu = parseProcStat(readFileSync('/proc/stat', 'utf8'));
    const prev = this.prev;
    this.prev = cpu;
    if (!prev || cpu.total <= prev.total) return null;
    const mem = parseMeminfo(readFileSync('/proc/meminfo', 'utf8'));
    const fs = statfsSync(this.dataDir);
    return {
      ts,
      cpu: Math.min(1, Math.max(0, (cpu.busy - prev.busy) / (cpu.total - prev.total))),
      memoryTotal: mem.total,
      memoryAvailable: mem.available,
      diskTotal: fs.blocks * fs.bsize,
      diskFree: fs.bavail * fs.bsize,
    };
  }
}
