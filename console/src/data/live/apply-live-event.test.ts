import { beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import type { Cluster, ClusterList, Connection, Operation, OperationList } from '@strata/api';
import { clusterKeys } from '../clusters/keys';
import { applyLiveEvent } from './apply-live-event';
import { topologyPollMs } from '../clusters/cluster-topology-query';
import { isClusterDeleted, isLive, pollMs, resetLiveStore, setLive } from './live-store';

const cluster = (id: string, phase: Cluster['status']['phase'], createdAt = '2026-01-01T00:00:00Z'): Cluster => ({
  id, name: `c-${id}`, organizationId: 'o', generation: 1, observedGeneration: 1, createdAt, updatedAt: createdAt,
  spec: { shards: 1, replicasPerShard: 0, memoryMbPerShard: 32, durability: 'none', evictionPolicy: 'noeviction', fencing: 'off', migrationPriority: 'balanced', engineVersion: '7', maintenanceWindow: null, tls: 'off', tlsClientAuth: 'none' },
  status: { phase, conditions: [] },
});
const op = (id: string, clusterId: string, state: Operation['state']): Operation => ({
  id, clusterId, kind: 'delete-cluster', state, progress: 0.5, steps: [], createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z',
});

let qc: QueryClient;
beforeEach(() => {
  qc = new QueryClient();
  resetLiveStore();
});

describe('applyLiveEvent', () => {
  it('a cluster change updates the list and the page, and a deleting one drops its connection details', () => {
    qc.setQueryData<ClusterList>(clusterKeys.list(), { items: [cluster('a', 'ready'), cluster('b', 'ready')] });
    qc.setQueryData(clusterKeys.detail('a'), cluster('a', 'ready'));
    qc.setQueryData<Connection>(clusterKeys.connection('a'), { uri: 'redis://x', seeds: [], username: 'u', password: 'p', endpoint: null, tls: 'off', tlsClientAuth: 'none', caCertificate: null, tlsUri: null, tlsServed: 'plain' });
    applyLiveEvent(qc, { type: 'cluster', cluster: cluster('a', 'deleting') }, { reconnected: false });
    expect(qc.getQueryData<Cluster>(clusterKeys.detail('a'))?.status.phase).toBe('deleting');
    expect(qc.getQueryData<ClusterList>(clusterKeys.list())?.items.map((c) => c.status.phase)).toEqual(['deleting', 'ready']);
    expect(qc.getQueryData(clusterKeys.connection('a'))).toBeUndefined();
  });

  it('a topology change (a failover, a shard removed) makes the seeds and snippets stale along with the topology', () => {
    qc.setQueryData<Connection>(clusterKeys.connection('a'), { uri: 'redis://x', seeds: ['h:7996'], username: 'u', password: 'p', endpoint: null, tls: 'off', tlsClientAuth: 'none', caCertificate: null, tlsUri: null, tlsServed: 'plain' });
    qc.setQueryData(clusterKeys.topology('a'), { shards: [] });
    applyLiveEvent(qc, { type: 'topology', clusterId: 'a' }, { reconnected: false });
    expect(qc.getQueryState(clusterKeys.connection('a'))?.isInvalidated).toBe(true);
    expect(qc.getQueryState(clusterKeys.topology('a'))?.isInvalidated).toBe(true);
  });

  it('a new cluster from another tab joins the list, newest first', () => {
    qc.setQueryData<ClusterList>(clusterKeys.list(), { items: [cluster('a', 'ready', '2026-01-01T00:00:00Z')] });
    applyLiveEvent(qc, { type: 'cluster', cluster: cluster('n', 'provisioning', '2026-02-01T00:00:00Z') }, { reconnected: false });
    expect(qc.getQueryData<ClusterList>(clusterKeys.list())?.items.map((c) => c.id)).toEqual(['n', 'a']);
  });

  it('a deleted cluster leaves the list and is never asked for again', () => {
    qc.setQueryData<ClusterList>(clusterKeys.list(), { items: [cluster('a', 'deleting')] });
    qc.setQueryData(clusterKeys.detail('a'), cluster('a', 'deleting'));
    applyLiveEvent(qc, { type: 'cluster-deleted', clusterId: 'a' }, { reconnected: false });
    expect(qc.getQueryData<ClusterList>(clusterKeys.list())?.items).toEqual([]);
    expect(qc.getQueryData(clusterKeys.detail('a'))).toBeUndefined();
    expect(isClusterDeleted('a')).toBe(true);
  });

  it('a list read already on its way when a cluster is deleted cannot bring the cluster back', async () => {
    let calls = 0;
    let answerStale!: () => void;
    const fetchList = () => {
      calls++;
      // The first read left before the delete and answers with the cluster still there; the restarted one after it.
      if (calls === 1) return new Promise<ClusterList>((resolve) => { answerStale = () => resolve({ items: [cluster('a', 'deleting')] }); });
      return Promise.resolve<ClusterList>({ items: [] });
    };
    // The list page is open (an observer), its first read on its way.
    const unsubscribe = new QueryObserver(qc, { queryKey: clusterKeys.list(), queryFn: fetchList }).subscribe(() => {});
    await vi.waitFor(() => expect(calls).toBe(1));
    applyLiveEvent(qc, { type: 'cluster-deleted', clusterId: 'a' }, { reconnected: false });
    answerStale();
    await vi.waitFor(() => expect(calls).toBe(2));
    await vi.waitFor(() => expect(qc.getQueryData<ClusterList>(clusterKeys.list())?.items).toEqual([]));
    unsubscribe();
  });

  it('operations are replaced in place or prepended', () => {
    qc.setQueryData<OperationList>(clusterKeys.operations('a'), { items: [op('1', 'a', 'succeeded')] });
    applyLiveEvent(qc, { type: 'operation', operation: op('2', 'a', 'running') }, { reconnected: false });
    applyLiveEvent(qc, { type: 'operation', operation: op('2', 'a', 'succeeded') }, { reconnected: false });
    expect(qc.getQueryData<OperationList>(clusterKeys.operations('a'))?.items.map((o) => `${o.id}:${o.state}`)).toEqual(['2:succeeded', '1:succeeded']);
  });

  it('polling slows to a fallback while the stream is live', () => {
    expect(pollMs(1000)).toBe(1000);
    setLive(true);
    expect(isLive()).toBe(true);
    expect(pollMs(1000)).toBe(30_000);
  });
});

describe('resync', () => {
  it('every resync, the first of a page load too, re-reads what was read before the stream subscribed', async () => {
    let reads = 0;
    const observer = new QueryObserver(qc, { queryKey: clusterKeys.list(), queryFn: async () => ({ items: [cluster(String(++reads), 'ready')] }) });
    const unsubscribe = observer.subscribe(() => {});
    await vi.waitFor(() => expect(qc.getQueryData<ClusterList>(clusterKeys.list())?.items[0]?.id).toBe('1'));
    applyLiveEvent(qc, { type: 'resync' }, { reconnected: false });
    await vi.waitFor(() => expect(reads).toBe(2));
    await vi.waitFor(() => expect(qc.getQueryData<ClusterList>(clusterKeys.list())?.items[0]?.id).toBe('2'));
    unsubscribe();
  });
});

describe('topologyPollMs', () => {
  it('never polls a cluster being deleted or gone; fast while changing; the 30 s fallback at rest while live', () => {
    expect(topologyPollMs({ gone: false, phase: 'deleting', fast: true })).toBe(false);
    expect(topologyPollMs({ gone: true, phase: 'ready', fast: false })).toBe(false);
    expect(topologyPollMs({ gone: false, phase: 'provisioning', fast: true })).toBe(1000);
    setLive(true);
    expect(topologyPollMs({ gone: false, phase: 'ready', fast: false })).toBe(30_000);
  });
});
