import { LoadGenerator } from '@strata/engine/loadgen';
import { startBenchCluster } from '/work/main/engine/src/bench/testing/bench-cluster.fixture';
const P = Number(process.env.P ?? 16);
const cluster = await startBenchCluster('127.0.42.7', 3, 7500, 512);
try {
  const g = await LoadGenerator.start({ threads: 1, connections: 50, pipeline: P, seeds: cluster.seeds, auth: cluster.customer, workload: 'getset', recordCount: 100000, seed: 1, valueSize: 100, ratio: '1:1', keyPattern: 'uniform' });
  await g.load(0, 100000);
  const s = await g.run({ startAtMs: Date.now() + 200, warmupSec: 1, durationSec: 8 });
  const total = s.ops.reduce((a, o) => a + o.count, 0);
  console.log('ops/s', Math.round(total / ((s.steadyEndMs - s.steadyStartMs) / 1000)), 'elu', s.maxElu.toFixed(2));
  await g.close();
} finally { await cluster.stop(); }
