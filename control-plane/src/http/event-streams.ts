/**
 * Every server-sent event stream of the API opens here: one place sets the
 * headers, caps how many streams one caller holds open, and drops a reader
 * that falls behind instead of buffering for it without bound.
 */
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import { tooManyRequests } from '../errors';
import { callerKey } from '../auth/caller-key';

export interface EventStreamLimits {
  /** Streams one user (or token without a user) may hold open at once. */
  perPrincipal: number;
  /** Bytes written to a stream but not yet taken by its reader, above which the reader is dropped. */
  maxBufferedBytes: number;
}

/** One open stream. Writes after it ended (closed by the reader, dropped, or ended) are ignored. */
export class EventStream {
  private ended = false;
  private readonly closeListeners: (() => void)[] = [];

  constructor(private readonly res: Response, private readonly maxBufferedBytes: number, private readonly onDrop: () => void) {}

  get closed(): boolean {
    return this.ended;
  }

  /** Writes a raw frame (`event: …\ndata: …\n\n`); false once the stream is gone. */
  write(frame: string): boolean {
    if (this.ended) return false;
    try {
      this.res.write(frame);
    } catch {
      this.close();
      return false;
    }
    if (this.res.writableLength > this.maxBufferedBytes) {
      // The reader takes less than we send: end it now (it reconnects and re-reads), rather than hold its backlog.
      this.onDrop();
      this.close();
      this.res.destroy();
      return false;
    }
    return true;
  }

  /** One named event with a JSON payload, and an id when the stream resumes by ids. */
  send(event: string, data: unknown, id?: string | number): boolean {
    return this.write(`${id !== undefined ? `id: ${id}\n` : ''}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  /** Ends the stream from our side. */
  end(): void {
    if (this.ended) return;
    this.close();
    this.res.end();
  }

  /** Called once when the stream is gone, whoever ended it. */
  onClose(fn: () => void): void {
    if (this.ended) fn();
    else this.closeListeners.push(fn);
  }

  /** @internal */
  close(): void {
    if (this.ended) return;
    this.ended = true;
    for (const fn of this.closeListeners.splice(0)) fn();
  }
}

export class EventStreams {
  private readonly byOwner = new Map<string, number>();
  private readonly open = new Set<EventStream>();
  private droppedCount = 0;

  constructor(private readonly d: { limits: EventStreamLimits; log: Logger }) {}

  /** Streams dropped because their reader fell behind, since start. */
  get dropped(): number {
    return this.droppedCount;
  }

  get size(): number {
    return this.open.size;
  }

  /**
   * Starts an event stream on `res` for the authenticated caller, or throws
   * 429 `too_many_streams` (before anything is written) when the caller
   * already holds the most streams allowed.
   */
  start(req: Request, res: Response, opts: { retryMs: number }): EventStream {
    const owner = callerKey(req.principal!);
    const held = this.byOwner.get(owner) ?? 0;
    if (held >= this.d.limits.perPrincipal) {
      throw tooManyRequests('too_many_streams', 'Too many event streams',
        `You have ${held} event streams open, the most one user may hold; close one (a console tab, a watching script) and open this again.`);
    }
    this.byOwner.set(owner, held + 1);
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    req.socket.setNoDelay(true);
    const stream = new EventStream(res, this.d.limits.maxBufferedBytes, () => {
      this.droppedCount++;
      this.d.log.warn({ owner, bufferedBytes: res.writableLength, path: req.originalUrl }, 'event stream reader fell behind; dropped');
    });
    this.open.add(stream);
    stream.onClose(() => {
      this.open.delete(stream);
      const n = (this.byOwner.get(owner) ?? 1) - 1;
      if (n > 0) this.byOwner.set(owner, n);
      else this.byOwner.delete(owner);
    });
    req.on('close', () => stream.close());
    stream.write(`retry: ${opts.retryMs}\n\n`);
    return stream;
  }

  /** Ends every open stream (shutdown). */
  endAll(): void {
    for (const s of [...this.open]) s.end();
  }
}
