import { describe, expect, it } from 'vitest';
import { certificateExpiryExposition } from './certificate-expiry.exposition';
import type { InstanceInfo } from './instance-directory';

const info = (id: string, clusterId: string, clusterName: string) => ({ id, clusterId, clusterName }) as InstanceInfo;
const dir = { get: (id: string) => ({ a1: info('a1', 'c-a', 'orders'), a2: info('a2', 'c-a', 'orders'), b1: info('b1', 'c-b', 'plain "x"') } as Record<string, InstanceInfo>)[id] };

describe('certificate expiry gauge', () => {
  it("is each cluster's earliest reported expiry in seconds; clusters without one are left out", () => {
    const text = certificateExpiryExposition([
      { instanceId: 'a1', clusterId: 'c-a', certificateExpiresAt: '2027-01-02T00:00:00.000Z' },
      { instanceId: 'a2', clusterId: 'c-a', certificateExpiresAt: '2026-12-31T00:00:00.000Z' },
      { instanceId: 'b1', clusterId: 'c-b', certificateExpiresAt: null },
      { instanceId: 'unknown', clusterId: 'c-a', certificateExpiresAt: '2020-01-01T00:00:00.000Z' },
    ], dir);
    expect(text).toContain('# TYPE strata_cluster_tls_certificate_expiry_timestamp_seconds gauge\n');
    expect(text).toContain(`strata_cluster_tls_certificate_expiry_timestamp_seconds{cluster="orders",cluster_id="c-a"} ${Date.UTC(2026, 11, 31) / 1000}\n`);
    expect(text).not.toContain('c-b');
  });

  it('is empty without a TLS cluster', () => {
    expect(certificateExpiryExposition([{ instanceId: 'b1', clusterId: 'c-b', certificateExpiresAt: undefined }], dir)).toBe('');
  });
});
