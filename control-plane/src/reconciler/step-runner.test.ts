import { describe, expect, it } from 'vitest';
import type { Operation } from '@strata/api';
import { runSteps, type Step, type StepResult } from './step-runner';

const op = (): Operation => ({
  id: 'o', clusterId: 'c', kind: 'create-cluster', state: 'pending', progress: 0, steps: [],
  createdAt: '', updatedAt: '',
});
const step = (name: string, weight: number, r: StepResult): Step<null> => ({ def: { name, title: name, weight }, run: async () => r });

describe('runSteps', () => {
  it('stops at the first waiting step and reports weighted progress', async () => {
    const o = op();
    const out = await runSteps(o, [step('a', 0.2, { kind: 'done' }), step('b', 0.6, { kind: 'wait', detail: '1 of 2', fraction: 0.5 }), step('c', 0.2, { kind: 'done' })], null);
    expect(out).toEqual({ kind: 'waiting' });
    expect(o.state).toBe('running');
    expect(o.progress).toBeCloseTo(0.5);
    expect(o.steps.map((s) => s.state)).toEqual(['succeeded', 'running']);
    expect(o.steps[1]!.detail).toBe('1 of 2');
  });

  it('marks the operation failed with the step error', async () => {
    const o = op();
    const out = await runSteps(o, [step('a', 0.5, { kind: 'done' }), step('b', 0.5, { kind: 'failed', code: 'x', message: 'boom' })], null);
    expect(out).toMatchObject({ kind: 'failed', code: 'x' });
    expect(o.state).toBe('failed');
    expect(o.error).toEqual({ code: 'x', message: 'boom' });
    expect(o.steps[1]).toMatchObject({ state: 'failed', detail: 'boom' });
  });

  it('succeeds with progress 1 when every step is done, keeping first finish times', async () => {
    const o = op();
    await runSteps(o, [step('a', 1, { kind: 'done' })], null, () => 't1');
    await runSteps(o, [step('a', 1, { kind: 'done' })], null, () => 't2');
    expect(o.state).toBe('succeeded');
    expect(o.progress).toBe(1);
    expect(o.steps[0]).toMatchObject({ startedAt: 't1', finishedAt: 't1' });
  });
});
