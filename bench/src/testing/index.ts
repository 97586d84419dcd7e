/**
 * @strata/bench/testing: a Redis Cluster to point the load generator at, for
 * integration tests and calibration scripts (needs @strata/engine and
 * redis-server).
 */
export { startBenchCluster, type BenchCluster } from './bench-cluster.fixture';
