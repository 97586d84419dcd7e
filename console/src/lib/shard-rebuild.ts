import type { ClusterPhase, Topology } from '@strata/api';

type Shard = Topology['shards'][number];

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MB`;

/**
 * Is this shard getting a new copy (a replica rebuilt after its node went
 * down, or moved off a draining node), and how far along? A replica that is
 * placed but not yet a healthy member, or still copying its primary's data,
 * beside a healthy primary. A crashed replica restarting in place
 * (health "down") is not a rebuild. Null when nothing is being rebuilt.
 * Diskless sync gives no total, so the copy stage shows bytes received.
 */
export function shardRebuild(shard: Shard, phase: ClusterPhase): string | null {
  if (phase === 'provisioning' || phase === 'deleting') return null;
  const primary = shard.instances.find((i) => i.role === 'primary' && i.health === 'healthy');
  if (!primary) return null;
  const building = shard.instances.filter((i) => i.role === 'replica' && (i.sync !== null || i.health === 'unknown' || i.health === 'starting'));
  if (!building.length) return null;
  return building.map((i) => {
    const stage = i.sync ? `copying data from the primary, ${mb(i.sync.receivedBytes)} received`
      : i.health === 'unknown' ? 'placed, starting' : 'started, joining the cluster';
    return `building a replica on ${i.nodeName}: ${stage}`;
  }).join('; ');
}
