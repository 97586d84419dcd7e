/**
 * The audit log's vocabulary: each recorded action (METHOD and route, as
 * stored) as a stable kind ("cluster.delete"), words for people ("Deleted
 * cluster") and the type of resource it acts on. Sign-ins are recorded by
 * the session routes under their own actions. One place names them all: the
 * API's `kind`, `summary` and filters, and the console, read it.
 */
export const AUDIT_RESOURCE_TYPES = ['cluster', 'node', 'user', 'token', 'organization', 'benchmark', 'operation', 'session', 'alert-rule', 'notification-channel', 'backup'] as const;
export type AuditResourceType = (typeof AUDIT_RESOURCE_TYPES)[number];

export interface AuditActionInfo {
  kind: string;
  /** Past tense, followed by the resource's name when there is one: "Deleted cluster orders-cache". */
  label: string;
  resource: AuditResourceType;
}

/** The actions the session routes record (not routes a principal calls). */
export const SIGN_IN = 'SIGN-IN';
export const SIGN_IN_FAILED = 'SIGN-IN-FAILED';
export const SIGN_OUT = 'SIGN-OUT';

export const AUDIT_ACTIONS: Record<string, AuditActionInfo> = {
  'POST /v1/clusters': { kind: 'cluster.create', label: 'Created cluster', resource: 'cluster' },
  'PATCH /v1/clusters/:id': { kind: 'cluster.change', label: 'Changed cluster', resource: 'cluster' },
  'POST /v1/clusters/:id/shards/:index/switchover': { kind: 'cluster.switchover', label: 'Switched over a shard of cluster', resource: 'cluster' },
  'DELETE /v1/clusters/:id': { kind: 'cluster.delete', label: 'Deleted cluster', resource: 'cluster' },
  'POST /v1/clusters/:id/tls/rotate-ca': { kind: 'cluster.rotate-ca', label: 'Started a CA rotation of cluster', resource: 'cluster' },
  'POST /v1/clusters/:id/restart': { kind: 'cluster.restart', label: 'Started a rolling restart of cluster', resource: 'cluster' },
  'POST /v1/clusters/:id/users': { kind: 'database-user.create', label: 'Added a database user to cluster', resource: 'cluster' },
  'POST /v1/clusters/:id/users/:name/rotate': { kind: 'database-user.rotate', label: 'Rotated the password of a database user of cluster', resource: 'cluster' },
  'DELETE /v1/clusters/:id/users/:name': { kind: 'database-user.delete', label: 'Deleted a database user of cluster', resource: 'cluster' },
  'POST /v1/clusters/:id/client-certificates': { kind: 'client-certificate.create', label: 'Issued a client certificate for cluster', resource: 'cluster' },
  'POST /v1/clusters/:id/client-certificates/:certificateId/revoke': { kind: 'client-certificate.revoke', label: 'Revoked a client certificate of cluster', resource: 'cluster' },
  'POST /v1/clusters/:id/diagnostics/slowlog/reset': { kind: 'cluster.slowlog-reset', label: 'Emptied the slow log of cluster', resource: 'cluster' },
  'POST /v1/clusters/:id/diagnostics/key-scans': { kind: 'cluster.key-scan', label: 'Started a key scan of cluster', resource: 'cluster' },
  'POST /v1/clusters/:id/backups': { kind: 'backup.start', label: 'Started a backup of cluster', resource: 'cluster' },
  'PUT /v1/clusters/:id/backup-schedule': { kind: 'backup.schedule', label: 'Set the backup schedule of cluster', resource: 'cluster' },
  'DELETE /v1/clusters/:id/backup-schedule': { kind: 'backup.unschedule', label: 'Removed the backup schedule of cluster', resource: 'cluster' },
  'POST /v1/backups/import': { kind: 'backup.import', label: 'Imported a backup from a running Redis', resource: 'organization' },
  'POST /v1/backups/upload': { kind: 'backup.upload', label: 'Uploaded an RDB file as a backup', resource: 'organization' },
  'POST /v1/backups/:id/cancel': { kind: 'backup.cancel', label: 'Cancelled a backup', resource: 'backup' },
  'DELETE /v1/backups/:id': { kind: 'backup.delete', label: 'Deleted a backup', resource: 'backup' },
  'PUT /v1/backup-storage': { kind: 'backup.storage-set', label: 'Set the backup storage', resource: 'organization' },
  'DELETE /v1/backup-storage': { kind: 'backup.storage-reset', label: 'Reset the backup storage to the local directory', resource: 'organization' },
  'POST /v1/clusters/:id/benchmarks': { kind: 'benchmark.start', label: 'Started a benchmark on cluster', resource: 'cluster' },
  'POST /v1/benchmarks/:id/cancel': { kind: 'benchmark.cancel', label: 'Cancelled benchmark', resource: 'benchmark' },
  'POST /v1/operations/:id/pause': { kind: 'operation.pause', label: 'Paused a change', resource: 'operation' },
  'POST /v1/operations/:id/resume': { kind: 'operation.resume', label: 'Resumed a change', resource: 'operation' },
  'POST /v1/operations/:id/cancel': { kind: 'operation.cancel', label: 'Cancelled a change', resource: 'operation' },
  'POST /v1/clusters/:id/alert-rules': { kind: 'alert-rule.create', label: 'Added an alert rule to cluster', resource: 'cluster' },
  'POST /v1/alert-rules': { kind: 'alert-rule.create-org', label: 'Added an organization alert rule', resource: 'alert-rule' },
  'PATCH /v1/alert-rules/:id': { kind: 'alert-rule.change', label: 'Changed alert rule', resource: 'alert-rule' },
  'DELETE /v1/alert-rules/:id': { kind: 'alert-rule.delete', label: 'Deleted alert rule', resource: 'alert-rule' },
  'POST /v1/notification-channels': { kind: 'notification-channel.create', label: 'Added notification channel', resource: 'notification-channel' },
  'DELETE /v1/notification-channels/:id': { kind: 'notification-channel.delete', label: 'Deleted notification channel', resource: 'notification-channel' },
  'POST /v1/notification-channels/:id/test': { kind: 'notification-channel.test', label: 'Sent a test notification to channel', resource: 'notification-channel' },
  'POST /v1/nodes/:id/drain': { kind: 'node.drain', label: 'Drained node', resource: 'node' },
  'POST /v1/nodes/:id/undrain': { kind: 'node.undrain', label: 'Undrained node', resource: 'node' },
  'POST /v1/nodes/:id/revoke-credential': { kind: 'node.revoke-credential', label: "Revoked node's credential", resource: 'node' },
  'POST /v1/nodes/:id/profiles': { kind: 'node.profile', label: 'Started a disk profile of node', resource: 'node' },
  'POST /v1/profiles/:id/cancel': { kind: 'node.profile-cancel', label: 'Cancelled a disk profile', resource: 'node' },
  'POST /v1/nodes/join-tokens': { kind: 'node.join-token', label: 'Created a node join token', resource: 'node' },
  'POST /v1/organizations': { kind: 'organization.create', label: 'Created organization', resource: 'organization' },
  'POST /v1/users': { kind: 'user.create', label: 'Added user', resource: 'user' },
  'PATCH /v1/users/:id': { kind: 'user.change', label: 'Changed user', resource: 'user' },
  'POST /v1/tokens': { kind: 'token.create', label: 'Created API token', resource: 'token' },
  'DELETE /v1/tokens/:id': { kind: 'token.revoke', label: 'Revoked API token', resource: 'token' },
  [SIGN_IN]: { kind: 'session.sign-in', label: 'Signed in', resource: 'session' },
  [SIGN_IN_FAILED]: { kind: 'session.sign-in-failed', label: 'Failed to sign in', resource: 'session' },
  [SIGN_OUT]: { kind: 'session.sign-out', label: 'Signed out', resource: 'session' },
};

/** The kind and words of a stored action; an action not in the table keeps its route as its words. */
export function auditActionOf(action: string): AuditActionInfo {
  return AUDIT_ACTIONS[action] ?? { kind: 'other', label: action, resource: 'cluster' };
}

/** The stored actions of a kind ("cluster.delete") or of every kind under a prefix ("cluster"). */
export function auditActionsOfKind(kind: string): string[] {
  return Object.entries(AUDIT_ACTIONS).filter(([, a]) => a.kind === kind || a.kind.startsWith(`${kind}.`)).map(([action]) => action);
}

/** "Deleted cluster orders-cache (dry run)". */
export function auditSummary(action: string, resourceName: string | null, dryRun: boolean): string {
  const a = auditActionOf(action);
  const named = resourceName && a.resource !== 'session' ? `${a.label} ${resourceName}` : a.label;
  return dryRun ? `${named} (dry run: nothing changed)` : named;
}

/** Every kind, for a filter's menu: [kind, label]. */
export const AUDIT_KINDS: readonly (readonly [string, string])[] = Object.values(AUDIT_ACTIONS).map((a) => [a.kind, a.label] as const);
