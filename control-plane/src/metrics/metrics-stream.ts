/**
 * Server-sent events for live charts: every second (950 ms after the
 * wall-clock second, when the agents' samples for it have arrived: agents
 * push within 700 ms of the second, spread so a fleet's pushes do not come
 * in one burst) each open stream gets one `sample` event with one point per
 * series. A tick that fires late (a busy event loop) sends every second
 * the subscriber is owed, so a chart never skips one.
 */
import type { Request, Response } from 'express';
import type { ClusterMetric, MetricsGrouping } from '@strata/api';
import type { MetricsQuery } from './metrics-query';
import type { EventStream, EventStreams } from '../http/event-streams';

interface Subscriber {
  stream: EventStream;
  clusterId: string;
  metrics: ClusterMetric[];
  by: MetricsGrouping;
  /** The next second this subscriber is owed. */
  next?: number;
}

/** At most this many owed seconds are sent in one tick; older ones are dropped. */
const MAX_CATCH_UP = 5;

export class MetricsStreams {
  private readonly subs = new Set<Subscriber>();
  private timer?: NodeJS.Timeout;
  private stopped = false;

  constructor(private readonly query: MetricsQuery, private readonly streams: EventStreams, private readonly delayMs = 950) {}

  get size(): number {
    return this.subs.size;
  }

  open(req: Request, res: Response, s: Omit<Subscriber, 'stream'>): void {
    const stream = this.streams.start(req, res, { retryMs: 2000 });
    const sub: Subscriber = { ...s, stream };
    this.subs.add(sub);
    stream.onClose(() => this.subs.delete(sub));
    if (this.subs.size === 1) this.schedule();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    for (const s of this.subs) s.stream.end();
    this.subs.clear();
  }

  private schedule(): void {
    if (this.stopped || !this.subs.size) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.tick(), 1000 - (Date.now() % 1000) + this.delayMs);
  }

  /** The second whose samples are due now: the one that started `delayMs` + 1 s ago at most. */
  private dueSecond(now = Date.now()): number {
    return Math.floor((now - this.delayMs) / 1000);
  }

  private tick(): void {
    const due = this.dueSecond();
    for (const s of this.subs) {
      try {
        for (let sec = Math.max(s.next ?? due, due - MAX_CATCH_UP + 1); sec <= due; sec++) {
          s.stream.send('sample', this.query.streamPoint(s.clusterId, s.metrics, s.by, sec), sec);
        }
        s.next = due + 1;
      } catch {
        this.subs.delete(s);
        s.stream.end();
      }
    }
    this.schedule();
  }
}
