-- Benchmarks (issue 10): one row per run; at most one active run per cluster.
CREATE TABLE benchmarks (
  id uuid PRIMARY KEY,
  cluster_id uuid NOT NULL REFERENCES clusters(id) ON DELETE CASCADE,
  organization_id uuid NOT NULL REFERENCES organizations(id),
  workload text NOT NULL,
  state text NOT NULL CHECK (state IN ('pending', 'loading', 'warmup', 'running', 'succeeded', 'failed', 'cancelled')),
  progress double precision NOT NULL DEFAULT 0,
  detail text,
  request jsonb NOT NULL,
  result jsonb,
  -- raw histograms for export: merged per op and per-second interval logs (HdrHistogram compressed base64)
  histograms jsonb,
  error jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz
);
CREATE UNIQUE INDEX benchmarks_one_active ON benchmarks (cluster_id) WHERE state IN ('pending', 'loading', 'warmup', 'running');
CREATE INDEX benchmarks_cluster_created ON benchmarks (cluster_id, created_at DESC);
