import type { LiveEvent } from '@strata/api';

/** A real client of GET /v1/events/stream: collects every event, waits for one matching a predicate. */
export class LiveStreamClient {
  readonly events: LiveEvent[] = [];
  private readonly abort = new AbortController();
  private waiters: { pred: (e: LiveEvent) => boolean; resolve: (e: LiveEvent) => void }[] = [];
  status = 0;
  contentType = '';
  /** Resolves when the server ends the stream (or it is closed here). */
  readonly ended: Promise<void>;
  private markEnded!: () => void;

  private constructor() {
    this.ended = new Promise((resolve) => (this.markEnded = resolve));
  }

  static async open(url: string, headers: Record<string, string>): Promise<LiveStreamClient> {
    const c = new LiveStreamClient();
    const res = await fetch(`${url}/v1/events/stream`, { headers, signal: c.abort.signal });
    c.status = res.status;
    c.contentType = res.headers.get('content-type') ?? '';
    if (res.ok && res.body) void c.read(res.body).finally(() => c.markEnded());
    else c.markEnded();
    return c;
  }

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buf = '';
    try {
      for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
        buf += decoder.decode(chunk, { stream: true });
        let i: number;
        while ((i = buf.indexOf('\n\n')) !== -1) {
          const frame = buf.slice(0, i);
          buf = buf.slice(i + 2);
          const data = frame.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
          if (!data) continue;
          const e = JSON.parse(data) as LiveEvent;
          this.events.push(e);
          this.waiters = this.waiters.filter((w) => (w.pred(e) ? (w.resolve(e), false) : true));
        }
      }
    } catch {
      // aborted
    }
  }

  /** The first event (already received or coming) that matches. */
  waitFor<T extends LiveEvent>(pred: (e: LiveEvent) => e is T, timeoutMs?: number): Promise<T>;
  waitFor(pred: (e: LiveEvent) => boolean, timeoutMs?: number): Promise<LiveEvent>;
  waitFor(pred: (e: LiveEvent) => boolean, timeoutMs = 30_000): Promise<LiveEvent> {
    const seen = this.events.find(pred);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no matching live event within ${timeoutMs} ms; got: ${this.events.map((e) => e.type).join(', ')}`)), timeoutMs);
      this.waiters.push({ pred, resolve: (e) => { clearTimeout(t); resolve(e); } });
    });
  }

  close(): void {
    this.abort.abort();
  }
}
