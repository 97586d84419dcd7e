import { existsSync, readFileSync } from 'node:fs';
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

/** Is `pid` a redis-server serving this port? (redis sets its title to "redis-server host:port [cluster]") */
export function isRedisOnPort(pid: number, port: number): boolean {
  if (!isAlive(pid)) return false;
  try {
    const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return cmd.includes('redis-server') && cmd.includes(`:${port}`);
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
export async function waitForRedis(host: string, port: number, timeoutMs: number, isDead: () => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect({ host, port });
      const done = (v: boolean) => { clearTimeout(t); s.destroy(); resolve(v); };
      const t = setTimeout(() => done(false), 200);
      s.once('connect', () => s.write('PING\r\n'));
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
