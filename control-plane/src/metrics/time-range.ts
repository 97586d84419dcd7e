/** Query time parsing and step choice (pure code). */
import { validationFailed } from '../errors';

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };

/** RFC 3339, unix seconds, "now", or relative "-15m" / "-1h" / "-7d" → unix seconds. */
export function parseTime(value: string | undefined, nowSec: number, field: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (value === 'now') return nowSec;
  const rel = /^-(\d+)([smhdw])$/.exec(value);
  if (rel) return nowSec - Number(rel[1]) * UNITS[rel[2]!]!;
  if (/^\d{9,11}(\.\d+)?$/.test(value)) return Math.floor(Number(value));
  const ms = Date.parse(value);
  if (Number.isFinite(ms) && /^\d{4}-\d{2}-\d{2}T/.test(value)) return Math.floor(ms / 1000);
  throw validationFailed([{ field, message: 'expected RFC 3339, unix seconds, "now" or a relative time like "-15m"' }]);
}

export type Source = 'memory' | 'raw' | 'rollup';

export interface RangePlan {
  from: number;
  to: number;
  step: number;
  source: Source;
}

/** At most this many points per series. */
export const MAX_POINTS = 11_000;
const NICE_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 21_600, 43_200, 86_400];

/**
 * Picks where to read and at what step: the hot window when the whole range
 * is in it, 1 s points while within raw retention, else 1 min rollups.
 * Without a step, ~600 points at most.
 */
export function planRange(
  q: { from?: number; to?: number; step?: number }, nowSec: number, hotSeconds: number, rawRetentionSec: number,
): RangePlan {
  const to = Math.min(q.to ?? nowSec, nowSec + 60);
  const from = q.from ?? to - 300;
  if (from >= to) throw validationFailed([{ field: 'from', message: 'must be before `to`' }]);
  const span = to - from;
  const source: Source = from > nowSec - hotSeconds + 1 ? 'memory' : from >= nowSec - rawRetentionSec ? 'raw' : 'rollup';
  let step = q.step ?? NICE_STEPS.find((s) => span / s <= 600) ?? 86_400;
  if (source === 'rollup') step = Math.max(60, Math.ceil(step / 60) * 60);
  if (span / step > MAX_POINTS) throw validationFailed([{ field: 'step', message: `too small for this range: at most ${MAX_POINTS} points per series` }]);
  return { from, to, step, source };
}
