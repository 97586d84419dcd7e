/**
 * Which instance each shard's snapshot is taken on: an in-sync replica
 * where the shard has one (BGSAVE forks there, never on the primary that
 * serves writes), else the primary. Pure: reads what agents observe.
 */
import type { InstanceRole } from '../domain';
import { isInSyncReplica, primaryNodeId, type MemberObservation } from '../redis/member-health';

export interface BackupMember {
  id: string;
  shard: number;
  role: InstanceRole;
  engineId: string | null;
  obs: MemberObservation | null;
}

export type BackupSource = { shard: number; instanceId: string; role: InstanceRole } | { shard: number; instanceId: null; reason: string };

const runs = (m: BackupMember) => m.obs?.process === 'running';

export function planBackupSources(members: readonly BackupMember[], shards: number): BackupSource[] {
  return Array.from({ length: shards }, (_, shard) => {
    const mine = members.filter((m) => m.shard === shard).sort((a, b) => a.id.localeCompare(b.id));
    const primary = mine.find((m) => m.role === 'primary');
    const pid = primaryNodeId(primary);
    const replica = mine.find((m) => m.role === 'replica' && isInSyncReplica(m.obs, pid));
    if (replica) return { shard, instanceId: replica.id, role: 'replica' as const };
    if (primary && runs(primary)) return { shard, instanceId: primary.id, role: 'primary' as const };
    return { shard, instanceId: null, reason: `shard ${shard + 1} has no running primary and no in-sync replica` };
  });
}
