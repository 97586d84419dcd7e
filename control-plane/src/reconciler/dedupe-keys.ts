/**
 * Identity of everything the control plane asks of agents (tasks) and tells
 * users (events): one typed description per kind, turned into its dedupe key
 * here and nowhere else. Keys are never parsed back: code that needs to know
 * what a task is for keeps its `TaskId`. A retry that needs a fresh key says
 * so in its identity (an attempt counter), never by a clock hidden in a key.
 *
 * Task keys are unique per owner (an operation, or healing when the task has
 * no operation); event keys are unique across clusters, so each names its
 * cluster or an id that belongs to one.
 */

export type TaskId =
  /** Start (or keep running) an instance as planned. */
  | { kind: 'start'; instanceId: string }
  /** Restart a crashed, held instance once: its crash is part of its identity. */
  | { kind: 'restart'; instanceId: string; crashedAt: number | null }
  /** Promote a replica of a shard whose primary (`fromInstanceId`) died at `crashedAt`. */
  | { kind: 'promote'; shard: number; fromInstanceId: string; crashedAt: number | null }
  /** Hand a healthy primary over to one of its replicas (data-safe CLUSTER FAILOVER). */
  | { kind: 'switchover'; shard: number; fromInstanceId: string }
  /** A user's switchover of one shard to `instanceId` (one per operation). */
  | { kind: 'switchover-to'; instanceId: string }
  /** A new replica replicates its shard's primary. */
  | { kind: 'join'; instanceId: string; primaryInstanceId: string }
  /** A new, empty primary meets the cluster. */
  | { kind: 'meet'; instanceId: string }
  /** Stop an instance and delete its data. */
  | { kind: 'remove'; instanceId: string }
  /** Restart a running instance on purpose (once per rolling restart). */
  | { kind: 'restart-running'; instanceId: string }
  /** Every member forgets every node that is no member (`scope`: healing, or the operation step that removed instances). */
  | { kind: 'forget'; scope: 'heal' | 'remove-instances' | 'rollback-remove' }
  /** An instance's database users brought to one desired set (`digest`) after the users' change `generation`. */
  | { kind: 'sync-users'; instanceId: string; generation: number; digest: string }
  /** A TLS instance's fresh certificate, replacing the one that expires at `expiresAt` (ms epoch). */
  | { kind: 'renew-certificate'; instanceId: string; expiresAt: number }
  | { kind: 'sync-trust'; instanceId: string; digest: string }
  /** Memory, durability and eviction of one instance, in place (forward, or back after a cancel). */
  | { kind: 'configure'; instanceId: string; rollback: boolean }
  /** Form a new cluster. */
  | { kind: 'form'; clusterId: string }
  /** Move slots to their owners (the operation's target map, or back after a cancel). */
  | { kind: 'migrate'; rollback: boolean }
  /** Close slots left importing/migrating. */
  | { kind: 'repair-slots'; slots: number[] }
  /** Remove an engine no instance row wants. */
  | { kind: 'orphan'; instanceId: string }
  /** One host's share of a benchmark run. */
  | { kind: 'benchmark'; benchmarkId: string; host: number }
  /** A node's disk profile (fio, run by its agent). */
  | { kind: 'disk-profile'; profileId: string }
  /** One shard's snapshot of a backup (a retry reuses the key: failed runs are counted). */
  | { kind: 'backup-shard'; backupId: string; shard: number }
  /** A consistent backup's start (the write pause and every shard's BGSAVE). */
  | { kind: 'backup-consistent-start'; backupId: string }
  /** One read (or reset) of the slow logs on one node: every request its own. */
  | { kind: 'slowlog'; requestId: string; nodeId: string }
  /** One shard's part of a key scan. */
  | { kind: 'key-scan'; scanId: string; shard: number }
  /**
   * A restore into another layout: the keys of one backup file moved into the new cluster (one per create operation
   * and round: a new cluster's engine that restarted or failed over during the load starts a new round of every file).
   */
  | { kind: 'restore-keys'; backupShard: number; round: number }
  /** One instance's part of one stage of an in-place TLS switch (one per operation and stage). */
  | { kind: 'tls-switch'; instanceId: string; stage: string };

export type TaskKind = TaskId['kind'];

