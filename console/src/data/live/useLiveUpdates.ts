import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { LiveEvent, LiveEventType } from '@strata/api';
import { applyLiveEvent } from './apply-live-event';
import { setLive } from './live-store';

const TYPES: LiveEventType[] = ['cluster', 'cluster-deleted', 'operation', 'cluster-activity', 'topology', 'resync'];

/** Wait before reopening a stream the browser gave up on: 1 s, doubling, at most 30 s. */
export function reopenDelayMs(attempt: number): number {
  return Math.min(30_000, 1000 * 2 ** Math.max(0, attempt - 1));
}

/**
 * One EventSource per signed-in page on GET /v1/events/stream (the session
 * cookie authenticates it). While it is open, queries poll only as a slow
 * fallback; when it drops, they fall back to polling until it reconnects,
 * and every `resync` (each connect) re-reads what is shown once. EventSource
 * retries a dropped stream by itself, but gives up for good when a connect is
 * answered with an error status (a proxy's 502, a restart): then a new one is
 * opened with backoff.
 */
export function useLiveUpdates(enabled: boolean): void {
  const qc = useQueryClient();
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    let src: EventSource | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let opened = 0;
    let failures = 0;
    let stopped = false;

    const connect = () => {
      const s = new EventSource('/v1/events/stream');
      src = s;
      s.addEventListener('open', () => {
        opened++;
        failures = 0;
        setLive(true);
      });
      s.addEventListener('error', () => {
        if (opened) {
          setLive(false);
          // Until the stream is back, polling carries the state: restart it at its normal pace.
          void qc.invalidateQueries({ queryKey: ['clusters'] });
        }
        if (s.readyState === EventSource.CLOSED && !stopped) {
          s.close();
          failures++;
          timer = setTimeout(connect, reopenDelayMs(failures));
        }
      });
      for (const type of TYPES) {
        s.addEventListener(type, (ev) => {
          try {
            applyLiveEvent(qc, JSON.parse((ev as MessageEvent<string>).data) as LiveEvent, { reconnected: opened > 1 });
          } catch {
            // A malformed event is skipped; polling and the next resync repair the cache.
          }
        });
      }
    };
    connect();
    return () => {
      stopped = true;
      clearTimeout(timer);
      src?.close();
      setLive(false);
    };
  }, [enabled, qc]);
}
