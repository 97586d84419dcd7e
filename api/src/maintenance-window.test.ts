import { describe, expect, it } from 'vitest';
import { MaintenanceWindow, describeWindow, windowState } from './maintenance-window';

const at = (iso: string) => Date.parse(iso);

describe('windowState', () => {
  // 2026-11-24 is a Tuesday.
  const tue = { dayOfWeek: 'tuesday', startTime: '02:00', durationMinutes: 120 } as const;

  it.each([
    ['2026-11-24T01:59:59Z', false, '2026-11-24T02:00:00.000Z'],
    ['2026-11-24T02:00:00Z', true, '2026-11-24T02:00:00.000Z'],
    ['2026-11-24T03:59:59Z', true, '2026-11-24T02:00:00.000Z'],
    ['2026-11-24T04:00:00Z', false, '2026-12-01T02:00:00.000Z'],
    ['2026-11-26T10:30:00Z', false, '2026-12-01T02:00:00.000Z'],
    ['2026-11-23T23:00:00Z', false, '2026-11-24T02:00:00.000Z'],
  ])('a Tuesday 02:00 window of 2 h at %s: open %s, opens %s', (now, open, opensAt) => {
    const s = windowState(tue, at(now));
    expect(s.open).toBe(open);
    expect(s.opensAt).toBe(opensAt);
    expect(Date.parse(s.closesAt) - Date.parse(s.opensAt)).toBe(2 * 3600_000);
  });

  it('wraps from Sunday into Monday', () => {
    const sun = { dayOfWeek: 'sunday', startTime: '23:00', durationMinutes: 180 } as const; // until Monday 02:00
    expect(windowState(sun, at('2026-11-29T23:30:00Z')).open).toBe(true); // Sunday
    const monday = windowState(sun, at('2026-11-30T01:59:00Z'));
    expect(monday.open).toBe(true);
    expect(monday.opensAt).toBe('2026-11-29T23:00:00.000Z');
    expect(monday.closesAt).toBe('2026-11-30T02:00:00.000Z');
    const after = windowState(sun, at('2026-11-30T02:00:00Z'));
    expect(after.open).toBe(false);
    expect(after.opensAt).toBe('2026-12-06T23:00:00.000Z');
    // Across a month and year boundary.
    expect(windowState(sun, at('2026-12-31T12:00:00Z')).opensAt).toBe('2027-01-03T23:00:00.000Z');
  });

  it('a window of a whole day is open all that day, closed the rest of the week', () => {
    const w = { dayOfWeek: 'monday', startTime: '00:00', durationMinutes: 1440 } as const;
    expect(windowState(w, at('2026-11-23T00:00:00Z')).open).toBe(true);
    expect(windowState(w, at('2026-11-23T23:59:59Z')).open).toBe(true);
    expect(windowState(w, at('2026-11-24T00:00:00Z')).open).toBe(false);
  });
});

describe('MaintenanceWindow', () => {
  it.each([
    [{ dayOfWeek: 'tuesday', startTime: '24:00', durationMinutes: 60 }, 'startTime'],
    [{ dayOfWeek: 'tuesday', startTime: '2:00', durationMinutes: 60 }, 'startTime'],
    [{ dayOfWeek: 'tue', startTime: '02:00', durationMinutes: 60 }, 'dayOfWeek'],
    [{ dayOfWeek: 'tuesday', startTime: '02:00', durationMinutes: 10 }, 'durationMinutes'],
    [{ dayOfWeek: 'tuesday', startTime: '02:00', durationMinutes: 1441 }, 'durationMinutes'],
    [{ dayOfWeek: 'tuesday', startTime: '02:00', durationMinutes: 90.5 }, 'durationMinutes'],
  ])('refuses %j at %s', (w, field) => {
    const r = MaintenanceWindow.safeParse(w);
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.path).toEqual([field]);
  });

  it('describes itself', () => {
    expect(describeWindow({ dayOfWeek: 'tuesday', startTime: '02:00', durationMinutes: 120 })).toBe('Tuesday 02:00-04:00 UTC');
    expect(describeWindow({ dayOfWeek: 'sunday', startTime: '23:00', durationMinutes: 180 })).toBe('Sunday 23:00-02:00 UTC (next day)');
  });
});
