/** An accessible determinate progress bar; `value` is 0..1. */
export function ProgressBar({ value, label, tone = 'info' }: { value: number; label: string; tone?: 'info' | 'success' | 'danger' }) {
  const pct = Math.round(Math.min(1, Math.max(0, value)) * 100);
  return (
    <div
      className={`progress progress-${tone}`}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={pct}
      aria-valuetext={`${pct}%`}
    >
      <div className="progress-fill" style={{ width: `${pct}%` }} />
    </div>
  );
}

/** A small usage meter (e.g. node memory). */
export function Meter({ used, total, label }: { used: number; total: number; label: string }) {
  const ratio = total > 0 ? Math.min(1, used / total) : 0;
  const tone = ratio > 0.9 ? 'danger' : ratio > 0.75 ? 'warning' : 'ok';
  return (
    <div className={`meter meter-${tone}`} role="meter" aria-label={label} aria-valuemin={0} aria-valuemax={total} aria-valuenow={used}>
      <div className="meter-fill" style={{ width: `${Math.round(ratio * 100)}%` }} />
    </div>
  );
}
