import { describe, expect, it } from 'vitest';
import client from 'prom-client';
import { registerBackupMetrics } from './backup.metrics';

describe('backup metrics', () => {
  it('one query per scrape sets the three gauges of every cluster; a cluster gone from the rows leaves no series', async () => {
    const registry = new client.Registry();
    let queries = 0;
    let rows = [
      { clusterId: 'c1', clusterName: 'orders', finishedAt: new Date(1_764_000_000_500), durationSeconds: 2.25, bytes: 4096 },
      { clusterId: 'c2', clusterName: 'carts', finishedAt: new Date(1_764_000_100_000), durationSeconds: 1, bytes: 10 },
    ];
    registerBackupMetrics(registry, { lastCompletedPerCluster: async () => { queries++; return rows; } });
    const text = await registry.metrics();
    expect(queries).toBe(1);
    expect(text).toContain('strata_backup_last_success_timestamp_seconds{cluster="orders",cluster_id="c1"} 1764000000.5');
    expect(text).toContain('strata_backup_last_success_duration_seconds{cluster="orders",cluster_id="c1"} 2.25');
    expect(text).toContain('strata_backup_last_success_size_bytes{cluster="carts",cluster_id="c2"} 10');
    rows = rows.slice(0, 1);
    const again = await registry.metrics();
    expect(queries).toBe(2);
    expect(again).not.toContain('cluster_id="c2"');
  });
});
