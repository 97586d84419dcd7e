import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { ChartLegend } from '../../../components/charts/ChartLegend';
import { CLOCK_INCRS, formatClockTick, tickSpace } from '../../../components/charts/axis';

export interface ChartSeries {
  label: string;
  color: string;
  /** drawn dashed (e.g. a total over its parts) */
  dashed?: boolean;
}

/** The newest non-empty value of a column. */
function latest(col: ArrayLike<number | null | undefined>): number | null {
  for (let i = col.length - 1; i >= 0; i--) {
    const v = col[i];
    if (v !== null && v !== undefined) return v;
  }
  return null;
}

/**
 * A uPlot line chart over clock time that fills its container's width. The
 * plot is created once; new data goes through setData (cheap enough for
 * every second). Ticks fall on whole seconds or minutes with room between
 * them on a phone; the legend below names each series with its latest value.
 */
export function UPlotChart({ data, series, format, axisFormat, height = 180, label }: {
  data: uPlot.AlignedData;
  series: ChartSeries[];
  format: (v: number | null) => string;
  /** y tick labels (short); `format` when absent */
  axisFormat?: (v: number | null) => string;
  height?: number;
  label: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const fmt = useRef(format);
  fmt.current = format;
  const axisFmt = useRef(axisFormat ?? format);
  axisFmt.current = axisFormat ?? format;
  const seriesKey = series.map((s) => s.label).join('|');

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const width = Math.max(200, el.clientWidth);
    const opts: uPlot.Options = {
      width,
      height,
      legend: { show: false },
      cursor: { drag: { x: false, y: false } },
      scales: { x: { time: true }, y: { range: (_u, min, max) => [Math.min(0, min ?? 0), Math.max(1, max ?? 1) * 1.1] } },
      axes: [
        {
          stroke: '#5b6372', grid: { stroke: '#eef0f3' }, ticks: { stroke: '#e2e5ea' }, space: tickSpace(width), incrs: CLOCK_INCRS,
          values: (_u, vals, _i, _space, incr) => vals.map((v) => formatClockTick(v, incr)),
        },
        { stroke: '#5b6372', grid: { stroke: '#eef0f3' }, ticks: { stroke: '#e2e5ea' }, size: 64, values: (_u, vals) => vals.map((v) => axisFmt.current(v)) },
      ],
      series: [{}, ...series.map((s) => ({ label: s.label, stroke: s.color, width: s.dashed ? 1.5 : 2, dash: s.dashed ? [6, 4] : undefined, points: { show: false }, spanGaps: false, value: (_u: uPlot, v: number | null) => fmt.current(v) }))],
    };
    const u = new uPlot(opts, data, el);
    plot.current = u;
    const ro = new ResizeObserver(() => u.setSize({ width: Math.max(200, el.clientWidth), height }));
    ro.observe(el);
    return () => {
      ro.disconnect();
      u.destroy();
      plot.current = null;
    };
    // The plot is rebuilt only when its series change; data flows through setData below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [seriesKey, height]);

  useEffect(() => {
    plot.current?.setData(data);
  }, [data]);

  return (
    <>
      <div ref={box} className="uplot-box" role="img" aria-label={label} />
      <ChartLegend items={series.map((s, i) => ({ label: s.label, color: s.color, dashed: s.dashed, value: format(latest(data[i + 1] ?? [])) }))} />
    </>
  );
}
