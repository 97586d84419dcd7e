-- Live metrics history (issue 9). Partitioned by time so retention drops whole
-- partitions: 1 s points in hourly partitions, 1 min rollups in daily ones.
-- The control plane creates partitions ahead of time and drops expired ones.
-- Rates are per second, latency in microseconds, memory/lag/net in bytes.

CREATE TABLE metric_instance_1s (
  ts timestamptz NOT NULL,
  instance_id uuid NOT NULL,
  cluster_id uuid NOT NULL,
  shard smallint NOT NULL,
  is_primary boolean NOT NULL,
  ops_read real, ops_write real, ops_other real,
  latency_p50 real, latency_p95 real, latency_p99 real, latency_p999 real,
  clients real, memory_used double precision, memory_max double precision, keys double precision,
  evictions real, expirations real, hits real, misses real, repl_lag double precision,
  net_in real, net_out real, cpu real
) PARTITION BY RANGE (ts);
CREATE INDEX metric_instance_1s_cluster_ts ON metric_instance_1s (cluster_id, ts);

CREATE TABLE metric_instance_1m (LIKE metric_instance_1s) PARTITION BY RANGE (ts);
CREATE INDEX metric_instance_1m_cluster_ts ON metric_instance_1m (cluster_id, ts);

CREATE TABLE metric_node_1s (
  ts timestamptz NOT NULL,
  node_id uuid NOT NULL,
  cpu real, memory_total double precision, memory_available double precision,
  disk_total double precision, disk_free double precision
) PARTITION BY RANGE (ts);
CREATE INDEX metric_node_1s_node_ts ON metric_node_1s (node_id, ts);

CREATE TABLE metric_node_1m (LIKE metric_node_1s) PARTITION BY RANGE (ts);
CREATE INDEX metric_node_1m_node_ts ON metric_node_1m (node_id, ts);
