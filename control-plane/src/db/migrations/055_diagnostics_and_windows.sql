-- Key scans (diagnostics): one task per shard; `shards` holds each shard's plan (instance, address)
-- and, once the scan ends, what it found. One running scan per cluster.
CREATE TABLE key_scans (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL,
  cluster_id uuid NOT NULL REFERENCES clusters(id) ON DELETE CASCADE,
  status text NOT NULL CHECK (status IN ('running', 'completed', 'failed')),
  params jsonb NOT NULL,
  hot_keys jsonb NOT NULL,
  shards jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE UNIQUE INDEX key_scans_one_running_per_cluster ON key_scans (cluster_id) WHERE status = 'running';
CREATE INDEX key_scans_by_cluster ON key_scans (cluster_id, created_at DESC);

-- An operation waiting for its cluster's maintenance window: when that window opens.
ALTER TABLE operations ADD COLUMN starts_at timestamptz;
