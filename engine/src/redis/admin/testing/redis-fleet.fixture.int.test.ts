/**
 * The engine tests' redis-server fixture cleans up after a test process
 * that died without stopping its fleet: a fleet started on the same
 * addresses ends the leftover servers first instead of failing on a port in
 * use, and leaves alone a fleet whose test process still runs
 * (127.0.5.250, ports 7398-7399).
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { startRedisFleet, type RedisFleet } from './redis-fleet.fixture';

const members = [{ host: '127.0.5.250', port: 7399 }];
const started: RedisFleet[] = [];
afterAll(async () => {
  for (const f of started) await f.stop();
});

/** Running (a zombie, killed but not reaped yet by whoever inherited it, is not). */
const alive = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
};

describe('startRedisFleet', () => {
  it('ends what a dead test process left on its addresses, and only that', async () => {
    // A test process that starts a fleet and dies without stopping it.
    const script = `import { startRedisFleet } from ${JSON.stringify(path.resolve(import.meta.dirname, 'redis-fleet.fixture.ts'))};
      const f = await startRedisFleet(${JSON.stringify(members)}); console.log(JSON.stringify({ pid: f.servers[0].pid, root: f.root })); process.exit(0);`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { timeout: 30_000 });
    const left = JSON.parse(stdout.trim().split('\n').pop()!) as { pid: number; root: string };
    expect(alive(left.pid)).toBe(true);

    // A fleet on other addresses, and one whose test process (this one) still runs, are not touched.
    const bystander = await startRedisFleet([{ host: '127.0.5.250', port: 7398 }]);
    started.push(bystander);

    const next = await startRedisFleet(members);
    started.push(next);
    expect(alive(left.pid)).toBe(false);
    expect(existsSync(left.root)).toBe(false);
    expect(next.servers[0]!.process.exitCode).toBeNull();
    expect(bystander.servers[0]!.process.exitCode).toBeNull();
    expect(bystander.servers[0]!.process.signalCode).toBeNull();
  });

  it('leaves a fleet on the same addresses alone while its test process runs', async () => {
    const mine = await startRedisFleet([{ host: '127.0.5.250', port: 7397 }]);
    started.push(mine);
    // The second start cannot have the port (its server exits); whatever it returns, the running fleet stays.
    const second = await startRedisFleet([{ host: '127.0.5.250', port: 7397 }]).catch(() => null);
    if (second) started.push(second);
    expect(alive(mine.servers[0]!.pid)).toBe(true);
    expect(mine.servers[0]!.process.exitCode).toBeNull();
    expect(existsSync(mine.root)).toBe(true);
  });
});
