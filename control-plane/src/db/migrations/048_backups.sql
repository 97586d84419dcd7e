-- Backups: one snapshot per shard plus a manifest in the backup's storage. A backup outlives its
-- cluster (no foreign key); `shards` holds each shard's plan (source instance, object key).
CREATE TABLE backups (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL,
  cluster_id uuid NOT NULL,
  cluster_name text NOT NULL,
  status text NOT NULL CHECK (status IN ('running', 'completed', 'failed')),
  consistent boolean NOT NULL DEFAULT false,
  storage jsonb NOT NULL,
  shards jsonb NOT NULL,
  manifest jsonb,
  error jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE UNIQUE INDEX backups_one_running_per_cluster ON backups (cluster_id) WHERE status = 'running';
CREATE INDEX backups_by_cluster ON backups (cluster_id, created_at DESC);

-- A cluster created from a backup: each primary's first start loads its shard's file.
CREATE TABLE cluster_restores (
  cluster_id uuid PRIMARY KEY REFERENCES clusters(id) ON DELETE CASCADE,
  backup_id uuid NOT NULL,
  seeds jsonb NOT NULL
);
