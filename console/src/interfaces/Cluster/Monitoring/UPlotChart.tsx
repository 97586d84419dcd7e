import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface ChartSeries {
  label: string;
  color: string;
}

/**
 * A uPlot line chart that fills its container's width. The plot is created
 * once; new data goes through setData (cheap enough for every second).
 */
export function UPlotChart({ data, series, format, height = 180, label }: {
  data: uPlot.AlignedData;
  series: ChartSeries[];
  format: (v: number | null) => string;
  height?: number;
  label: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const fmt = useRef(format);
  fmt.current = format;
  const seriesKey = series.map((s) => s.label).join('|');

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const opts: uPlot.Options = {
      width: Math.max(200, el.clientWidth),
      height,
      legend: { show: true, live: true },
      cursor: { drag: { x: false, y: false } },
      scales: { x: { time: true }, y: { range: (_u, min, max) => [Math.min(0, min ?? 0), Math.max(1, max ?? 1) * 1.1] } },
      axes: [
        { stroke: '#5b6372', grid: { stroke: '#eef0f3' }, ticks: { stroke: '#e2e5ea' } },
        { stroke: '#5b6372', grid: { stroke: '#eef0f3' }, ticks: { stroke: '#e2e5ea' }, size: 70, values: (_u, vals) => vals.map((v) => fmt.current(v)) },
      ],
      series: [{}, ...series.map((s) => ({ label: s.label, stroke: s.color, width: 2, points: { show: false }, spanGaps: false, value: (_u: uPlot, v: number | null) => fmt.current(v) }))],
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

  return <div ref={box} className="uplot-box" role="img" aria-label={label} />;
}
