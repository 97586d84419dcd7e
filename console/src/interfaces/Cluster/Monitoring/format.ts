/** Formatters for metric values (pure). */
export function formatRate(v: number | null | undefined, unit = 'ops/s'): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '—';
  const abs = Math.abs(v);
  const n = abs >= 1e6 ? `${(v / 1e6).toFixed(2)}M` : abs >= 1e4 ? `${(v / 1e3).toFixed(1)}k` : abs >= 100 ? Math.round(v).toLocaleString('en-US') : v.toFixed(abs >= 10 ? 0 : 1);
  return unit ? `${n} ${unit}` : n;
}

export function formatMicros(us: number | null | undefined): string {
  if (us === null || us === undefined || !Number.isFinite(us)) return '—';
  if (us >= 1e6) return `${(us / 1e6).toFixed(2)} s`;
  if (us >= 1000) return `${(us / 1000).toFixed(us >= 1e4 ? 0 : 1)} ms`;
  return `${us.toFixed(us >= 10 ? 0 : 1)} µs`;
}

export function formatBytes(b: number | null | undefined): string {
  if (b === null || b === undefined || !Number.isFinite(b)) return '—';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = b;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(v >= 100 || i === 0 ? 0 : 1)} ${units[i]}`;
}

export function formatPercent(ratio: number | null | undefined): string {
  if (ratio === null || ratio === undefined || !Number.isFinite(ratio)) return '—';
  return `${Math.round(ratio * 100)}%`;
}
