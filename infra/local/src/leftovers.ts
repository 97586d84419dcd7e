import { execFileSync } from 'node:child_process';
import { readFileSync, readlinkSync } from 'node:fs';

/**
 * redis-server processes whose working directory lies under `dir` (engines
 * and spares of this stack's nodes). Used after shutdown as a safety net.
 */
export function redisProcessesUnder(dir: string): number[] {
  let out = '';
  try {
    out = execFileSync('pgrep', ['-x', 'redis-server'], { encoding: 'utf8' });
  } catch {
    return [];
  }
  return out.split('\n').filter(Boolean).map(Number).filter((pid) => {
    try {
      return readlinkSync(`/proc/${pid}/cwd`).startsWith(dir + '/');
    } catch {
      return false;
    }
  });
}

/** Stops leftovers (SIGTERM, then SIGKILL after 3 s) and returns their PIDs. */
export async function stopLeftoverRedis(dir: string): Promise<number[]> {
  const pids = redisProcessesUnder(dir);
  if (pids.length && process.env.STRATA_DEBUG_LEFTOVERS) {
    for (const pid of pids) {
      try { console.warn(`[leftover] ${pid} ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ')} cwd=${readlinkSync(`/proc/${pid}/cwd`)}`); } catch { /* gone */ }
    }
  }
  for (const pid of pids) try { process.kill(pid, 'SIGTERM'); } catch { /* gone */ }
  const deadline = Date.now() + 3000;
  while (Date.now() < deadline && redisProcessesUnder(dir).length) await new Promise((r) => setTimeout(r, 50));
  for (const pid of redisProcessesUnder(dir)) try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
  return pids;
}
