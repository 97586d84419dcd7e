/**
 * Server-sent events for live charts: every second (950 ms after the
 * wall-clock second, when the agents' samples for it have arrived: agents
 * push within 700 ms of the second, spread so a fleet's pushes do not come
 * in one burst) each open stream gets one `sample` event with one point per
 * series.
 */
import type { Request, Response } from 'express';
import type { ClusterMetric, MetricsGrouping } from '@strata/api';
import type { MetricsQuery } from './metrics-query';

interface Subscriber {
  res: Response;
  clusterId: string;
  metrics: ClusterMetric[];
  by: MetricsGrouping;
}

export class MetricsStreams {
  private readonly subs = new Set<Subscriber>();
  private timer?: NodeJS.Timeout;
  private stopped = false;

  constructor(private readonly query: MetricsQuery, private readonly delayMs = 950) {}

  get size(): number {
    return this.subs.size;
  }

  open(req: Request, res: Response, s: Omit<Subscriber, 'res'>): void {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.write('retry: 2000\n\n');
    const sub: Subscriber = { ...s, res };
    this.subs.add(sub);
    req.on('close', () => this.subs.delete(sub));
    if (this.subs.size === 1) this.schedule();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    for (const s of this.subs) s.res.end();
    this.subs.clear();
  }

  private schedule(): void {
    if (this.stopped || !this.subs.size) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.tick(), 1000 - (Date.now() % 1000) + this.delayMs);
  }

  private tick(): void {
    const sec = Math.floor(Date.now() / 1000);
    for (const s of this.subs) {
      try {
        const event = this.query.streamPoint(s.clusterId, s.metrics, s.by, sec);
        s.res.write(`id: ${sec}\nevent: sample\ndata: ${JSON.stringify(event)}\n\n`);
      } catch {
        this.subs.delete(s);
        s.res.end();
      }
    }
    this.schedule();
  }
}
