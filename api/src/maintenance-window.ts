/**
 * A cluster's weekly maintenance window (UTC) and the one rule that says
 * whether it is open at a given time and when it opens next. Pure: the
 * control plane (when a restart waiting for the window may start) and the
 * console (what it shows) both ask it.
 */
import { z } from './common';

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export const Weekday = z.enum(WEEKDAYS);
export type Weekday = z.infer<typeof Weekday>;

export const MAINTENANCE_WINDOW_LIMITS = { minMinutes: 30, maxMinutes: 24 * 60 } as const;

export const MaintenanceWindow = z
  .strictObject({
    dayOfWeek: Weekday.describe('the day (UTC) the window starts on'),
    startTime: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'HH:MM, 24-hour, UTC').describe('when it starts, HH:MM UTC'),
    durationMinutes: z.number().int().min(MAINTENANCE_WINDOW_LIMITS.minMinutes).max(MAINTENANCE_WINDOW_LIMITS.maxMinutes)
      .describe('how long it stays open (30 minutes to 24 hours; it may run past midnight and from Sunday into Monday)'),
  })
  .openapi('MaintenanceWindow');
export type MaintenanceWindow = z.infer<typeof MaintenanceWindow>;

const WEEK_MS = 7 * 24 * 3600_000;
const MINUTE_MS = 60_000;

/** Milliseconds from Monday 00:00 UTC of the week of `t` to `t`. */
function sinceWeekStart(t: number): number {
  const d = new Date(t);
  const weekday = (d.getUTCDay() + 6) % 7; // Monday 0 .. Sunday 6
  return weekday * 24 * 3600_000 + (t - Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
}

/** Offset of the window's start from Monday 00:00 UTC. */
function startOffset(w: MaintenanceWindow): number {
  const [h, m] = w.startTime.split(':').map(Number) as [number, number];
  return WEEKDAYS.indexOf(w.dayOfWeek) * 24 * 3600_000 + (h * 60 + m) * MINUTE_MS;
}

export interface WindowState {
  open: boolean;
  /** The start of the window that is open now, or of the next one. */
  opensAt: string;
  /** When that window closes. */
  closesAt: string;
}

/** Whether the window is open at `now` (ms since the epoch), and the bounds of the current or next one. Wraps from Sunday into Monday. */
export function windowState(w: MaintenanceWindow, now: number): WindowState {
  const duration = w.durationMinutes * MINUTE_MS;
  // Time since the most recent start (0 .. one week).
  const sinceStart = (((sinceWeekStart(now) - startOffset(w)) % WEEK_MS) + WEEK_MS) % WEEK_MS;
  const open = sinceStart < duration;
  const start = open ? now - sinceStart : now - sinceStart + WEEK_MS;
  return { open, opensAt: new Date(start).toISOString(), closesAt: new Date(start + duration).toISOString() };
}

/** "Tuesday 02:00-04:00 UTC". */
export function describeWindow(w: MaintenanceWindow): string {
  const startMin = startOffset(w) / MINUTE_MS % (24 * 60);
  const end = (startMin + w.durationMinutes) % (24 * 60);
  const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  const day = w.dayOfWeek[0]!.toUpperCase() + w.dayOfWeek.slice(1);
  return `${day} ${w.startTime}-${hhmm(end)} UTC${w.durationMinutes >= 24 * 60 || startMin + w.durationMinutes > 24 * 60 ? ' (next day)' : ''}`;
}
