/**
 * @strata/engine/testing: fixtures for other packages' integration tests and
 * bench scripts (real redis-server processes), and the CLUSTER NODES reader
 * their checks use. Not for production code.
 */
export { startRedisFleet, TEST_CREDENTIALS, type RedisFleet, type FleetMember, type FleetOptions, type RunningRedis } from './redis/admin/testing/redis-fleet.fixture';
export { parseClusterNodes, countSlots, type ClusterNodeEntry } from './redis/admin/cluster-reply.parser';
export { plainPing } from './redis/admin/testing/plain-ping';
