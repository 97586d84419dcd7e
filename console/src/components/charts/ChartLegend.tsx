/** A chart's legend in HTML: a swatch, the series name and (when given) its latest value with its unit. */
export function ChartLegend({ items }: { items: { label: string; color: string; value?: string; dashed?: boolean }[] }) {
  return (
    <ul className="chart-legend" aria-label="Legend">
      {items.map((i) => (
        <li key={i.label}>
          <span className={i.dashed ? 'chart-swatch dashed' : 'chart-swatch'} style={{ ['--swatch' as string]: i.color }} aria-hidden="true" />
          <span className="chart-legend-label">{i.label}</span>
          {i.value !== undefined && <span className="chart-legend-value tabular">{i.value}</span>}
        </li>
      ))}
    </ul>
  );
}
