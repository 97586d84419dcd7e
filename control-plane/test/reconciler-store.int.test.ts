/**
 * The reconciler's guarantees that live in PostgreSQL, against a real one:
 * typed tasks checked at enqueue and owned by an operation, operation rows
 * that only move forward, reconcile requests that are never lost, events
 * recorded once, and an unknown operation kind failing loudly.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedPostgres } from './helpers/migrated-postgres';
import { TaskStore } from '../src/stores/task.store';
import { OperationStore } from '../src/stores/operation.store';
import { ClusterStore, type ClusterLease } from '../src/stores/cluster.store';
import { inTransaction } from '../src/db/tx';
import { fencedTransaction, LeaseLost } from '../src/reconciler/lease-fence';
import { EventStore } from '../src/stores/event.store';
import { NodeStore } from '../src/stores/node.store';
import { ObservedState } from '../src/observed/observed-state';
import { SecretBox } from '../src/crypto/secret-box';
import { Reconciler } from '../src/reconciler/reconciler';

const dir = mkdtempSync(path.join(os.tmpdir(), 'strata-reconciler-store-'));
let stopPg: () => Promise<void>;
let pool: pg.Pool;
let org: string;
let node: string;

beforeAll(async () => {
  ({ pool, stop: stopPg } = await migratedPostgres(dir));
  org = randomUUID();
  node = randomUUID();
  await pool.query(`INSERT INTO organizations (id, name) VALUES ($1, 'o')`, [org]);
  await pool.query(`INSERT INTO nodes (id, name, address, memory_mb, credential_hash) VALUES ($1, 'n', '127.0.0.1', 64, 'h')`, [node]);
});
afterAll(async () => {
  await stopPg?.();
  rmSync(dir, { recursive: true, force: true });
});

async function cluster(): Promise<string> {
  const id = randomUUID();
  await new ClusterStore(pool).insert({
    id, organizationId: org, name: `c-${id.slice(0, 8)}`, status: { phase: 'provisioning', conditions: [] }, secretsEnc: 'x',
    spec: { shards: 1, replicasPerShard: 0, memoryMbPerShard: 64, durability: 'none', evictionPolicy: 'noeviction', fencing: 'off', migrationPriority: 'balanced', engineVersion: '7', maintenanceWindow: null, tls: 'off', tlsClientAuth: 'none' },
  }, pool);
  return id;
}

describe('tasks', () => {
  it('a malformed task never reaches the queue', async () => {
    const tasks = new TaskStore(pool);
    const clusterId = await cluster();
    await expect(tasks.enqueue({ nodeId: node, clusterId, operationId: null, dedupeKey: 'x', request: { kind: 'failover', clusterId } as never })).rejects.toThrow();
    await expect(tasks.enqueue({ nodeId: node, clusterId, operationId: null, dedupeKey: 'y', request: { kind: 'format-disk' } as never })).rejects.toThrow();
    expect((await pool.query('SELECT count(*)::int AS n FROM tasks WHERE cluster_id = $1', [clusterId])).rows[0].n).toBe(0);
  });

  it('dedupe keys belong to their operation; progress and a typed result are kept', async () => {
    const tasks = new TaskStore(pool);
    const clusterId = await cluster();
    const request = { kind: 'remove-instance' as const, instanceId: randomUUID(), clusterId };
    const [opA, opB] = [randomUUID(), randomUUID()];
    expect(await tasks.enqueue({ nodeId: node, clusterId, operationId: opA, dedupeKey: 'remove:1', request })).toBe(true);
    expect(await tasks.enqueue({ nodeId: node, clusterId, operationId: opA, dedupeKey: 'remove:1', request })).toBe(false);
    expect(await tasks.enqueue({ nodeId: node, clusterId, operationId: opB, dedupeKey: 'remove:1', request })).toBe(true);
    expect(await tasks.enqueue({ nodeId: node, clusterId, operationId: null, dedupeKey: 'remove:1', request })).toBe(true);
    expect([...(await tasks.latestByKey(clusterId, opA)).values()].map((t) => t.operationId)).toEqual([opA]);

    const leased = (await tasks.lease(node, 5000))!;
    expect(await tasks.progress(leased.id, node, 0.5, 'half way')).toBe(true);
    expect((await pool.query('SELECT progress, progress_detail FROM tasks WHERE id = $1', [leased.id])).rows[0]).toEqual({ progress: 0.5, progress_detail: 'half way' });
    const done = await tasks.complete(leased.id, node, 'succeeded', undefined, { kind: 'repair-slots', repaired: [{ slot: 7, movedKeys: 2 }] });
    expect(done).toMatchObject({ state: 'succeeded', progress: 1, result: { kind: 'repair-slots', repaired: [{ slot: 7, movedKeys: 2 }] } });
    // Progress from a node that does not hold the lease is refused.
    expect(await tasks.progress(leased.id, randomUUID(), 0.9)).toBe(false);
  });
});

describe('operations and reconcile requests', () => {
  it('a finished operation is never written again, and progress never goes back', async () => {
    const ops = new OperationStore(pool);
    const clusterId = await cluster();
    const op = await ops.create({ clusterId, organizationId: org, kind: 'create-cluster', steps: [] }, pool);
    expect(await ops.save({ ...op, state: 'running', progress: 0.6 })).toBe(true);
    expect(await ops.save({ ...op, state: 'running', progress: 0.2 })).toBe(true);
    expect((await ops.get(op.id))!.progress).toBeCloseTo(0.6);
    await ops.cancelActive(clusterId, 'deleted', pool);
    expect(await ops.save({ ...op, state: 'succeeded', progress: 1 })).toBe(false);
    expect((await ops.get(op.id))!.state).toBe('cancelled');
  });

  it('needs_reconcile is cleared only when nothing asked for work since the pass began', async () => {
    const clusters = new ClusterStore(pool);
    const id = await cluster();
    const owner = 'test-owner';
    const leaseOf = async () => (await clusters.leaseForReconcile(owner, 5000, 100, [])).find((l) => l.clusterId === id)!;
    const first = await leaseOf();
    expect(first).toBeDefined();
    const seen = (await clusters.get(id))!.reconcileRequests;
    await clusters.markNeedsReconcile(id); // an observation changed mid-pass
    await clusters.releaseLease(first, seen);
    expect((await pool.query('SELECT needs_reconcile FROM clusters WHERE id = $1', [id])).rows[0].needs_reconcile).toBe(true);
    const second = await leaseOf();
    expect(second).toBeDefined();
    await clusters.releaseLease(second, (await clusters.get(id))!.reconcileRequests);
    expect((await pool.query('SELECT needs_reconcile FROM clusters WHERE id = $1', [id])).rows[0].needs_reconcile).toBe(false);
  });
});

describe('lease fencing', () => {
  /** One control plane's worker: its lease and the fenced transaction its writes go through (as the Reconciler builds them). */
  const worker = (clusters: ClusterStore, lease: ClusterLease) =>
    fencedTransaction(lease, (l, db) => clusters.holdsLease(l, db), (fn) => inTransaction(pool, fn));

  it('a holder whose lease was taken over between its read and its write changes nothing: no step saved, no task enqueued, no status, no topology', async () => {
    const clusters = new ClusterStore(pool);
    const ops = new OperationStore(pool);
    const tasks = new TaskStore(pool);
    const id = await cluster();
    const op = await ops.create({ clusterId: id, organizationId: org, kind: 'create-cluster', steps: [{ name: 'plan', title: 'Plan', state: 'pending' }] }, pool);
    await clusters.markNeedsReconcile(id);
    // A node of its own: its only task is this test's.
    const node = randomUUID();
    await pool.query(`INSERT INTO nodes (id, name, address, memory_mb, credential_hash) VALUES ($1, $2, '127.0.0.1', 64, $3)`, [node, `n-${node.slice(0, 8)}`, `h-${node}`]);

    // A leases the cluster for 200 ms and reads what a pass reads.
    const [a] = (await clusters.leaseForReconcile('cp-a', 200, 100, [])).filter((l) => l.clusterId === id);
    expect(a).toBeDefined();
    const read = (await ops.active(id))!;
    expect((await tasks.latestByKey(id, op.id)).size).toBe(0);
    // A stalls past its lease (SIGSTOP, a long GC); B takes the cluster and moves the operation on.
    await new Promise((r) => setTimeout(r, 300));
    const [b] = (await clusters.leaseForReconcile('cp-b', 5000, 100, [])).filter((l) => l.clusterId === id);
    expect(b).toBeDefined();
    expect(Number(b!.epoch)).toBeGreaterThan(Number(a!.epoch));
    const request = { kind: 'remove-instance' as const, instanceId: randomUUID(), clusterId: id };
    await worker(clusters, b!)(async (db) => {
      await tasks.enqueue({ nodeId: node, clusterId: id, operationId: op.id, dedupeKey: 'remove:1', request }, db);
      await ops.save({ ...read, state: 'running', progress: 0.5, steps: [{ name: 'plan', title: 'Plan', state: 'succeeded' }] }, db);
    });
    const leased = (await tasks.lease(node, 5000))!;
    await tasks.complete(leased.id, node, 'succeeded');
    const before = (await pool.query('SELECT state, progress, steps, updated_at FROM operations WHERE id = $1', [op.id])).rows[0];
    const clusterBefore = (await pool.query('SELECT phase, conditions, spec FROM clusters WHERE id = $1', [id])).rows[0];

    // A resumes with what it read before the pause: each write is refused whole, and nothing changed.
    const stale = worker(clusters, a!);
    await expect(stale(async (db) => ops.save({ ...read, state: 'running', progress: 0.1, steps: [{ name: 'plan', title: 'Plan', state: 'running' }] }, db))).rejects.toBeInstanceOf(LeaseLost);
    await expect(stale(async (db) => tasks.enqueue({ nodeId: node, clusterId: id, operationId: op.id, dedupeKey: 'remove:1', request }, db))).rejects.toBeInstanceOf(LeaseLost);
    await expect(stale(async (db) => clusters.setStatus(id, { phase: 'failed', conditions: [], observed: true }, db))).rejects.toBeInstanceOf(LeaseLost);
    await expect(stale(async (db) => clusters.replaceShards(id, [[{ start: 0, end: 1 }]], db))).rejects.toBeInstanceOf(LeaseLost);
    expect((await pool.query('SELECT state, progress, steps, updated_at FROM operations WHERE id = $1', [op.id])).rows[0]).toEqual(before);
    expect((await pool.query('SELECT phase, conditions, spec FROM clusters WHERE id = $1', [id])).rows[0]).toEqual(clusterBefore);
    expect((await pool.query('SELECT count(*)::int AS n FROM shards WHERE cluster_id = $1', [id])).rows[0].n).toBe(0);
    // The finished task was not enqueued again.
    expect((await pool.query('SELECT state FROM tasks WHERE cluster_id = $1', [id])).rows).toEqual([{ state: 'succeeded' }]);
    // Nor can A renew or release B's lease.
    expect(await clusters.renewLease(a!, 5000)).toBe(false);
    await clusters.releaseLease(a!, null);
    expect((await pool.query('SELECT lease_owner FROM clusters WHERE id = $1', [id])).rows[0].lease_owner).toBe('cp-b');
    // B's writes still go through.
    await worker(clusters, b!)((db) => ops.save({ ...read, state: 'running', progress: 0.6, steps: [{ name: 'plan', title: 'Plan', state: 'succeeded' }] }, db));
    expect((await ops.get(op.id))!.progress).toBe(0.6);
  });

  it('a lease cannot be taken while its holder\'s fenced write is open: the take skips the row, and the write lands before any takeover', async () => {
    const clusters = new ClusterStore(pool);
    const ops = new OperationStore(pool);
    const id = await cluster();
    const op = await ops.create({ clusterId: id, organizationId: org, kind: 'create-cluster', steps: [] }, pool);
    await clusters.markNeedsReconcile(id);
    const [a] = (await clusters.leaseForReconcile('cp-a', 100, 100, [])).filter((l) => l.clusterId === id);
    let release!: () => void;
    const held = new Promise<void>((r) => { release = r; });
    let inside!: () => void;
    const entered = new Promise<void>((r) => { inside = r; });
    // A's fenced transaction passed its check and stays open past the lease's end.
    const write = worker(clusters, a!)(async (db) => {
      inside();
      await held;
      return ops.save({ ...op, state: 'running', progress: 0.3, steps: [] }, db);
    });
    await entered;
    let taken: string[];
    try {
      await new Promise((r) => setTimeout(r, 200));
      taken = (await clusters.leaseForReconcile('cp-b', 5000, 100, [])).map((l) => l.clusterId);
    } finally {
      // Never left open (a failed assertion would keep the pool from closing).
      release();
    }
    expect(taken).not.toContain(id);
    expect(await write).toBe(true);
    // Once A's transaction ended, B takes the expired lease, and A's next write is refused.
    const [b] = (await clusters.leaseForReconcile('cp-b', 5000, 100, [])).filter((l) => l.clusterId === id);
    expect(b).toBeDefined();
    await expect(worker(clusters, a!)((db) => ops.save({ ...op, state: 'running', progress: 0.4, steps: [] }, db))).rejects.toBeInstanceOf(LeaseLost);
    expect((await ops.get(op.id))!.progress).toBe(0.3);
  });
});

