import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { ChartLegend } from '../../../components/charts/ChartLegend';
import { SECOND_INCRS, formatSecondsTick, tickSpace } from '../../../components/charts/axis';

export interface BenchSeries {
  label: string;
  color: string;
  dashed?: boolean;
}

/** A vertical marker (an event) or a shaded span (e.g. the time without writes) on the x axis. */
export interface BenchMark {
  x: number;
  /** end of a shaded span; absent = a line at x */
  to?: number;
  label: string;
  color: string;
}

/**
 * Draws marks on the plot area: spans shaded, events as dashed lines, each
 * with its number at the top (its words are in the legend below, so labels
 * of marks a fraction of a second apart never overlap).
 */
function drawMarks(u: uPlot, marks: BenchMark[]): void {
  const ctx = u.ctx;
  const { top, height } = u.bbox;
  ctx.save();
  for (const m of marks) {
    const x0 = u.valToPos(m.x, 'x', true);
    if (m.to !== undefined) {
      const x1 = u.valToPos(m.to, 'x', true);
      ctx.fillStyle = m.color;
      ctx.globalAlpha = 0.18;
      ctx.fillRect(x0, top, Math.max(2, x1 - x0), height);
      ctx.globalAlpha = 1;
    } else {
      ctx.strokeStyle = m.color;
      ctx.lineWidth = 2 * devicePixelRatio;
      ctx.setLineDash([6 * devicePixelRatio, 4 * devicePixelRatio]);
      ctx.beginPath();
      ctx.moveTo(x0, top);
      ctx.lineTo(x0, top + height);
      ctx.stroke();
      ctx.setLineDash([]);
    }
    ctx.fillStyle = m.color;
    ctx.font = `bold ${11 * devicePixelRatio}px sans-serif`;
    ctx.fillText(String(marks.indexOf(m) + 1), x0 + 4 * devicePixelRatio, top + 12 * devicePixelRatio * (1 + marks.indexOf(m)));
  }
  ctx.restore();
}

/** A small uPlot line chart over a numeric x axis (seconds, or percentile positions). */
export function BenchChart({ data, series, label, xValues, xSplits, yFormat, testId, height = 200, marks, seconds }: {
  data: uPlot.AlignedData;
  series: BenchSeries[];
  label: string;
  xValues?: (v: number) => string;
  /** fixed x tick positions (e.g. the percentiles drawn) */
  xSplits?: number[];
  yFormat: (v: number) => string;
  testId: string;
  height?: number;
  /** events and spans drawn over the series (listed in the accessible label too) */
  marks?: BenchMark[];
  /** x is seconds: ticks on whole seconds, labelled "5 s" */
  seconds?: boolean;
}) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const marksRef = useRef<BenchMark[]>(marks ?? []);
  marksRef.current = marks ?? [];
  const key = series.map((s) => s.label).join('|');
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const width = Math.max(240, el.clientWidth);
    const xFormat = seconds ? formatSecondsTick : xValues;
    const u = new uPlot(
      {
        width,
        height,
        legend: { show: false },
        scales: { x: { time: false }, y: { range: (_u, _min, max) => [0, Math.max(1, max ?? 1) * 1.1] } },
        axes: [
          {
            stroke: '#5b6372', grid: { stroke: '#eef0f3' }, space: tickSpace(width),
            ...(seconds ? { incrs: SECOND_INCRS } : {}),
            values: xFormat ? (_u, vals) => vals.map((v) => xFormat(v)) : undefined,
            ...(xSplits ? { splits: () => xSplits } : {}),
          },
          { stroke: '#5b6372', grid: { stroke: '#eef0f3' }, size: 70, values: (_u, vals) => vals.map((v) => yFormat(v)) },
        ],
        series: [{}, ...series.map((s) => ({ label: s.label, stroke: s.color, width: s.dashed ? 1.5 : 2, dash: s.dashed ? [6, 4] : undefined, points: { show: !s.dashed, size: 4 } }))],
        hooks: { draw: [(u: uPlot) => drawMarks(u, marksRef.current)] },
      },
      data,
      el,
    );
    plot.current = u;
    const ro = new ResizeObserver(() => u.setSize({ width: Math.max(240, el.clientWidth), height }));
    ro.observe(el);
    return () => {
      ro.disconnect();
      u.destroy();
      plot.current = null;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, height]);
  useEffect(() => {
    plot.current?.setData(data);
  }, [data]);
  useEffect(() => {
    plot.current?.redraw(false);
  }, [marks]);
  const described = marks?.length ? `${label}; marked: ${marks.map((m) => (m.to !== undefined ? `${m.label} from ${m.x} s to ${m.to} s` : `${m.label} at ${m.x} s`)).join(', ')}` : label;
  const at = (v: number) => (seconds ? `${v.toFixed(1)} s` : String(v));
  return (
    <div className="bench-chart">
      <div ref={box} className="uplot-box" role="img" aria-label={described} data-testid={testId} />
      <ChartLegend items={series.map((s) => ({ label: s.label, color: s.color, dashed: s.dashed }))} />
      {marks && marks.length > 0 && (
        <ol className="chart-marks small" aria-label="Marked on the chart">
          {marks.map((m, i) => (
            <li key={`${m.label}-${m.x}`} style={{ ['--swatch' as string]: m.color }}>
              <span className="chart-mark-num" aria-hidden="true">{i + 1}</span>
              {m.label}: {m.to !== undefined ? `${at(m.x)} to ${at(m.to)}` : `at ${at(m.x)}`}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
