import { describe, expect, it } from 'vitest';
import { newHistogram, recordUs, encodeHistogram, decodeHistogram, mergeHistograms, summarize, histogramLog, Rng } from './index';
import { RunRecorder } from './histogram';

describe('HDR histograms', () => {
  it('1 us .. 60 s at 3 significant digits: sub-millisecond values keep their resolution', () => {
    const h = newHistogram();
    recordUs(h, 87);
    recordUs(h, 0.2); // clamped up to 1 us
    recordUs(h, 120_000_000); // clamped to 60 s
    expect(h.getValueAtPercentile(1)).toBe(1);
    expect(h.getValueAtPercentile(50)).toBe(87);
    expect(Math.abs(h.maxValue - 60_000_000) / 60_000_000).toBeLessThan(0.001);
  });

  it('RunRecorder (runs of equal values recorded at once) holds the same values as recording each one', () => {
    const values = [5, 5, 5, 7.4, 7.2, 0.2, 0.2, 120_000_000, 33, 33, 33, 33, 5];
    const each = newHistogram();
    for (const v of values) recordUs(each, v);
    const runs = new RunRecorder(newHistogram());
    for (const v of values) runs.record(v);
    expect(runs.histogram.totalCount).toBeLessThan(values.length); // the last run waits for flush
    runs.flush();
    expect(runs.histogram.totalCount).toBe(values.length);
    for (const p of [1, 25, 50, 75, 90, 99, 100]) expect(runs.histogram.getValueAtPercentile(p)).toBe(each.getValueAtPercentile(p));
    runs.flush();
    expect(runs.histogram.totalCount).toBe(values.length);
  });

  it('merging the histograms of several workers equals one histogram of all values', () => {
    const rng = new Rng(1);
    const single = newHistogram();
    const parts = [newHistogram(), newHistogram(), newHistogram()];
    for (let i = 0; i < 30_000; i++) {
      const v = Math.floor(Math.exp(rng.nextDouble() * 14)); // 1 us .. ~1.2 s
      recordUs(single, v);
      recordUs(parts[i % 3]!, v);
    }
    // ship each part as a worker would (compressed base64), then merge
    const merged = mergeHistograms(parts.map((p) => decodeHistogram(encodeHistogram(p))));
    expect(merged.totalCount).toBe(single.totalCount);
    for (const p of [1, 10, 50, 90, 95, 99, 99.9, 99.99, 100]) expect(merged.getValueAtPercentile(p)).toBe(single.getValueAtPercentile(p));
    expect(summarize(merged)).toEqual(summarize(single));
  });

  it('summaries are in microseconds and empty histograms read as zero', () => {
    expect(summarize(newHistogram())).toEqual({ count: 0, mean: 0, p50: 0, p95: 0, p99: 0, p999: 0, max: 0 });
    const h = newHistogram();
    for (let i = 1; i <= 1000; i++) recordUs(h, i);
    const s = summarize(h);
    expect(s.p50).toBe(500);
    expect(s.p99).toBe(990);
    expect(s.count).toBe(1000);
  });

  it('writes the HdrHistogram log format', () => {
    const h = newHistogram();
    recordUs(h, 100);
    const log = histogramLog([{ startSec: 0, endSec: 1, tag: 'read', histogram: h }], 1_700_000_000_000);
    expect(log).toContain('#[Histogram log format version');
    expect(log).toMatch(/Tag=read,0\.000,1\.000,/);
  });
});