describe('events', () => {
  it('are recorded once per happening and paged newest first', async () => {
    const events = new EventStore(pool);
    const id = await cluster();
    const c = { id, organizationId: org };
    const e = (n: number) => ({ type: 'slots-repaired' as const, slots: [{ slot: n, movedKeys: 0 }], message: `repair ${n}` });
    for (let n = 0; n < 5; n++) expect(await events.record(c, e(n), `k${n}`)).toBe(true);
    expect(await events.record(c, e(0), 'k0')).toBe(false);
    const first = await events.list(id, org, { limit: 3 });
    expect(first.items.map((x) => x.message)).toEqual(['repair 4', 'repair 3', 'repair 2']);
    const second = await events.list(id, org, { limit: 3, before: first.nextCursor! });
    expect(second.items.map((x) => x.message)).toEqual(['repair 1', 'repair 0']);
    expect(second.nextCursor).toBeNull();
    expect((await events.list(id, randomUUID(), { limit: 3 })).items).toEqual([]);
    await expect(events.record(c, { type: 'data-lost', message: 'x' } as never)).rejects.toThrow();
  });
});

describe('an operation kind this control plane does not know', () => {
  it('fails loudly instead of running another kind’s steps', async () => {
    const clusters = new ClusterStore(pool);
    const operations = new OperationStore(pool);
    const id = await cluster();
    const opId = randomUUID();
    await pool.query(`INSERT INTO operations (id, cluster_id, organization_id, kind, state, steps) VALUES ($1, $2, $3, 'reshard-quantum', 'pending', '[]')`, [opId, id, org]);
    const reconciler = new Reconciler({
      clusters, operations, nodes: new NodeStore(pool), tasks: new TaskStore(pool), events: new EventStore(pool),
      observed: new ObservedState(), box: new SecretBox(Buffer.alloc(32)), notifyNode: () => {}, log: pino({ level: 'silent' }),
      healing: { fastFailover: true, failoverGraceMs: 5000, rebalanceAfterMs: 30_000 }, nodeDownAfterMs: 15_000,
    });
    reconciler.start();
    try {
      const deadline = Date.now() + 10_000;
      while ((await operations.get(opId))!.state === 'pending' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const op = (await operations.get(opId))!;
      expect(op.state).toBe('failed');
      expect(op.error?.code).toBe('unknown_operation_kind');
      expect((await pool.query('SELECT count(*)::int AS n FROM tasks WHERE cluster_id = $1', [id])).rows[0].n).toBe(0);
    } finally {
      await reconciler.stop();
    }
  });
});

describe('the sweep over a fleet of quiet clusters', () => {
  it('leaves a settled cluster alone while its node reports, and passes it again once the node falls silent', async () => {
    const clusters = new ClusterStore(pool);
    const id = await cluster();
    const instanceId = randomUUID();
    await clusters.insertInstances([{ id: instanceId, clusterId: id, shardIndex: 0, role: 'primary', preferredRole: 'primary', replicaIndex: 0, nodeId: node, port: 7000, memoryMb: 64 }], pool);
    await clusters.insertShards([{ clusterId: id, shardIndex: 0, slots: [{ start: 0, end: 16383 }] }], pool);
    await pool.query(`UPDATE clusters SET phase = 'ready', needs_reconcile = true WHERE id = $1`, [id]);
    // Only this cluster asks for passes (the earlier tests' clusters are left as they are).
    await pool.query(`UPDATE clusters SET needs_reconcile = false, phase = 'failed' WHERE id <> $1`, [id]);
    const observed = new ObservedState();
    // What a healthy agent reports every second about a one-shard cluster.
    const report = () => observed.record(node, {
      agentVersion: 't', memoryMb: 64,
      instances: [{
        instanceId, clusterId: id, port: 7000, pid: 1, state: 'running', restarts: 0, lastError: null, held: false, crashedAt: null,
        cluster: {
          myId: 'a'.repeat(40), role: 'primary', state: 'ok', knownNodes: 1, slotsAssigned: 16384, primaryId: null, primaryLinkUp: null,
          slotsOwned: 16384, openSlots: [], replOffset: 0, linkDownSinceSec: null, syncInProgress: false, configEpoch: 1,
        },
      }],
    });
    report();
    const reporting = setInterval(report, 500);
    const reconciler = new Reconciler({
      clusters, operations: new OperationStore(pool), nodes: new NodeStore(pool), tasks: new TaskStore(pool), events: new EventStore(pool),
      observed, box: new SecretBox(Buffer.alloc(32)), notifyNode: () => {}, log: pino({ level: 'silent' }),
      healing: { fastFailover: true, failoverGraceMs: 5000, rebalanceAfterMs: 30_000 }, nodeDownAfterMs: 15_000,
    });
    const phase = async () => (await clusters.get(id))!.status.phase;
    reconciler.start();
    try {
      const deadline = Date.now() + 10_000;
      while ((await pool.query('SELECT needs_reconcile FROM clusters WHERE id = $1', [id])).rows[0].needs_reconcile && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(await phase()).toBe('ready');
      // Settled: three 2 s sweeps go by without a pass (before, each sweep passed every ready cluster).
      const settledAt = reconciler.passes;
      await new Promise((r) => setTimeout(r, 6500));
      expect(reconciler.passes - settledAt).toBe(0);
      // The node stops reporting: once its report is stale (5 s), a sweep passes the cluster again (long before the 5 min recheck).
      clearInterval(reporting);
      const silentAt = reconciler.passes;
      const until = Date.now() + 15_000;
      while (reconciler.passes === silentAt && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
      expect(reconciler.passes).toBeGreaterThan(silentAt);
    } finally {
      clearInterval(reporting);
      await reconciler.stop();
    }
  });
});
