import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Request, Response } from 'express';
import { MetricsStreams } from './metrics-stream';
import type { MetricsQuery } from './metrics-query';
import type { EventStreams } from '../http/event-streams';

function harness() {
  const sent: number[] = [];
  const stream = { send: (_e: string, _d: unknown, id: number) => sent.push(id), onClose: () => undefined, end: () => undefined };
  const streams = { start: () => stream } as unknown as EventStreams;
  const query = { streamPoint: (_c: string, _m: unknown, _b: unknown, sec: number) => ({ ts: sec, series: [] }) } as unknown as MetricsQuery;
  const live = new MetricsStreams(query, streams, 950);
  live.open({} as Request, {} as Response, { clusterId: 'c', metrics: ['ops'], by: 'cluster' });
  return { sent, live };
}

describe('MetricsStreams', () => {
  afterEach(() => vi.useRealTimers());

  it('sends one point per second, and every skipped second when a tick fires late', () => {
    vi.useFakeTimers({ now: 1_000_000_300 });
    const { sent, live } = harness();
    vi.advanceTimersByTime(1650 + 3000); // ticks at 1_000_001.950, 002.950, 003.950, 004.950
    expect(sent).toEqual([1_000_001, 1_000_002, 1_000_003, 1_000_004]);
    // The event loop stalls for 1.2 s across the next tick: nothing is skipped.
    vi.setSystemTime(1_000_006_150);
    vi.advanceTimersByTime(3000);
    expect(sent.slice(0, 8)).toEqual([1_000_001, 1_000_002, 1_000_003, 1_000_004, 1_000_005, 1_000_006, 1_000_007, 1_000_008]);
    live.stop();
  });
});
