/**
 * Maintenance windows on a real stack: a rolling restart asked for the
 * window waits outside it (pending, saying when it starts, no engine
 * restarted, the cluster ready and other changes refused), and runs once
 * the window is open (here: the window is moved onto now, which a waiting
 * restart follows). A waiting restart can be cancelled; `force` runs now.
 * Bad windows are problem+json naming the field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEEKDAYS, windowState, type MaintenanceWindow, type Operation } from '@strata/api';
import { testStack } from './helpers/test-stack';
import type { TestApi } from './helpers/api-client';
import { enginePid } from './helpers/workload';

let api: TestApi;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ api, cleanup } = await testStack('127.0.34', { nodes: 2 }));
});
afterAll(async () => cleanup?.());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const hhmm = (d: Date) => `${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
const weekday = (d: Date) => WEEKDAYS[(d.getUTCDay() + 6) % 7]!;

/** A window three days from now (closed now), and one open now. */
const closedWindow = (): MaintenanceWindow => ({ dayOfWeek: weekday(new Date(Date.now() + 3 * 86_400_000)), startTime: hhmm(new Date()), durationMinutes: 60 });
const openWindow = (): MaintenanceWindow => ({ dayOfWeek: weekday(new Date()), startTime: hhmm(new Date()), durationMinutes: 60 });

async function waitForOp(id: string, until: (op: Operation) => boolean, timeoutMs = 120_000): Promise<Operation> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const op = (await api.operation(id)).body;
    if (until(op)) return op;
    if (Date.now() > end) throw new Error(`operation ${op.state}: ${JSON.stringify(op.steps)}`);
    await sleep(200);
  }
}

describe('maintenance window', () => {
  it('a restart asked for the window waits outside it and runs inside it; cancel and force; bad windows refused', async () => {
    const created = await api.createCluster({ name: 'mw', shards: 1, replicasPerShard: 1, memoryMbPerShard: 64 });
    const id = created.body.cluster.id;
    expect(created.body.cluster.spec.maintenanceWindow).toBeNull();
    await api.waitForPhase(id, 'ready');
    const topo = await api.waitForHealthy(id);

    // No window: a restart for the window is refused, naming `when`; bad windows name their field.
    const noWindow = await api.restart(id, { when: 'maintenance_window' });
    expect(noWindow.status).toBe(422);
    expect(noWindow.body).toMatchObject({ code: 'no_maintenance_window', errors: [{ field: 'when' }] });
    for (const [w, field] of [
      [{ dayOfWeek: 'someday', startTime: '02:00', durationMinutes: 60 }, 'maintenanceWindow.dayOfWeek'],
      [{ dayOfWeek: 'monday', startTime: '25:00', durationMinutes: 60 }, 'maintenanceWindow.startTime'],
      [{ dayOfWeek: 'monday', startTime: '02:00', durationMinutes: 0 }, 'maintenanceWindow.durationMinutes'],
    ] as const) {
      const r = await api.updateCluster(id, { maintenanceWindow: w });
      expect(r.status, field).toBe(400);
      expect(r.body).toMatchObject({ code: 'validation_failed', errors: [{ field }] });
    }
    expect((await api.clusterOperations(id)).body.items.map((o) => o.kind)).toEqual(['create-cluster']);

    // Setting a window applies at once, without an operation.
    const closed = closedWindow();
    const set = await api.updateCluster(id, { maintenanceWindow: closed });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ operation: null, cluster: { spec: { maintenanceWindow: closed } } });
    expect((await api.getCluster(id)).body.spec.maintenanceWindow).toEqual(closed);

    // A restart now waits for the window (the default once the cluster has one).
    const addresses = topo.shards.flatMap((s) => s.instances.map((i) => i.address));
    const pids = new Map(addresses.map((a) => [a, enginePid(a)]));
    const started = await api.restart(id);
    expect(started.status).toBe(202);
    const opId = started.body.operation.id;
    const expectedStart = windowState(closed, Date.now()).opensAt;
    const waiting = await waitForOp(opId, (op) => op.startsAt !== undefined, 15_000);
    expect(waiting).toMatchObject({ state: 'pending', startsAt: expectedStart, progress: 0 });
    expect(waiting.steps[0]!.detail).toContain('waiting for the maintenance window');
    await sleep(3000);
    expect((await api.operation(opId)).body.state).toBe('pending');
    for (const [a, pid] of pids) expect(enginePid(a), a).toBe(pid);
    expect((await api.getCluster(id)).body.status.phase).toBe('ready');
    const other = await api.updateCluster(id, { memoryMbPerShard: 128 });
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('operation_in_progress');

    // The window moved onto now: the waiting restart starts and rolls to the end.
    expect((await api.updateCluster(id, { maintenanceWindow: openWindow() })).status).toBe(200);
    const done = await waitForOp(opId, (op) => ['succeeded', 'failed', 'cancelled'].includes(op.state));
    expect(done.state).toBe('succeeded');
    expect(done.startsAt).toBeUndefined();
    for (const [a, pid] of pids) expect(enginePid(a), `${a} restarted`).not.toBe(pid);
    await api.waitForHealthy(id, 90_000);

    // A waiting restart can be cancelled; `force` runs at once whatever the window.
    await api.updateCluster(id, { maintenanceWindow: closedWindow() });
    const queued = await api.restart(id);
    expect(queued.status).toBe(202);
    await waitForOp(queued.body.operation.id, (op) => op.startsAt !== undefined, 15_000);
    const cancelled = await api.call<Operation>('POST', `/v1/operations/${queued.body.operation.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ state: 'cancelled', error: { code: 'cancelled' } });
    const forced = await api.restart(id, { force: true });
    expect(forced.status).toBe(202);
    const ran = await waitForOp(forced.body.operation.id, (op) => op.state !== 'pending' || (op.progress > 0));
    expect(ran.startsAt).toBeUndefined();
    expect((await waitForOp(forced.body.operation.id, (op) => ['succeeded', 'failed', 'cancelled'].includes(op.state))).state).toBe('succeeded');

    // Removing the window: a restart runs when asked again.
    const removed = await api.updateCluster(id, { maintenanceWindow: null });
    expect(removed.body).toMatchObject({ operation: null, cluster: { spec: { maintenanceWindow: null } } });
    await api.deleteCluster(id);
    await api.waitForGone(id);
  }, 300_000);
});
