/** Merging per-op counts and histograms from several workers (threads or agents). */
import { decodeHistogram, encodeHistogram, newHistogram } from './histogram';
import type { OpCounts } from './loadgen/protocol';

export function mergeOpCounts(parts: readonly (readonly OpCounts[])[]): OpCounts[] {
  const byOp = new Map<string, { count: number; errors: number; misses: number; service: ReturnType<typeof newHistogram>; response?: ReturnType<typeof newHistogram> }>();
  for (const part of parts) {
    for (const o of part) {
      let m = byOp.get(o.op);
      if (!m) {
        m = { count: 0, errors: 0, misses: 0, service: newHistogram() };
        byOp.set(o.op, m);
      }
      m.count += o.count;
      m.errors += o.errors;
      m.misses += o.misses;
      m.service.add(decodeHistogram(o.service));
      if (o.response) {
        m.response ??= newHistogram();
        m.response.add(decodeHistogram(o.response));
      }
    }
  }
  return [...byOp.entries()].map(([op, m]) => ({
    op,
    count: m.count,
    errors: m.errors,
    misses: m.misses,
    service: encodeHistogram(m.service),
    response: m.response ? encodeHistogram(m.response) : undefined,
  }));
}
