/**
 * Prometheus gauge of each TLS cluster's earliest certificate expiry: the
 * soonest notAfter among the certificates its instances serve, as their
 * agents report it (pure code). An alert on `... - time() < 7 * 86400`
 * catches a rotation that does not take.
 */
import type { ObservedInstance } from '@strata/api';
import { earliestCertificateExpiry } from '@strata/engine';
import type { InstanceDirectory } from './instance-directory';

export const CERTIFICATE_EXPIRY_GAUGE = 'strata_cluster_tls_certificate_expiry_timestamp_seconds';

const esc = (v: string) => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');

/** The family's text (empty without a TLS cluster): one sample per cluster whose instances report an expiry. */
export function certificateExpiryExposition(instances: Iterable<Pick<ObservedInstance, 'instanceId' | 'clusterId' | 'certificateExpiresAt'>>, dir: Pick<InstanceDirectory, 'get'>): string {
  const byCluster = new Map<string, { name: string; expiries: { certificateExpiresAt: number | null }[] }>();
  for (const i of instances) {
    const info = dir.get(i.instanceId);
    if (!info || !i.certificateExpiresAt) continue;
    const c = byCluster.get(info.clusterId) ?? { name: info.clusterName, expiries: [] };
    c.expiries.push({ certificateExpiresAt: Date.parse(i.certificateExpiresAt) });
    byCluster.set(info.clusterId, c);
  }
  if (!byCluster.size) return '';
  const lines = [...byCluster].map(([id, c]) => `${CERTIFICATE_EXPIRY_GAUGE}{cluster="${esc(c.name)}",cluster_id="${esc(id)}"} ${Math.floor(earliestCertificateExpiry(c.expiries)! / 1000)}`);
  return `# HELP ${CERTIFICATE_EXPIRY_GAUGE} When the first certificate an instance of the cluster serves expires (seconds since the epoch).\n`
    + `# TYPE ${CERTIFICATE_EXPIRY_GAUGE} gauge\n${lines.join('\n')}\n`;
}
