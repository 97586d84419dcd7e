/**
 * Ends a local stack whose launcher died without stopping it (kill -9 of
 * `npm start`, a crashed or killed test worker). Started detached beside every
 * stack, it looks for the launcher's PID every second; once it is gone:
 * the stack's agents and control plane get SIGTERM (agents stop their engines
 * and keepalived on the way out), then whatever still runs under its nodes/ directory (engines, keepalived), its
 * embedded PostgreSQL and its host network are stopped, and it exits. A
 * launcher that stops its stack ends this process first (SIGTERM).
 *
 * Environment: STRATA_WATCH_PID (the launcher), STRATA_WATCH_DIR (the stack's
 * directory), STRATA_WATCH_POSTGRES=1 (it runs an embedded PostgreSQL in
 * <dir>/pg), STRATA_WATCH_NETNS (the host network's tag, when it has one),
 * STRATA_WATCH_GROUPS (a file of process-group ids, one a line, killed
 * first: launchers a test started in groups of their own, which by design
 * outlive whoever started them).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { removeHostNetwork } from './host-network';
import { keepalivedProcessesUnder, stopLeftoverRedis, stopPids, strataProcessesOf } from './leftovers';

const launcher = Number(process.env.STRATA_WATCH_PID);
const dir = process.env.STRATA_WATCH_DIR;
if (!Number.isInteger(launcher) || launcher <= 1 || !dir) {
  console.error('stack-watchdog: STRATA_WATCH_PID and STRATA_WATCH_DIR are required');
  process.exit(2);
}

const running = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

function postgresPid(): number | null {
  try {
    const pid = Number.parseInt(readFileSync(path.join(dir!, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]!, 10);
    return Number.isInteger(pid) && pid > 1 ? pid : null;
  } catch {
    return null;
  }
}

function killListedGroups(): void {
  let listed = '';
  try { listed = process.env.STRATA_WATCH_GROUPS ? readFileSync(process.env.STRATA_WATCH_GROUPS, 'utf8') : ''; } catch { /* none written */ }
  for (const pgid of listed.split('\n').map(Number).filter((g) => Number.isInteger(g) && g > 1)) {
    try { process.kill(-pgid, 'SIGKILL'); } catch { /* gone */ }
  }
}

async function endStack(): Promise<void> {
  killListedGroups();
  await stopPids(strataProcessesOf(dir!).map((p) => p.pid), 15_000);
  await stopLeftoverRedis(path.join(dir!, 'nodes'), 5_000);
  await stopPids(keepalivedProcessesUnder(path.join(dir!, 'nodes')), 5_000);
  const pg = process.env.STRATA_WATCH_POSTGRES === '1' ? postgresPid() : null;
  if (pg) await stopPids([pg], 10_000);
  if (process.env.STRATA_WATCH_NETNS) removeHostNetwork(process.env.STRATA_WATCH_NETNS);
}

process.on('SIGTERM', () => process.exit(0));
const timer = setInterval(() => {
  if (running(launcher)) return;
  clearInterval(timer);
  endStack().then(() => process.exit(0), (err) => {
    console.error(`stack-watchdog: ${(err as Error).message}`);
    process.exit(1);
  });
}, 1000);
