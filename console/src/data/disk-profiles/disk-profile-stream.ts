import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { DiskProfile, DiskProfileProgressEvent } from '@strata/api';
import { diskProfileKeys } from './keys';

/**
 * Subscribes to GET /v1/profiles/{id}/stream while a profile runs: progress,
 * each finished workload and the load of the node's clusters go into the
 * profile's query data; at `end` it is refetched (advice, facts).
 */
export function useDiskProfileStream(id: string | undefined, running: boolean): void {
  const qc = useQueryClient();
  useEffect(() => {
    if (!id || !running) return;
    const src = new EventSource(`/v1/profiles/${encodeURIComponent(id)}/stream`);
    src.addEventListener('progress', (ev) => {
      try {
        const e = JSON.parse((ev as MessageEvent<string>).data) as DiskProfileProgressEvent;
        qc.setQueryData<DiskProfile>(diskProfileKeys.detail(id), (p) => p && {
          ...p,
          status: e.status,
          progress: Math.max(p.progress, e.progress),
          detail: e.detail ?? p.detail,
          results: e.result && !p.results.some((r) => r.index === e.result!.index) ? [...p.results, e.result] : p.results,
          clusters: e.clusters ?? p.clusters,
        });
      } catch {
        // skip a malformed event
      }
    });
    src.addEventListener('end', () => {
      src.close();
      void qc.invalidateQueries({ queryKey: diskProfileKeys.all });
    });
    return () => src.close();
  }, [id, running, qc]);
}
