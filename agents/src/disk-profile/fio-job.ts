/**
 * Rebench's vocabulary in fio's options: one fio invocation per group of
 * workloads that run at once, one reporting group per workload (its threads
 * aggregated), JSON+ output (full latency histograms) on stdout. Pure.
 */
import type { ProfileWorkload } from '@strata/api';

const ENGINES: Record<ProfileWorkload['ioCall'], string> = { pread: 'psync', read: 'sync', libaio: 'libaio', io_uring: 'io_uring', mmap: 'mmap' };

/** The test file of a workload, inside the profile's own directory. */
export const workloadFile = (dir: string, index: number) => `${dir}/workload-${index}.dat`;

/** fio's `rw=`: direction and pattern, with the offset modifier for strides and backward runs. */
export function fioRw(w: ProfileWorkload): string {
  const op = w.operation === 'mixed' ? 'rw' : w.operation;
  if (w.pattern === 'random') return op === 'rw' ? 'randrw' : `rand${op}`;
  // Sequential: fio adds `bs + modifier` to the offset after each I/O; a negative step walks backward.
  const step = w.direction === 'backward' ? -(2 * w.blockSize + w.strideBytes) : w.strideBytes;
  return step ? `${op}:${step}` : op;
}

function distribution(w: ProfileWorkload): string | undefined {
  if (w.pattern !== 'random' || w.distribution === 'uniform') return undefined;
  const param = w.distributionParam ?? { zipf: 1.2, pareto: 0.2, normal: 10 }[w.distribution];
  return `${w.distribution === 'zipf' ? 'zipf' : w.distribution}:${param}`;
}

/** One job section's options for a workload (its threads share the file). */
export function workloadArgs(w: ProfileWorkload, index: number, dir: string): string[] {
  const a = [
    `--name=w${index}`, '--new_group',
    `--filename=${workloadFile(dir, index)}`,
    `--size=${w.fileSize}`,
    `--rw=${fioRw(w)}`,
    `--bs=${w.blockSize}`,
    `--ioengine=${ENGINES[w.ioCall]}`,
    `--iodepth=${w.queueDepth}`,
    `--numjobs=${w.threads}`,
    `--direct=${w.direct ? 1 : 0}`,
    `--runtime=${w.durationSec}`, '--time_based',
  ];
  // Buffered I/O keeps what the page cache holds (fio would drop the file's pages first): a new test file is laid
  // out through the cache, so buffered reads of a file smaller than memory are cached reads; direct ones never are.
  if (!w.direct) a.push('--invalidate=0');
  if (w.operation === 'mixed') a.push(`--rwmixread=${w.readPercent}`);
  const dist = distribution(w);
  if (dist) a.push(`--random_distribution=${dist}`);
  if (w.flush === 'fsync') a.push(`--fsync=${w.flushEvery}`);
  if (w.flush === 'fdatasync') a.push(`--fdatasync=${w.flushEvery}`);
  if (w.flush === 'o-sync') a.push('--sync=sync');
  // Appends grow a fresh file (no preallocation) up to its size, then wrap to its start.
  if (w.append) a.push('--fallocate=none');
  return a;
}

/** The whole command line for workloads that run at once (indexes into the profile's list). */
export function fioArgs(workloads: readonly ProfileWorkload[], indexes: readonly number[], dir: string): string[] {
  return [
    // Threads, not forked processes: killing the one fio process ends every job.
    '--thread', '--group_reporting', '--output-format=json+', '--eta=never',
    ...indexes.flatMap((i) => workloadArgs(workloads[i]!, i, dir)),
  ];
}
