import type { Cluster } from 'ioredis';
import { expect } from 'vitest';
import { countPresent, type DurableWriter } from './workload';

/**
 * Stops the writer (which must have had over 50 writes acknowledged); every write it had acknowledged and every
 * one of the `keys` loaded keys `k:0..keys-1` is read back through `app`. Then both clients are closed.
 */
export async function expectNothingLost(writer: DurableWriter, app: Cluster, keys = 2000): Promise<void> {
  await writer.stop();
  expect(writer.acked.length).toBeGreaterThan(50);
  expect(await writer.lost(app)).toEqual([]);
  expect(await countPresent(app, 'k', keys)).toBe(keys);
  app.disconnect();
  writer['client'].disconnect();
}
