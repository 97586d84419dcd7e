/**
 * One live source of cluster state: PostgreSQL triggers (migration 040)
 * announce every change to clusters, operations, instances and cluster events
 * on the `strata_live` channel; this feed LISTENs on one connection, reads the
 * changed row once and writes it to every open event stream of that
 * organization (server-sent events). Changes of one row are handled one at a
 * time, newest state last; a burst of changes to one row is sent once.
 */
import type { Request, Response } from 'express';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { LiveEvent } from '@strata/api';
import { publicCluster, type ClusterStore } from '../stores/cluster.store';
import { publicOperation, type OperationStore } from '../stores/operation.store';
import type { EventStream, EventStreams } from '../http/event-streams';

export const LIVE_CHANNEL = 'strata_live';

/** What a trigger sends: the kind of change and the row it names. */
export interface LiveNotice {
  k: 'cluster' | 'cluster-deleted' | 'operation' | 'cluster-activity' | 'topology';
  id?: string;
  org: string;
  cluster?: string;
  type?: string;
}

export interface LiveFeedDeps {
  pool: pg.Pool;
  clusters: Pick<ClusterStore, 'get'>;
  operations: Pick<OperationStore, 'get'>;
  log: Logger;
  /** Opens each stream (headers, the per-user cap, dropping slow readers). */
  streams: EventStreams;
  /** Keep-alive comment interval for idle streams. */
  pingMs?: number;
  reconnectMs?: number;
  /**
   * Re-checks a stream's credentials: the organization they act for now, or
   * null once they no longer hold (signed out, session expired, token revoked
   * or expired, scope gone). A stream whose credentials fail is closed.
   */
  revalidate?: (req: Request) => Promise<{ organizationId: string } | null>;
  /** How often every open stream's credentials are re-checked. */
  revalidateMs?: number;
}

interface Subscriber {
  req: Request;
  stream: EventStream;
  organizationId: string;
}

export function parseNotice(payload: string | undefined): LiveNotice | null {
  if (!payload) return null;
  try {
    const n = JSON.parse(payload) as LiveNotice;
    return typeof n.k === 'string' && typeof n.org === 'string' ? n : null;
  } catch {
    return null;
  }
}

export class LiveFeed {
  private readonly subs = new Set<Subscriber>();
  private readonly queue = new Map<string, { notice: LiveNotice; again: boolean }>();
  private client?: pg.PoolClient;
  private pingTimer?: NodeJS.Timeout;
  private revalidateTimer?: NodeJS.Timeout;
  private retryTimer?: NodeJS.Timeout;
  private stopped = false;
  /** False while the LISTEN connection is down: changes may be missed, so clients resync after it returns. */
  private listening = false;
  private listenedOnce = false;
  private readonly changeListeners: ((notice: LiveNotice | null) => void)[] = [];

  constructor(private readonly d: LiveFeedDeps) {}

  get size(): number {
    return this.subs.size;
  }

