-- Node I/O profiles: one row per fio run on a node's data volume; at most one running per node.
CREATE TABLE disk_profiles (
  id uuid PRIMARY KEY,
  node_id uuid NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,
  status text NOT NULL CHECK (status IN ('running', 'completed', 'failed', 'cancelled')),
  preset text,
  request jsonb NOT NULL,
  workloads jsonb NOT NULL,
  progress double precision NOT NULL DEFAULT 0,
  detail text,
  facts jsonb,
  results jsonb NOT NULL DEFAULT '[]',
  advice jsonb,
  clusters jsonb NOT NULL DEFAULT '[]',
  error jsonb,
  cancel_requested boolean NOT NULL DEFAULT false,
  last_report_at timestamptz NOT NULL DEFAULT now(),
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE UNIQUE INDEX disk_profiles_one_running ON disk_profiles (node_id) WHERE status = 'running';
CREATE INDEX disk_profiles_node_created ON disk_profiles (node_id, created_at DESC);
