import type { Cluster } from 'ioredis';
import { expect } from 'vitest';
import { countPresent, type DurableWriter } from './workload';

/**
 * Stops the writer once it has had over 50 writes acknowledged (waiting up to 30 s for them: on a busy host a short
 * fault can be over sooner); every write it had acknowledged and every one of the `keys` loaded keys `k:0..keys-1`
 * is read back through `app`. Then both clients are closed.
 */
export async function expectNothingLost(writer: DurableWriter, app: Cluster, keys = 2000): Promise<void> {
  for (const until = Date.now() + 30_000; writer.acked.length <= 50 && Date.now() < until;) await new Promise((r) => setTimeout(r, 100));
  await writer.stop();
  expect(writer.acked.length).toBeGreaterThan(50);
  expect(await writer.lost(app)).toEqual([]);
  expect(await countPresent(app, 'k', keys)).toBe(keys);
  app.disconnect();
  writer['client'].disconnect();
}
