/**
 * Axis helpers shared by the charts: ticks in whole units (never "-0.8 s"),
 * labelled with their unit, spaced so they never run together on a phone.
 */

/** Tick steps in seconds for an axis of seconds: whole seconds and round multiples only. */
export const SECOND_INCRS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600];

/** Tick steps in seconds for a clock axis (uPlot times are seconds). */
export const CLOCK_INCRS = [1, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800];

/** "12 s", "-3 s", "2 min" for a tick in seconds. */
export function formatSecondsTick(v: number): string {
  if (Math.abs(v) >= 120 && v % 60 === 0) return `${v / 60} min`;
  return `${Math.round(v)} s`;
}

/** A clock tick: "14:05:30" within a minute-scale range, "14:05" for minutes, "Nov 26 14:00" across days. */
export function formatClockTick(sec: number, stepSec: number): string {
  const d = new Date(sec * 1000);
  const hh = String(d.getHours()).padStart(2, '0');
  const mm = String(d.getMinutes()).padStart(2, '0');
  if (stepSec < 60) return `${hh}:${mm}:${String(d.getSeconds()).padStart(2, '0')}`;
  if (stepSec < 86400) return `${hh}:${mm}`;
  return `${d.toLocaleString('en', { month: 'short' })} ${d.getDate()}`;
}

/** Minimum pixels between ticks: wider labels need more room (a clock with seconds is ~56 px at 11 px). */
export function tickSpace(width: number): number {
  return width < 480 ? 90 : 70;
}
