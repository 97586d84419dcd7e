import { existsSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { STACK_FILE } from './support/stack-info';

export default async function globalTeardown(): Promise<void> {
  const stack = globalThis.__strataStack;
  if (!stack) return;
  globalThis.__strataStack = undefined;
  await stack.stop();
  await reapLeftovers(stack.dir);
  rmSync(STACK_FILE, { force: true });
  rmSync(stack.dir, { recursive: true, force: true });
}

/**
 * Safety net: any process still running inside this run's own stack
 * directory (e.g. a redis-server an agent left behind) is ended by PID and
 * reported, so one run never leaks into the next.
 */
async function reapLeftovers(dir: string): Promise<void> {
  if (!existsSync('/proc')) return;
  const leftovers: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cwd = readlinkSync(`/proc/${entry}/cwd`);
      if (cwd === dir || cwd.startsWith(`${dir}/`)) leftovers.push(Number(entry));
    } catch {
      // gone, or not ours to inspect
    }
  }
  if (leftovers.length === 0) return;
  console.warn(`[e2e] ${leftovers.length} process(es) outlived stack.stop() in ${dir}: ${leftovers.join(', ')}; ending them`);
  for (const pid of leftovers) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // already exited
    }
  }
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline && leftovers.some(alive)) await new Promise((r) => setTimeout(r, 100));
  for (const pid of leftovers.filter(alive)) process.kill(pid, 'SIGKILL');
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
