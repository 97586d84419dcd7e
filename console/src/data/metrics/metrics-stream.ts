import { useEffect, useRef, useState } from 'react';
import type { ClusterMetric, MetricsStreamEvent } from '@strata/api';

export type StreamState = 'connecting' | 'open' | 'reconnecting' | 'off';

/**
 * Subscribes to GET /v1/clusters/{id}/metrics/stream (server-sent events,
 * one `sample` event per second; the session cookie authenticates it).
 * EventSource reconnects by itself after a drop.
 */
export function useMetricsStream(clusterId: string, metrics: readonly ClusterMetric[], onSample: (e: MetricsStreamEvent) => void, enabled: boolean): StreamState {
  const [state, setState] = useState<StreamState>(enabled ? 'connecting' : 'off');
  const handler = useRef(onSample);
  handler.current = onSample;
  const metricList = metrics.join(',');

  useEffect(() => {
    if (!enabled) {
      setState('off');
      return;
    }
    setState('connecting');
    const src = new EventSource(`/v1/clusters/${encodeURIComponent(clusterId)}/metrics/stream?by=shard&metric=${encodeURIComponent(metricList)}`);
    src.addEventListener('open', () => setState('open'));
    src.addEventListener('error', () => setState(src.readyState === EventSource.CLOSED ? 'off' : 'reconnecting'));
    src.addEventListener('sample', (ev) => {
      try {
        handler.current(JSON.parse((ev as MessageEvent<string>).data) as MetricsStreamEvent);
      } catch {
        // A malformed event is skipped; the next second brings a new one.
      }
    });
    return () => src.close();
  }, [clusterId, metricList, enabled]);

  return state;
}
