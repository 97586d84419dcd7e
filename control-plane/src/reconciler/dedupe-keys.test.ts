import { describe, expect, it } from 'vitest';
import { eventKey, taskKey, type EventId, type TaskId } from './dedupe-keys';

const every: TaskId[] = [
  { kind: 'start', instanceId: 'i1' },
  { kind: 'restart', instanceId: 'i1', crashedAt: 1000 },
  { kind: 'restart', instanceId: 'i1', crashedAt: null },
  { kind: 'promote', shard: 1, fromInstanceId: 'i1', crashedAt: 1000 },
  { kind: 'switchover', shard: 1, fromInstanceId: 'i1' },
  { kind: 'switchover-to', instanceId: 'i2' },
  { kind: 'join', instanceId: 'i2', primaryInstanceId: 'i1' },
  { kind: 'meet', instanceId: 'i2' },
  { kind: 'remove', instanceId: 'i2' },
  { kind: 'forget', scope: 'heal' },
  { kind: 'forget', scope: 'remove-instances' },
  { kind: 'forget', scope: 'rollback-remove' },
  { kind: 'configure', instanceId: 'i2', rollback: false },
  { kind: 'configure', instanceId: 'i2', rollback: true },
  { kind: 'form', clusterId: 'c' },
  { kind: 'migrate', rollback: false },
  { kind: 'migrate', rollback: true },
  { kind: 'repair-slots', slots: [1, 2] },
  { kind: 'orphan', instanceId: 'i2' },
  { kind: 'benchmark', benchmarkId: 'b', host: 0 },
  { kind: 'renew-certificate', instanceId: 'i2', expiresAt: 1000 },
  { kind: 'renew-certificate', instanceId: 'i2', expiresAt: 2000 },
];

describe('task identity', () => {
  it('every identity has its own key', () => {
    const keys = every.map(taskKey);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('keys depend only on the identity (no clock): the same identity, the same key', () => {
    for (const t of every) expect(taskKey(structuredClone(t))).toBe(taskKey(t));
  });

  it('a crash is part of a restart or promotion: a new crash, a new task', () => {
    expect(taskKey({ kind: 'restart', instanceId: 'i1', crashedAt: 1 })).not.toBe(taskKey({ kind: 'restart', instanceId: 'i1', crashedAt: 2 }));
    expect(taskKey({ kind: 'promote', shard: 0, fromInstanceId: 'p', crashedAt: 1 })).not.toBe(taskKey({ kind: 'promote', shard: 0, fromInstanceId: 'p', crashedAt: 2 }));
  });

  it('keeps the keys tasks already stored use (a restarted control plane finds its tasks)', () => {
    expect(taskKey({ kind: 'migrate', rollback: false })).toBe('migrate:forward');
    expect(taskKey({ kind: 'promote', shard: 2, fromInstanceId: 'p', crashedAt: null })).toBe('promote:2:p:0');
    expect(taskKey({ kind: 'restart', instanceId: 'i', crashedAt: 5 })).toBe('restart:i:5');
  });
});

describe('event identity', () => {
  const events: EventId[] = [
    { type: 'node-down', clusterId: 'c', nodeId: 'n', silentSince: 't' },
    { type: 'instance-restarted', instanceId: 'i', crashedAt: 5 },
    { type: 'agent-restart', instanceId: 'i', crashedAt: 5 },
    { type: 'data-lost', instanceId: 'i', crashedAt: 5 },
    { type: 'replica-rebuilt', lostInstanceId: 'i' },
    { type: 'failover', promotedInstanceId: 'i', configEpoch: 3 },
    { type: 'primaries-rebalanced', promotedInstanceId: 'i', configEpoch: 3 },
    { type: 'switchover-operation', operationId: 'o' },
    { type: 'slots-repaired', taskId: 't' },
    { type: 'certificate-rotated', instanceId: 'i', previousExpiresAt: 5 },
    { type: 'backup-ended', backupId: 'b' },
    { type: 'restore-completed', clusterId: 'c' },
  ];
  it('every event has its own key', () => {
    const keys = events.map(eventKey);
    expect(new Set(keys).size).toBe(keys.length);
  });
  it('an ordered restart and its event share the crash identity', () => {
    expect(eventKey({ type: 'instance-restarted', instanceId: 'i', crashedAt: 5 })).toBe(taskKey({ kind: 'restart', instanceId: 'i', crashedAt: 5 }));
  });
});
