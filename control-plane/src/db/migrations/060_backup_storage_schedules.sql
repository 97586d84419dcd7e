-- S3-compatible backup storage per organization. Access key pairs are sealed (AES-GCM, like cluster secrets) in
-- rows that are never changed: a backup's storage ref names the pair it was written with, so changing the
-- organization's storage later leaves older backups readable and deletable.
CREATE TABLE backup_storage_credentials (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL,
  sealed text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE backup_storage_configs (
  organization_id uuid PRIMARY KEY,
  ref jsonb NOT NULL,
  access_key_hint text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- When a cluster is backed up and how long its backups are kept. Deleted with its cluster; its backups keep
-- their expires_at (retention by age goes on after the cluster is gone).
CREATE TABLE backup_schedules (
  cluster_id uuid PRIMARY KEY REFERENCES clusters(id) ON DELETE CASCADE,
  organization_id uuid NOT NULL,
  schedule jsonb NOT NULL,
  next_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

ALTER TABLE backups
  ADD COLUMN trigger text NOT NULL DEFAULT 'manual' CHECK (trigger IN ('manual', 'schedule')),
  ADD COLUMN expires_at timestamptz,
  -- A failed or cancelled backup's objects are removed once none of its tasks still runs.
  ADD COLUMN files_removed boolean NOT NULL DEFAULT false,
  -- Consistent backups: what the pause measured and each shard's snapshot (rdb_saves before it).
  ADD COLUMN consistent_start jsonb;
CREATE INDEX backups_expiring ON backups (expires_at) WHERE expires_at IS NOT NULL;
