/**
 * The engine tests' redis-server fixture cleans up after a test process
 * that died without stopping its fleet: a fleet started on the same
 * addresses ends the leftover servers first instead of failing on a port in
 * use (127.0.5.250, port 7399).
 */
import { existsSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { startRedisFleet, type RedisFleet } from './redis-fleet.fixture';

const members = [{ host: '127.0.5.250', port: 7399 }];
const started: RedisFleet[] = [];
afterAll(async () => {
  for (const f of started) await f.stop();
});

describe('startRedisFleet', () => {
  it('ends what a dead test process left on its addresses, and only that', async () => {
    // The first fleet is never stopped, as when its test process is killed.
    const left = await startRedisFleet(members);
    started.push(left);
    const bystander = await startRedisFleet([{ host: '127.0.5.250', port: 7398 }]);
    started.push(bystander);
    const leftExit = new Promise<NodeJS.Signals | null>((resolve) => left.servers[0]!.process.once('exit', (_c, sig) => resolve(sig)));

    const next = await startRedisFleet(members);
    started.push(next);
    expect(await leftExit).toBe('SIGKILL');
    expect(existsSync(left.root)).toBe(false);
    expect(next.servers[0]!.process.exitCode).toBeNull();
    // A fleet on other addresses is not touched.
    expect(bystander.servers[0]!.process.exitCode).toBeNull();
    expect(bystander.servers[0]!.process.signalCode).toBeNull();
  });
});
