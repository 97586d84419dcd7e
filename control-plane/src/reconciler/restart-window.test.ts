import { describe, expect, it } from 'vitest';
import { restartStartsAt } from './restart.steps';

const window = { dayOfWeek: 'tuesday', startTime: '02:00', durationMinutes: 120 } as const;
const plan = (when?: 'now' | 'maintenance_window') => ({ kind: 'restart' as const, order: ['a'], ...(when ? { when } : {}) });
const at = (iso: string) => Date.parse(iso);

describe('restartStartsAt', () => {
  it('a restart asked for the window waits outside it, saying when it starts', () => {
    const w = restartStartsAt(plan('maintenance_window'), window, at('2026-11-26T10:30:00Z'));
    expect(w).toEqual({ startsAt: '2026-12-01T02:00:00.000Z', detail: 'waiting for the maintenance window (Tuesday 02:00-04:00 UTC): starts at 2026-12-01T02:00:00Z' });
  });
  it('and starts inside it', () => {
    expect(restartStartsAt(plan('maintenance_window'), window, at('2026-12-01T02:00:00Z'))).toBeNull();
    expect(restartStartsAt(plan('maintenance_window'), window, at('2026-12-01T03:59:00Z'))).toBeNull();
  });
  it('never waits when asked for now (or before windows existed), or when the window was removed', () => {
    expect(restartStartsAt(plan('now'), window, at('2026-11-26T10:30:00Z'))).toBeNull();
    expect(restartStartsAt(plan(), window, at('2026-11-26T10:30:00Z'))).toBeNull();
    expect(restartStartsAt(plan('maintenance_window'), null, at('2026-11-26T10:30:00Z'))).toBeNull();
  });
});