/** The dedupe key of a task. */
export function taskKey(t: TaskId): string {
  switch (t.kind) {
    case 'start': return `start:${t.instanceId}`;
    case 'restart': return `restart:${t.instanceId}:${t.crashedAt ?? 0}`;
    case 'promote': return `promote:${t.shard}:${t.fromInstanceId}:${t.crashedAt ?? 0}`;
    case 'switchover': return `switchover:${t.shard}:${t.fromInstanceId}`;
    case 'switchover-to': return `switchover:${t.instanceId}`;
    case 'join': return `join:${t.instanceId}:${t.primaryInstanceId}`;
    case 'meet': return `meet:${t.instanceId}`;
    case 'remove': return `remove:${t.instanceId}`;
    case 'restart-running': return `restart-running:${t.instanceId}`;
    case 'forget': return `forget:${t.scope}`;
    case 'sync-users': return `sync-users:${t.instanceId}:${t.generation}:${t.digest}`;
    case 'renew-certificate': return `renew-certificate:${t.instanceId}:${t.expiresAt}`;
    case 'sync-trust': return `sync-trust:${t.instanceId}:${t.digest}`;
    case 'configure': return `${t.rollback ? 'rollback-configure' : 'configure'}:${t.instanceId}`;
    case 'form': return `form:${t.clusterId}`;
    case 'migrate': return t.rollback ? 'migrate:rollback' : 'migrate:forward';
    case 'repair-slots': return `repair-slots:${t.slots.join(',')}`;
    case 'orphan': return `orphan:${t.instanceId}`;
    case 'benchmark': return `benchmark:${t.benchmarkId}:${t.host}`;
    case 'disk-profile': return `disk-profile:${t.profileId}`;
    case 'backup-shard': return `backup:${t.backupId}:${t.shard}`;
    case 'backup-consistent-start': return `backup:${t.backupId}:start`;
    case 'slowlog': return `slowlog:${t.requestId}:${t.nodeId}`;
    case 'key-scan': return `key-scan:${t.scanId}:${t.shard}`;
    case 'restore-keys': return t.round ? `restore-keys:${t.backupShard}:round-${t.round}` : `restore-keys:${t.backupShard}`;
    case 'tls-switch': return `tls-switch:${t.stage}:${t.instanceId}`;
  }
}

export type EventId =
  | { type: 'node-down'; clusterId: string; nodeId: string; silentSince: string }
  /** A restart the control plane ordered: the same crash as its `restart` task. */
  | { type: 'instance-restarted'; instanceId: string; crashedAt: number | null }
  /** A restart the agent did on its own (a crashed replica). */
  | { type: 'agent-restart'; instanceId: string; crashedAt: number }
  | { type: 'data-lost'; instanceId: string; crashedAt: number | null }
  | { type: 'replica-rebuilt'; lostInstanceId: string }
  /** A takeover always bumps the new primary's config epoch: one event per takeover, however many passes see it. */
  | { type: 'failover'; promotedInstanceId: string; configEpoch: number }
  | { type: 'primaries-rebalanced'; promotedInstanceId: string; configEpoch: number }
  | { type: 'switchover-operation'; operationId: string }
  | { type: 'slots-repaired'; taskId: string }
  /** One renewal: the instance and the expiry of the certificate it replaced. */
  | { type: 'certificate-rotated'; instanceId: string; previousExpiresAt: number }
  /** A backup completes or fails once. */
  | { type: 'backup-ended'; backupId: string }
  | { type: 'restore-completed'; clusterId: string }
  /** One stage of an in-place TLS switch done. */
  | { type: 'tls-switched'; operationId: string; stage: string };

/** The dedupe key of an event. */
export function eventKey(e: EventId): string {
  switch (e.type) {
    case 'node-down': return `node-down:${e.clusterId}:${e.nodeId}:${e.silentSince}`;
    case 'instance-restarted': return taskKey({ kind: 'restart', instanceId: e.instanceId, crashedAt: e.crashedAt });
    case 'agent-restart': return `agent-restart:${e.instanceId}:${e.crashedAt}`;
    case 'data-lost': return `data-lost:${e.instanceId}:${e.crashedAt ?? 0}`;
    case 'replica-rebuilt': return `replica-rebuilt:${e.lostInstanceId}`;
    case 'failover': return `failover:${e.promotedInstanceId}:${e.configEpoch}`;
    case 'primaries-rebalanced': return `primaries-rebalanced:${e.promotedInstanceId}:${e.configEpoch}`;
    case 'switchover-operation': return `switchover:${e.operationId}`;
    case 'slots-repaired': return `slots-repaired:${e.taskId}`;
    case 'certificate-rotated': return `certificate-rotated:${e.instanceId}:${e.previousExpiresAt}`;
    case 'backup-ended': return `backup-ended:${e.backupId}`;
    case 'restore-completed': return `restore-completed:${e.clusterId}`;
    case 'tls-switched': return `tls-switched:${e.operationId}:${e.stage}`;
  }
}
