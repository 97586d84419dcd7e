import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { LiveEvent, LiveEventType } from '@strata/api';
import { applyLiveEvent } from './apply-live-event';
import { setLive } from './live-store';

const TYPES: LiveEventType[] = ['cluster', 'cluster-deleted', 'operation', 'cluster-activity', 'topology', 'resync'];

/**
 * One EventSource per signed-in page on GET /v1/events/stream (the session
 * cookie authenticates it). While it is open, queries poll only as a slow
 * fallback; when it drops, they fall back to polling until it reconnects
 * (EventSource retries by itself), then everything is re-read once.
 */
export function useLiveUpdates(enabled: boolean): void {
  const qc = useQueryClient();
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    const src = new EventSource('/v1/events/stream');
    let opened = 0;
    src.addEventListener('open', () => {
      opened++;
      setLive(true);
    });
    src.addEventListener('error', () => {
      if (!opened) return;
      setLive(false);
      // Until the stream is back, polling carries the state: restart it at its normal pace.
      void qc.invalidateQueries({ queryKey: ['clusters'] });
    });
    for (const type of TYPES) {
      src.addEventListener(type, (ev) => {
        try {
          applyLiveEvent(qc, JSON.parse((ev as MessageEvent<string>).data) as LiveEvent, { reconnected: opened > 1 });
        } catch {
          // A malformed event is skipped; polling and the next resync repair the cache.
        }
      });
    }
    return () => {
      src.close();
      setLive(false);
    };
  }, [enabled, qc]);
}
