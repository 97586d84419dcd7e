import { describe, expect, it } from 'vitest';
import type { Topology } from '@strata/api';
import { shardRebuild } from './shard-rebuild';

type Instance = Topology['shards'][number]['instances'][number];
const inst = (over: Partial<Instance>): Instance => ({
  id: 'i', nodeId: 'n', nodeName: 'node-1', address: '127.0.0.1:7000', role: 'replica', preferredRole: 'replica', observedRole: 'replica', health: 'healthy', sync: null, ...over,
});
const shard = (...instances: Instance[]) => ({ index: 0, slots: [], instances });
const primary = inst({ id: 'p', role: 'primary', preferredRole: 'primary', observedRole: 'primary', nodeName: 'node-1' });

describe('shardRebuild', () => {
  it('says nothing for a whole shard', () => {
    expect(shardRebuild(shard(primary, inst({ nodeName: 'node-2' })), 'ready')).toBeNull();
  });
  it('names the node and the stage of a new replica: placed, joining, copying with bytes received', () => {
    expect(shardRebuild(shard(primary, inst({ nodeName: 'node-3', health: 'unknown', observedRole: null })), 'degraded')).toBe('building a replica on node-3: placed, starting');
    expect(shardRebuild(shard(primary, inst({ nodeName: 'node-3', health: 'starting' })), 'degraded')).toBe('building a replica on node-3: started, joining the cluster');
    expect(shardRebuild(shard(primary, inst({ nodeName: 'node-3', sync: { receivedBytes: 3 * 1024 * 1024, totalBytes: null } })), 'degraded'))
      .toBe('building a replica on node-3: copying data from the primary, 3.0 MB received');
  });
  it('a crashed replica restarting in place, a shard without a healthy primary, or a cluster being created is not a rebuild', () => {
    expect(shardRebuild(shard(primary, inst({ health: 'down' })), 'degraded')).toBeNull();
    expect(shardRebuild(shard({ ...primary, health: 'unknown' }, inst({ health: 'starting' })), 'degraded')).toBeNull();
    expect(shardRebuild(shard(primary, inst({ health: 'starting' })), 'provisioning')).toBeNull();
  });
});
