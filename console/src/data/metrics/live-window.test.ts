import { describe, expect, it } from 'vitest';
import type { MetricsResult } from '@strata/api';
import { LiveWindow, combineShards } from './live-window';

const series = (metric: string, shard: number, values: (number | null)[]) => ({ metric, scope: 'shard' as const, shard, instanceId: null, role: null, values });

describe('LiveWindow', () => {
  it('seeds from history by shard and combines shards into cluster columns', () => {
    const w = new LiveWindow(300);
    const r: MetricsResult = {
      from: 100, to: 103, step: 1, source: 'memory', timestamps: [100, 101, 102],
      series: [series('ops', 0, [1, 2, null]), series('ops', 1, [10, null, null]), series('latency_p99', 0, [5, 6, null]), series('latency_p99', 1, [9, 1, null])],
    };
    w.seed(r);
    expect(w.columns.get('ops')).toEqual([11, 2, null]);
    expect(w.columns.get('latency_p99')).toEqual([9, 6, null]);
    expect(w.shards()).toEqual([0, 1]);
  });

  it('appends stream points, fills the newest second and slides the window', () => {
    const w = new LiveWindow(3);
    for (const ts of [10, 11, 12, 13, 14]) {
      w.push({ ts, series: [{ metric: 'ops', scope: 'shard', shard: 0, instanceId: null, role: null, value: ts }, { metric: 'ops', scope: 'shard', shard: 1, instanceId: null, role: null, value: 1 }] });
    }
    expect(w.timestamps).toEqual([12, 13, 14]);
    expect(w.columns.get('ops')).toEqual([13, 14, 15]);
    expect(w.latest('ops')).toBe(15);
    // An older point than the window's newest is ignored.
    w.push({ ts: 5, series: [{ metric: 'ops', scope: 'shard', shard: 0, instanceId: null, role: null, value: 99 }] });
    expect(w.timestamps).toEqual([12, 13, 14]);
  });

  it('the newest second waits for every shard that reported the second before (no half sums at the right edge)', () => {
    const w = new LiveWindow(300);
    const p = (ts: number, shard: number, value: number) => ({ ts, series: [{ metric: 'keys', scope: 'shard' as const, shard, instanceId: null, role: null, value }] });
    w.push(p(10, 0, 100));
    w.push(p(10, 1, 120));
    w.push(p(11, 0, 101));
    expect(w.columns.get('keys')).toEqual([220, null]);
    expect(w.latest('keys')).toBe(220);
    w.push(p(11, 1, 121));
    expect(w.columns.get('keys')).toEqual([220, 222]);
  });

  it('combines shards: sums, the worst latency, nothing when no shard has a value', () => {
    expect(combineShards('ops', [1, null, 2])).toBe(3);
    expect(combineShards('latency_p50', [7, 3])).toBe(7);
    expect(combineShards('ops', [null])).toBeNull();
  });
});
