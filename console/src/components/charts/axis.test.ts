import { describe, expect, it } from 'vitest';
import { SECOND_INCRS, formatClockTick, formatSecondsTick } from './axis';

describe('chart axes', () => {
  it('ticks are whole seconds with their unit', () => {
    expect(SECOND_INCRS.every((s) => Number.isInteger(s))).toBe(true);
    expect(formatSecondsTick(-1)).toBe('-1 s');
    expect(formatSecondsTick(12)).toBe('12 s');
    expect(formatSecondsTick(300)).toBe('5 min');
  });
  it('clock ticks show seconds only when the step is under a minute', () => {
    const t = new Date(2026, 10, 26, 14, 5, 30).getTime() / 1000;
    expect(formatClockTick(t, 15)).toBe('14:05:30');
    expect(formatClockTick(t, 300)).toBe('14:05');
    expect(formatClockTick(t, 86400)).toBe('Nov 26');
  });
});
