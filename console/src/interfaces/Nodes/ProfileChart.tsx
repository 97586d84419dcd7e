import type { ChartPoint } from './disk-profile-format';

export interface ChartSeries { label: string; color: string }

const W = 420;
const H = 200;
const PAD = { left: 56, right: 12, top: 12, bottom: 36 };

/**
 * A small SVG chart over categories (block sizes, queue depths, latency buckets): grouped bars, or
 * lines with markers. Every series shares the y scale; each value is in the bar's title.
 */
export function ProfileChart({ title, testId, kind, series, points, format }: {
  title: string; testId: string; kind: 'bar' | 'line'; series: ChartSeries[]; points: ChartPoint[]; format: (v: number) => string;
}) {
  const max = Math.max(1e-9, ...points.flatMap((p) => p.values));
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const band = plotW / Math.max(1, points.length);
  const y = (v: number) => PAD.top + plotH - (v / max) * plotH;
  const xMid = (i: number) => PAD.left + band * i + band / 2;
  const barW = Math.max(2, (band * 0.7) / series.length);
  // Labels ~50 px apart at most, so long ones (latency buckets) do not overlap.
  const labelEvery = Math.max(1, Math.ceil(50 / band));
  return (
    <figure className="profile-chart" data-testid={testId}>
      <figcaption className="profile-chart-title">{title}</figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={title} className="profile-chart-svg">
        {[0, 0.5, 1].map((f) => (
          <g key={f}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(max * f)} y2={y(max * f)} className="profile-chart-grid" />
            <text x={PAD.left - 6} y={y(max * f) + 4} textAnchor="end" className="profile-chart-tick">{format(max * f)}</text>
          </g>
        ))}
        {points.map((p, i) => (i % labelEvery === 0 || i === points.length - 1) && (
          <text key={p.x} x={xMid(i)} y={H - PAD.bottom + 16} textAnchor="middle" className="profile-chart-tick">{p.x}</text>
        ))}
        {kind === 'bar'
          ? points.flatMap((p, i) => p.values.map((v, s) => (
            <rect key={`${p.x}-${s}`} x={xMid(i) - (barW * series.length) / 2 + s * barW} y={y(v)} width={barW - 1} height={Math.max(0, PAD.top + plotH - y(v))} fill={series[s]?.color}>
              <title>{`${series[s]?.label} at ${p.x}: ${format(v)}`}</title>
            </rect>
          )))
          : series.map((s, si) => (
            <g key={s.label}>
              <polyline fill="none" stroke={s.color} strokeWidth={2} points={points.map((p, i) => `${xMid(i)},${y(p.values[si] ?? 0)}`).join(' ')} />
              {points.map((p, i) => (
                <circle key={p.x} cx={xMid(i)} cy={y(p.values[si] ?? 0)} r={3} fill={s.color}>
                  <title>{`${s.label} at ${p.x}: ${format(p.values[si] ?? 0)}`}</title>
                </circle>
              ))}
            </g>
          ))}
      </svg>
      {series.length > 1 && (
        <ul className="profile-chart-legend">
          {series.map((s) => <li key={s.label}><span className="profile-chart-swatch" style={{ background: s.color }} />{s.label}</li>)}
        </ul>
      )}
    </figure>
  );
}
