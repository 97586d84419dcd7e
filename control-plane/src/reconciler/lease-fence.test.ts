/**
 * Write fencing with fakes: a write runs only after its transaction found the
 * lease still held, and a worker whose lease was taken over stops acting on
 * the cluster (logged, its memory of the cluster dropped, nothing written,
 * the other holder's lease left alone) instead of failing. The same rule
 * against PostgreSQL: reconciler-store.int.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { Logger } from 'pino';
import { fencedTransaction, LeaseLost } from './lease-fence';
import { Reconciler } from './reconciler';
import type { ReconcileDeps } from './cluster-context';
import type { ClusterLease } from '../stores/cluster.store';
import { ObservedState } from '../observed/observed-state';

const lease: ClusterLease = { clusterId: 'c', owner: 'cp-a', epoch: '7' };

describe('fencedTransaction', () => {
  it('checks the lease first in the same transaction, and runs the writes only while it is held', async () => {
    const log: string[] = [];
    let holder = 'cp-a:7';
    const holds = async (l: ClusterLease, db: unknown) => {
      log.push(`check ${String(db)}`);
      return holder === `${l.owner}:${l.epoch}`;
    };
    const tx = <T>(fn: (db: never) => Promise<T>) => { log.push('begin'); return fn('tx' as never).finally(() => log.push('end')); };
    const write = fencedTransaction(lease, holds, tx);

    expect(await write(async (db) => { log.push(`write ${String(db)}`); return 1; })).toBe(1);
    expect(log).toEqual(['begin', 'check tx', 'write tx', 'end']);

    log.length = 0;
    holder = 'cp-b:8';
    await expect(write(async () => { log.push('write'); })).rejects.toBeInstanceOf(LeaseLost);
    expect(log).toEqual(['begin', 'check tx', 'end']);
  });
});

describe('a worker whose lease was taken over', () => {
  it('writes nothing, logs it, releases nothing and keeps running for other clusters', async () => {
    const saved: unknown[] = [];
    const released: ClusterLease[] = [];
    const warnings: { msg: string; clusterId?: string }[] = [];
    const errors: unknown[] = [];
    let leased = false;
    const cluster = { id: 'c', name: 'c', organizationId: 'o', spec: { tls: 'off' }, status: { phase: 'provisioning', conditions: [] }, reconcileRequests: '1', endpointPort: null };
    const deps = {
      clusters: {
        // Leased once: a pass reads the cluster, then the lease is found taken over when it writes.
        leaseForReconcile: async () => (leased ? [] : (leased = true, [lease])),
        get: async () => cluster,
        instances: async () => [], lostInstances: async () => [], shards: async () => [],
        holdsLease: async () => false,
        renewLease: async () => false,
        releaseLease: async (l: ClusterLease) => { released.push(l); },
        markAllNeedReconcile: async () => 0,
      },
      nodes: { list: async () => [] },
      tasks: { latestByKey: async () => new Map() },
      // An operation this pass would end (an unknown kind fails): its save is the write the fence refuses.
      operations: { active: async () => ({ id: 'op', kind: 'no-such-kind', state: 'running', steps: [], progress: 0 }), save: async (op: unknown) => { saved.push(op); return true; } },
      events: {}, observed: new ObservedState(), box: {}, notifyNode: () => {},
      healing: { fastFailover: true, failoverGraceMs: 0, rebalanceAfterMs: 0 }, nodeDownAfterMs: 15_000,
      transaction: <T>(fn: (db: never) => Promise<T>) => fn('tx' as never),
      log: {
        warn: (o: { clusterId?: string }, msg: string) => warnings.push({ msg, clusterId: o.clusterId }),
        error: (o: unknown) => errors.push(o), info: () => {},
      } as unknown as Logger,
      timings: { tickMs: 60_000, sweepMs: 60_000 },
    } as unknown as ReconcileDeps & { log: Logger };
    const r = new Reconciler(deps);
    r.start();
    try {
      await expect.poll(() => warnings.length, { timeout: 2000 }).toBe(1);
      expect(warnings[0]).toEqual({ clusterId: 'c', msg: expect.stringMatching(/lost the cluster's reconcile lease/) });
      expect(saved).toEqual([]);
      expect(released).toEqual([]);
      expect(errors).toEqual([]);
      await expect.poll(() => (r as unknown as { workers: Map<string, unknown> }).workers.size).toBe(0);
    } finally {
      await r.stop();
    }
  });
});
