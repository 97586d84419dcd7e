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
  let client: Redis | undefined;
  try {
    // Beside the integration suite a redis-server can take seconds to open its socket, and a connection made
    // between the socket file's creation and the server's listen is refused: tried again, a fresh client each time.
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (exited !== undefined) throw new Error(`redis-server for the RDB file exited (${exited})`);
      if (existsSync(socket)) {
        const c = new Redis({ path: socket, lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
        c.on('error', () => {});
        try {
          await c.connect();
          client = c;
          break;
        } catch (err) {
          c.disconnect();
          if (Date.now() > deadline) throw new Error(`redis-server for the RDB file refused connections for 30 s: ${(err as Error).message}`);
        }
      } else if (Date.now() > deadline) {
        throw new Error('redis-server for the RDB file opened no socket within 30 s');
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    await Promise.all(Array.from({ length: keys }, (_, i) => client!.set(`rdb:${i}`, `v${i}`)));
    await client!.call('SAVE');
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  } finally {
    client?.disconnect();
    server.kill('SIGKILL');
  }
  return { file: path.join(dir, 'dump.rdb'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
