/**
 * Test and bench fixture: a Redis Cluster of N primaries (no replicas) on
 * one loopback address, formed with the engine's own formCluster.
 */
import type { FormClusterShard } from '@strata/engine';
import { planSlots } from '@strata/engine';
import { formCluster } from '@strata/engine/redis-admin';
import { startRedisFleet, TEST_CREDENTIALS, type RedisFleet } from '@strata/engine/testing';

export interface BenchCluster {
  fleet: RedisFleet;
  seeds: string[];
  customer: { username: string; password: string };
  internal: { username: string; password: string };
  stop(): Promise<void>;
}

export async function startBenchCluster(host: string, primaries: number, basePort = 7200, memoryMb = 256): Promise<BenchCluster> {
  const slots = planSlots(primaries);
  const shards: FormClusterShard[] = slots.map((s, i) => ({
    slots: [s],
    primary: { instanceId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, host, port: basePort + i },
    replicas: [],
  }));
  const fleet = await startRedisFleet(
    shards.map((s) => s.primary),
    { memoryMb },
  );
  const internal = { username: TEST_CREDENTIALS.internalUser, password: TEST_CREDENTIALS.internalPassword };
  try {
    await formCluster({ shards, ...internal });
  } catch (err) {
    await fleet.stop();
    throw err;
  }
  return {
    fleet,
    seeds: shards.map((s) => `${host}:${s.primary.port}`),
    customer: { username: TEST_CREDENTIALS.customerUser, password: TEST_CREDENTIALS.customerPassword },
    internal,
    stop: () => fleet.stop(),
  };
}
