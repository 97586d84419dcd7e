import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';

/**
 * An RDB file saved by a real redis-server (standalone, on a Unix socket: no port to pick) holding
 * `keys` string keys `rdb:<i>`; returns its path and a cleanup that removes it.
 */
export async function savedRdbFile(keys: number): Promise<{ file: string; cleanup: () => void }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'strata-e2e-rdb-'));
  const socket = path.join(dir, 'redis.sock');
  const server = spawn('redis-server', ['--port', '0', '--unixsocket', socket, '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });
  let exited: number | null | undefined;
  server.once('exit', (code) => { exited = code; });
  const client = new Redis({ path: socket, lazyConnect: true, retryStrategy: (n) => (n > 200 ? null : 50) });
  client.on('error', () => {});
  try {
    // Beside the integration suite a redis-server can take seconds to open its socket.
    const deadline = Date.now() + 30_000;
    while (!existsSync(socket) && exited === undefined && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    if (!existsSync(socket)) throw new Error(`redis-server for the RDB file ${exited === undefined ? 'opened no socket within 30 s' : `exited (${exited})`}`);
    await client.connect();
    await Promise.all(Array.from({ length: keys }, (_, i) => client.set(`rdb:${i}`, `v${i}`)));
    await client.call('SAVE');
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  } finally {
    client.disconnect();
    server.kill('SIGKILL');
  }
  return { file: path.join(dir, 'dump.rdb'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
