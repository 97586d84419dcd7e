/**
 * A task that ends while the coordinator's pass runs is not left for the
 * next timer tick (up to a second later): a pass asked for meanwhile runs
 * right after the current one. With fakes for the stores.
 */
import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { BackupCoordinator, type BackupCoordinatorDeps } from './backup-coordinator';

describe('BackupCoordinator.tick', () => {
  it('runs one more pass when asked while a pass runs, and only one', async () => {
    let passes = 0;
    let release = () => {};
    const store = {
      running: async () => {
        passes++;
        // The first pass waits until the test lets it go; asks meanwhile must not be lost.
        if (passes === 1) await new Promise<void>((r) => { release = r; });
        return [];
      },
      unswept: async () => [],
    };
    const coordinator = new BackupCoordinator({ store, log: pino({ level: 'silent' }) } as unknown as BackupCoordinatorDeps);
    const first = coordinator.tick();
    await new Promise((r) => setImmediate(r));
    await coordinator.tick();
    await coordinator.tick();
    expect(passes).toBe(1);
    release();
    await first;
    expect(passes).toBe(2);
    await coordinator.tick();
    expect(passes).toBe(3);
  });
});
