/** ACL rules of the two users every engine has (database users' presets are in database-users.ts). */

/**
 * ACL rules of the customer user: everything on data, minus admin and
 * dangerous commands, plus the read-only introspection and housekeeping
 * commands Redis Cluster clients and tools need. Each re-allowed command is
 * known to redis-server 7.0 (an unknown one stops the server from starting),
 * which form-cluster.int.test.ts checks against a real server.
 */
export const CUSTOMER_ACL_RULES: readonly string[] = [
  '~*',
  '&*',
  '+@all',
  '-@admin',
  '-@dangerous',
  '+info',
  '+cluster|info',
  '+cluster|nodes',
  '+cluster|slots',
  '+cluster|shards',
  '+cluster|myid',
  '+cluster|keyslot',
  '+cluster|countkeysinslot',
  '+cluster|getkeysinslot',
  '+keys',
  '+flushdb',
  '+flushall',
  '+sort',
  '+sort_ro',
  '+latency|histogram',
  '+slowlog|get',
  '+client|setname',
  '+client|getname',
  '+client|id',
  '+client|info',
  '+readonly',
  '+readwrite',
  '+command',
  '+command|docs',
  '+command|count',
];

/** Rules of the internal user (agents, replication): everything. */
export const INTERNAL_ACL_RULES: readonly string[] = ['~*', '&*', '+@all'];
