/** Small, dependency-free formatters shared by every page. */

export { formatMemoryMb } from '@strata/api';

/** "12s", "5m", "3h", "2d" — compact age for tables. */
export function formatAge(iso: string | null | undefined, now: number = Date.now()): string {
  if (!iso) return '—';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '—';
  const s = Math.max(0, Math.round((now - t) / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h}h`;
  return `${Math.floor(h / 24)}d`;
}

export function formatAgo(iso: string | null | undefined, now: number = Date.now()): string {
  const age = formatAge(iso, now);
  return age === '—' ? 'never' : `${age} ago`;
}

export function formatDuration(startIso: string | undefined, endIso: string | undefined, now: number = Date.now()): string {
  if (!startIso) return '';
  const start = Date.parse(startIso);
  const end = endIso ? Date.parse(endIso) : now;
  const s = Math.max(0, (end - start) / 1000);
  if (s < 1) return `${Math.round(s * 1000)} ms`;
  if (s < 60) return `${s.toFixed(s < 10 ? 1 : 0)} s`;
  const m = Math.floor(s / 60);
  return `${m} m ${Math.round(s - m * 60)} s`;
}

export function formatDateTime(iso: string | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

export function plural(n: number, one: string, many: string = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** "512 B", "12.3 KB", "4.0 MB", "1.25 GB"; "—" when unknown. */
export function formatBytes(n: number | null | undefined): string {
  if (n === null || n === undefined) return '—';
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 ** 3) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${(n / 1024 ** 3).toFixed(2)} GB`;
}

export const TOTAL_SLOTS = 16384;

export function formatSlotRange(r: { start: number; end: number }): string {
  return r.start === r.end ? `${r.start}` : `${r.start}–${r.end}`;
}
