/** What a profile is stored with: the data volume's mount, device, free space, the kernel and fio's version. */
import { execFileSync } from 'node:child_process';
import { readFileSync, realpathSync, statfsSync } from 'node:fs';
import os from 'node:os';
import type { NodeDiskFacts } from '@strata/api';

interface Mount { mountPoint: string; majorMinor: string; fsType: string; source: string; options: string }

/** /proc/self/mountinfo lines: `id parent maj:min root mountpoint options [optional...] - fstype source superoptions`. */
export function parseMountinfo(text: string): Mount[] {
  const unescape = (s: string) => s.replace(/\\(\d{3})/g, (_, o: string) => String.fromCharCode(Number.parseInt(o, 8)));
  return text.split('\n').filter(Boolean).flatMap((line) => {
    const [left, right] = line.split(' - ');
    if (!left || !right) return [];
    const f = left.split(' ');
    const r = right.split(' ');
    return [{ majorMinor: f[2]!, mountPoint: unescape(f[4]!), options: f[5]!, fsType: r[0]!, source: unescape(r[1]!) }];
  });
}

/** The mount holding `dir`: the longest mount point that is `dir` or a parent of it (the last one mounted wins a tie). */
export function mountOf(mounts: readonly Mount[], dir: string): Mount | undefined {
  let best: Mount | undefined;
  for (const m of mounts) {
    const p = m.mountPoint === '/' ? '/' : m.mountPoint + '/';
    if ((dir + '/').startsWith(p) && (!best || m.mountPoint.length >= best.mountPoint.length)) best = m;
  }
  return best;
}

function rotational(majorMinor: string): boolean | null {
  for (const file of [`/sys/dev/block/${majorMinor}/queue/rotational`, `/sys/dev/block/${majorMinor}/../queue/rotational`]) {
    try {
      return readFileSync(file, 'utf8').trim() === '1';
    } catch { /* not a block device, or a partition: try its disk */ }
  }
  return null;
}

export function fioVersion(fio: string): string {
  return execFileSync(fio, ['--version'], { encoding: 'utf8', timeout: 5000 }).trim();
}

export function readDiskFacts(dataDir: string, fio: string): NodeDiskFacts {
  const dir = realpathSync(dataDir);
  const m = mountOf(parseMountinfo(readFileSync('/proc/self/mountinfo', 'utf8')), dir);
  const fs = statfsSync(dir);
  return {
    dataDir: dir,
    device: m?.source ?? 'unknown',
    filesystem: m?.fsType ?? 'unknown',
    mountOptions: m?.options ?? '',
    rotational: m ? rotational(m.majorMinor) : null,
    freeBytes: fs.bavail * fs.bsize,
    totalBytes: fs.blocks * fs.bsize,
    kernel: `${os.type()} ${os.release()}`,
    fioVersion: fioVersion(fio),
  };
}
