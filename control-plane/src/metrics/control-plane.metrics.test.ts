import { describe, expect, it, vi } from 'vitest';
import type pg from 'pg';
import type { MetricsIngest } from './metrics-ingest';

const eld = vi.hoisted(() => ({ resolutions: [] as number[] }));
vi.mock('node:perf_hooks', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:perf_hooks')>();
  return {
    ...real,
    monitorEventLoopDelay: (o?: { resolution?: number }) => {
      eld.resolutions.push(o?.resolution ?? 10);
      return real.monitorEventLoopDelay(o);
    },
  };
});

describe('control-plane metrics: event-loop delay', () => {
  it('is sampled every 10 ms only once /metrics is scraped, and every lag gauge is exposed once', async () => {
    // A fresh copy of the module, so it sees the mock even where another file of the same worker loaded it first.
    vi.resetModules();
    const { createControlPlaneMetrics } = await import('./control-plane.metrics');
    const before = eld.resolutions.length;
    const m = createControlPlaneMetrics({
      pool: { query: async () => ({ rows: [] }) } as unknown as pg.Pool,
      ingest: { stats: { samples: 0, rejected: 0, rowsWritten: { instance1s: 0, instance1m: 0, node1s: 0, node1m: 0 }, rowsDropped: 0, queued: 0 } } as unknown as MetricsIngest,
    });
    // Nothing samples at 10 ms before a scrape (prom-client's own histogram never fires).
    expect(eld.resolutions.slice(before).filter((r) => r < 1000)).toEqual([]);
    const first = await m.registry.metrics();
    expect(eld.resolutions.slice(before).filter((r) => r < 1000)).toEqual([10]);
    await new Promise((r) => setTimeout(r, 60));
    const second = await m.registry.metrics();
    expect(eld.resolutions.slice(before).filter((r) => r < 1000)).toEqual([10]); // still the one histogram
    for (const text of [first, second]) {
      for (const g of ['', '_min', '_max', '_mean', '_stddev', '_p50', '_p90', '_p99']) {
        expect(text.match(new RegExp(`^# TYPE strata_control_plane_nodejs_eventloop_lag${g}_seconds gauge$`, 'gm'))).toHaveLength(1);
      }
    }
    const max = Number(/^strata_control_plane_nodejs_eventloop_lag_max_seconds (\S+)$/m.exec(second)![1]);
    expect(max).toBeGreaterThan(0);
    expect(max).toBeLessThan(5);
  });
});
