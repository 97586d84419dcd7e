/**
 * Backups in the control plane's /metrics, per cluster (its last completed
 * backup): when it finished, how long it took and how large it was. A
 * deleted cluster's series go with it; imports belong to no cluster.
 */
import client from 'prom-client';
import type { BackupStore } from './backup.store';

type Row = Awaited<ReturnType<BackupStore['lastCompletedPerCluster']>>[number];

const LABELS = ['cluster', 'cluster_id'] as const;

export function registerBackupMetrics(registry: client.Registry, store: Pick<BackupStore, 'lastCompletedPerCluster'>): void {
  // A scrape collects every metric at once: the three gauges share one query.
  let pending: Promise<Row[]> | null = null;
  const rows = () => (pending ??= store.lastCompletedPerCluster().finally(() => { pending = null; }));
  const gauge = (name: string, help: string, value: (r: Row) => number) => new client.Gauge({
    name, help, labelNames: LABELS, registers: [registry],
    async collect() {
      const all = await rows();
      this.reset();
      for (const r of all) this.set({ cluster: r.clusterName, cluster_id: r.clusterId }, value(r));
    },
  });
  gauge('strata_backup_last_success_timestamp_seconds', "When the cluster's last completed backup finished (seconds since the epoch).", (r) => r.finishedAt.getTime() / 1000);
  gauge('strata_backup_last_success_duration_seconds', "Duration of the cluster's last completed backup, from its start to its manifest.", (r) => r.durationSeconds);
  gauge('strata_backup_last_success_size_bytes', "Size of the cluster's last completed backup (every shard's file).", (r) => r.bytes);
}
