/**
 * HDR histograms as BENCHMARKS.md asks: 1 us .. 60 s, 3 significant digits,
 * values in microseconds. Encoded in HdrHistogram's compressed base64 so
 * workers can ship them and the control plane can merge them losslessly.
 */
import { createRequire } from 'node:module';
import type * as Hdr from 'hdr-histogram-js';
import type { LatencySummary } from '@strata/api';

export type Histogram = Hdr.Histogram;

let loaded: typeof Hdr | undefined;
/** hdr-histogram-js, loaded on first use: about 0.3 s of CPU at start for every process that imports this module, most of which never measure. */
const hdr = (): typeof Hdr => (loaded ??= createRequire(import.meta.url)('hdr-histogram-js') as typeof Hdr);

/** Loads the histogram library now, where its start-up must not land inside a measured window (a load worker's start). */
export function loadHistograms(): void {
  hdr();
}

export const LOWEST_US = 1;
export const HIGHEST_US = 60_000_000;
export const SIGNIFICANT_DIGITS = 3;

export function newHistogram(): Histogram {
  return hdr().build({
    lowestDiscernibleValue: LOWEST_US,
    highestTrackableValue: HIGHEST_US,
    numberOfSignificantValueDigits: SIGNIFICANT_DIGITS,
    bitBucketSize: 32,
    useWebAssembly: false,
  });
}

/** Records a latency in microseconds, clamped into the trackable range. */
export function recordUs(h: Histogram, us: number): void {
  h.recordValue(us < LOWEST_US ? LOWEST_US : us > HIGHEST_US ? HIGHEST_US : Math.round(us));
}

/**
 * Records latencies into a histogram, a run of equal values at once: the
 * replies of one read share their arrival time, and the requests of one
 * write their send time, so a pipelined batch is mostly one value. Call
 * flush() before reading the histogram.
 */
export class RunRecorder {
  private value = -1;
  private count = 0;
  constructor(readonly histogram: Histogram) {}
  record(us: number): void {
    const v = us < LOWEST_US ? LOWEST_US : us > HIGHEST_US ? HIGHEST_US : Math.round(us);
    if (v === this.value) {
      this.count++;
      return;
    }
    if (this.count > 0) this.histogram.recordValueWithCount(this.value, this.count);
    this.value = v;
    this.count = 1;
  }
  flush(): void {
    if (this.count > 0) this.histogram.recordValueWithCount(this.value, this.count);
    this.value = -1;
    this.count = 0;
  }
}

export function encodeHistogram(h: Histogram): string {
  return hdr().encodeIntoCompressedBase64(h);
}

export function decodeHistogram(base64: string): Histogram {
  return hdr().decodeFromCompressedBase64(base64, 32, false);
}

/** A new histogram holding every value of the given ones. */
export function mergeHistograms(hs: Iterable<Histogram>): Histogram {
  const out = newHistogram();
  for (const h of hs) out.add(h);
  return out;
}

export function summarize(h: Histogram): LatencySummary {
  if (h.totalCount === 0) return { count: 0, mean: 0, p50: 0, p95: 0, p99: 0, p999: 0, max: 0 };
  return {
    count: h.totalCount,
    mean: Math.round(h.mean * 10) / 10,
    p50: h.getValueAtPercentile(50),
    p95: h.getValueAtPercentile(95),
    p99: h.getValueAtPercentile(99),
    p999: h.getValueAtPercentile(99.9),
    max: h.getValueAtPercentile(100),
  };
}

/** HdrHistogram log format (HistogramLogWriter) of interval histograms, for export. */
export function histogramLog(intervals: { startSec: number; endSec: number; tag?: string; histogram: Histogram }[], startTimeMs: number): string {
  let out = '';
  const writer = new (hdr().HistogramLogWriter)((s: string) => {
    out += s;
  });
  writer.outputLogFormatVersion();
  writer.outputStartTime(startTimeMs);
  writer.outputLegend();
  for (const i of intervals) {
    if (i.tag) i.histogram.tag = i.tag;
    writer.outputIntervalHistogram(i.histogram, i.startSec, i.endSec, 1);
  }
  return out;
}