  async start(): Promise<void> {
    this.pingTimer = setInterval(() => this.broadcastRaw(': ping\n\n'), this.d.pingMs ?? 20_000);
    this.pingTimer.unref();
    if (this.d.revalidate) {
      this.revalidateTimer = setInterval(() => void this.revalidateAll(), this.d.revalidateMs ?? 2000);
      this.revalidateTimer.unref();
    }
    await this.listen();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.pingTimer);
    clearInterval(this.revalidateTimer);
    clearTimeout(this.retryTimer);
    for (const s of this.subs) s.stream.end();
    this.subs.clear();
    const c = this.client;
    this.client = undefined;
    if (c) {
      await c.query(`UNLISTEN ${LIVE_CHANNEL}`).catch(() => {});
      c.release();
    }
  }

  /**
   * Calls `listener` with every change notice the database sends, streams or
   * not, and with null when the LISTEN connection is back after a loss
   * (changes may have been missed).
   */
  onChange(listener: (notice: LiveNotice | null) => void): void {
    this.changeListeners.push(listener);
  }

  private announce(notice: LiveNotice | null): void {
    for (const l of this.changeListeners) {
      try {
        l(notice);
      } catch (err) {
        this.d.log.warn({ err }, 'live change listener failed');
      }
    }
  }

  /** Opens an event stream for one organization (the route has authenticated the caller). */
  open(req: Request, res: Response, organizationId: string): void {
    const stream = this.d.streams.start(req, res, { retryMs: 1000 });
    // `resync` tells the client the stream is live: it re-reads what it shows once, then relies on events.
    stream.write('event: resync\ndata: {"type":"resync"}\n\n');
    const sub: Subscriber = { req, stream, organizationId };
    this.subs.add(sub);
    stream.onClose(() => this.subs.delete(sub));
  }

  /**
   * Closes every stream whose credentials no longer hold or now act for
   * another organization (exposed for tests; runs every `revalidateMs`).
   */
  async revalidateAll(): Promise<void> {
    const check = this.d.revalidate;
    if (!check) return;
    await Promise.all([...this.subs].map(async (s) => {
      let now: { organizationId: string } | null;
      try {
        now = await check(s.req);
      } catch (err) {
        this.d.log.warn({ err }, 'live stream credentials could not be re-checked');
        return;
      }
      if (now?.organizationId === s.organizationId || !this.subs.has(s)) return;
      this.subs.delete(s);
      s.stream.end();
    }));
  }

  /** Handles one trigger notice (exposed for tests). */
  notify(notice: LiveNotice): void {
    const key = notice.k === 'cluster' || notice.k === 'cluster-deleted' ? `cluster:${notice.id}` : notice.k === 'operation' ? `operation:${notice.id}` : `${notice.k}:${notice.cluster}:${notice.type ?? ''}`;
    const pending = this.queue.get(key);
    if (pending) {
      pending.notice = notice;
      pending.again = true;
      return;
    }
    const entry = { notice, again: false };
    this.queue.set(key, entry);
    void this.drain(key, entry);
  }

  private async drain(key: string, entry: { notice: LiveNotice; again: boolean }): Promise<void> {
    try {
      do {
        entry.again = false;
        const notice = entry.notice;
        if (!this.hasSubscribers(notice.org)) continue;
        const event = await this.resolve(notice);
        if (event) this.send(notice.org, event);
      } while (entry.again && !this.stopped);
    } catch (err) {
      this.d.log.warn({ err, key }, 'live event dropped');
    } finally {
      this.queue.delete(key);
    }
  }

  private async resolve(n: LiveNotice): Promise<LiveEvent | null> {
    switch (n.k) {
      case 'cluster': {
        const c = await this.d.clusters.get(n.id!, n.org);
        return c ? { type: 'cluster', cluster: publicCluster(c) } : null;
      }
      case 'cluster-deleted':
        return { type: 'cluster-deleted', clusterId: n.id! };
      case 'operation': {
        const op = await this.d.operations.get(n.id!, n.org);
        return op ? { type: 'operation', operation: publicOperation(op) } : null;
      }
      case 'cluster-activity':
        return { type: 'cluster-activity', clusterId: n.cluster!, eventType: n.type ?? 'unknown' };
      case 'topology':
        return { type: 'topology', clusterId: n.cluster! };
      default:
        return null;
    }
  }

  private hasSubscribers(org: string): boolean {
    for (const s of this.subs) if (s.organizationId === org) return true;
    return false;
  }

  private send(org: string, event: LiveEvent): void {
    const frame = `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
    for (const s of this.subs) if (s.organizationId === org) this.write(s, frame);
  }

  private broadcastRaw(frame: string): void {
    for (const s of this.subs) this.write(s, frame);
  }

  private write(s: Subscriber, frame: string): void {
    if (!s.stream.write(frame)) this.subs.delete(s);
  }

  private async listen(): Promise<void> {
    if (this.stopped) return;
    try {
      const client = await this.d.pool.connect();
      client.on('notification', (m) => {
        const n = m.channel === LIVE_CHANNEL ? parseNotice(m.payload) : null;
        if (!n) return;
        this.announce(n);
        this.notify(n);
      });
      client.on('error', (err) => this.lost(client, err));
      await client.query(`LISTEN ${LIVE_CHANNEL}`);
      this.client = client;
      const wasDown = !this.listening;
      this.listening = true;
      // Changes made while nobody listened are unknown: every client re-reads.
      if (wasDown && this.subs.size) this.broadcastRaw('event: resync\ndata: {"type":"resync"}\n\n');
      if (wasDown && this.listenedOnce) this.announce(null);
      this.listenedOnce = true;
    } catch (err) {
      this.d.log.warn({ err }, 'live feed cannot LISTEN; retrying');
      this.retry();
    }
  }

  private lost(client: pg.PoolClient, err: Error): void {
    if (this.client !== client) return;
    this.d.log.warn({ err }, 'live feed connection lost; reconnecting');
    this.client = undefined;
    this.listening = false;
    client.release(err);
    this.retry();
  }

  private retry(): void {
    if (this.stopped) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => void this.listen(), this.d.reconnectMs ?? 1000);
  }
}
