import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Benchmark, BenchmarkPoint, BenchmarkProgressEvent } from '@strata/api';
import { benchmarkKeys } from './keys';

/**
 * Subscribes to GET /v1/benchmarks/{id}/stream while a run is active:
 * progress goes into the benchmark's query data, per-second points to
 * `onPoint`. At `end` the benchmark is refetched for its result.
 */
export function useBenchmarkStream(id: string | undefined, active: boolean, onPoint: (p: BenchmarkPoint) => void): void {
  const qc = useQueryClient();
  const handler = useRef(onPoint);
  handler.current = onPoint;
  useEffect(() => {
    if (!id || !active) return;
    const src = new EventSource(`/v1/benchmarks/${encodeURIComponent(id)}/stream`);
    src.addEventListener('progress', (ev) => {
      try {
        const e = JSON.parse((ev as MessageEvent<string>).data) as BenchmarkProgressEvent;
        qc.setQueryData<Benchmark>(benchmarkKeys.detail(id), (b) => (b ? { ...b, state: e.state, progress: e.progress, detail: e.detail ?? b.detail } : b));
        if (e.point) handler.current(e.point);
      } catch {
        // skip a malformed event
      }
    });
    src.addEventListener('end', () => {
      src.close();
      void qc.invalidateQueries({ queryKey: benchmarkKeys.all });
    });
    return () => src.close();
  }, [id, active, qc]);
}
