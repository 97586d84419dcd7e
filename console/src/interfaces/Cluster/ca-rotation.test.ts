import { describe, expect, it } from 'vitest';
import { CA_RETIRE_AFTER_SECONDS, RotateCaRequest, type Operation, type OperationStep } from '@strata/api';
import { RETIRE_AFTER_CHOICES, rotationStage, shownRotation } from './ca-rotation';

const NAMES = ['trust-new-ca', 'reissue', 'retire-old-ca', 'reissue-final'];
function op(done: number, state: Operation['state'] = 'running', finishedAt?: string): Operation {
  const steps: OperationStep[] = NAMES.map((name, i) => ({ name, title: name, state: i < done ? 'succeeded' : i === done && state === 'running' ? 'running' : 'pending' }));
  return { id: 'o', clusterId: 'c', kind: 'rotate-ca', state, progress: done / 4, steps, createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z', ...(finishedAt ? { finishedAt } : {}) };
}

describe('CA rotation in the console', () => {
  it('offers only retire-after values the API accepts, its default among them', () => {
    for (const c of RETIRE_AFTER_CHOICES) expect(RotateCaRequest.safeParse({ retireAfterSeconds: c.seconds }).success, c.label).toBe(true);
    expect(RETIRE_AFTER_CHOICES.map((c) => c.seconds)).toContain(CA_RETIRE_AFTER_SECONDS.default);
    expect(new Set(RETIRE_AFTER_CHOICES.map((c) => c.seconds)).size).toBe(RETIRE_AFTER_CHOICES.length);
  });

  it('says the CA file holds both CAs until the old one is retired, then the new one alone', () => {
    expect(rotationStage(op(0)).ca).toBe('both');
    expect(rotationStage(op(2))).toMatchObject({ title: 'Waiting to retire the old CA', ca: 'both' });
    expect(rotationStage(op(2)).note).toMatch(/before the old CA is retired/);
    expect(rotationStage(op(3)).ca).toBe('new');
    expect(rotationStage(op(4, 'succeeded', '2026-01-01T00:00:05Z'))).toMatchObject({ title: 'CA rotated', ca: 'new' });
    expect(rotationStage({ ...op(1, 'failed'), error: { code: 'x', message: 'no node' } })).toMatchObject({ ca: null, note: 'no node' });
  });

  it('shows the newest operation while it runs and for ten minutes after, only if it is a rotation', () => {
    const end = Date.parse('2026-01-01T00:00:05Z');
    expect(shownRotation([op(1)], end)).toBeDefined();
    expect(shownRotation([op(4, 'succeeded', '2026-01-01T00:00:05Z')], end + 9 * 60_000)).toBeDefined();
    expect(shownRotation([op(4, 'succeeded', '2026-01-01T00:00:05Z')], end + 11 * 60_000)).toBeUndefined();
    expect(shownRotation([{ ...op(1), kind: 'update-cluster' }, op(1)], end)).toBeUndefined();
    expect(shownRotation(undefined, end)).toBeUndefined();
  });
});
