import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface BenchSeries {
  label: string;
  color: string;
}

/** A small uPlot line chart over a numeric x axis (seconds, or percentile positions). */
export function BenchChart({ data, series, label, xValues, xSplits, yFormat, testId, height = 200 }: {
  data: uPlot.AlignedData;
  series: BenchSeries[];
  label: string;
  xValues?: (v: number) => string;
  /** fixed x tick positions (e.g. the percentiles drawn) */
  xSplits?: number[];
  yFormat: (v: number) => string;
  testId: string;
  height?: number;
}) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const key = series.map((s) => s.label).join('|');
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const u = new uPlot(
      {
        width: Math.max(240, el.clientWidth),
        height,
        legend: { show: true },
        scales: { x: { time: false }, y: { range: (_u, _min, max) => [0, Math.max(1, max ?? 1) * 1.1] } },
        axes: [
          { stroke: '#5b6372', grid: { stroke: '#eef0f3' }, values: xValues ? (_u, vals) => vals.map((v) => xValues(v)) : undefined, ...(xSplits ? { splits: () => xSplits } : {}) },
          { stroke: '#5b6372', grid: { stroke: '#eef0f3' }, size: 70, values: (_u, vals) => vals.map((v) => yFormat(v)) },
        ],
        series: [{}, ...series.map((s) => ({ label: s.label, stroke: s.color, width: 2, points: { show: true, size: 4 } }))],
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
  return <div ref={box} className="uplot-box" role="img" aria-label={label} data-testid={testId} />;
}
