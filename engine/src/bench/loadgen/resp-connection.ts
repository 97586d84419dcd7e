/**
 * One pipelining socket to a redis-server. Commands are written straight
 * into an output buffer (see command-writer.ts) and sent once per
 * event-loop turn; replies are matched in order to the waiting requests.
 * Nothing is allocated per request or reply in the common case.
 */
import net from 'node:net';
import { ParseMode, parseReply, ReplyType, type Reply } from './resp';
import type { Encodable } from './command-writer';

export interface ReplyHandler {
  /** Called with the reply (the Reply object is reused: copy what you keep). `now` is performance.now() when the bytes arrived. */
  onReply(reply: Reply, now: number): void;
  /** The connection failed before this request was answered. */
  onFailure(err: Error): void;
}

interface Waiting {
  handler: ReplyHandler;
  mode: ParseMode;
}

const dirty = new Set<RespConnection>();
let idleEvents = 0;
/** Counts the times any connection got its last reply (nothing in flight): a socket became free for a new batch. */
export function idleEventCount(): number {
  return idleEvents;
}
let flushScheduled = false;
function scheduleFlush(c: RespConnection): void {
  dirty.add(c);
  if (!flushScheduled) {
    flushScheduled = true;
    setImmediate(flushAll);
  }
}
function flushAll(): void {
  flushScheduled = false;
  for (const c of dirty) c.flush();
  dirty.clear();
}

export class RespConnection {
  readonly endpoint: string;
  private socket: net.Socket | undefined;
  private readonly queue: Waiting[] = [];
  private head = 0;
  private wbuf = Buffer.allocUnsafe(16 * 1024);
  private wlen = 0;
  private leftover: Buffer | undefined;
  private readonly reply: Reply = { type: ReplyType.Simple, integer: 0, value: undefined };
  private closed = false;
  /** Commands written on this connection (for per-shard ops). */
  commands = 0;

  private constructor(
    readonly host: string,
    readonly port: number,
  ) {
    this.endpoint = `${host}:${port}`;
  }

  static async connect(host: string, port: number, auth?: { username: string; password: string }, timeoutMs = 5000): Promise<RespConnection> {
    const c = new RespConnection(host, port);
    await c.open(timeoutMs);
    if (auth) {
      const r = await c.call(['AUTH', auth.username, auth.password]);
      if (r instanceof Error) {
        c.close();
        throw r;
      }
    }
    return c;
  }

  private open(timeoutMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const s = net.connect({ host: this.host, port: this.port, noDelay: true });
      const timer = setTimeout(() => {
        s.destroy();
        reject(new Error(`connect ${this.endpoint} timed out`));
      }, timeoutMs);
      s.once('connect', () => {
        clearTimeout(timer);
        this.socket = s;
        resolve();
      });
      s.once('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      s.on('data', (chunk: Buffer) => this.onData(chunk));
      s.on('close', () => this.failAll(new Error(`connection to ${this.endpoint} closed`)));
      s.on('error', () => {});
    });
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Requests queued in this event-loop turn, not written yet. */
  get hasUnsent(): boolean {
    return this.wlen > 0;
  }

  get inFlight(): number {
    return this.queue.length - this.head;
  }

  /** Queues a command (RESP text, or written by `encode`); the reply goes to `handler`. */
  send(command: string | Encodable, handler: ReplyHandler, mode: ParseMode = ParseMode.Skip): void {
    if (this.closed) {
      handler.onFailure(new Error(`connection to ${this.endpoint} closed`));
      return;
    }
    this.queue.push({ handler, mode });
    if (typeof command === 'string') {
      this.room(command.length);
      this.wlen += this.wbuf.write(command, this.wlen, 'latin1');
    } else {
      this.room(command.maxBytes);
      this.wlen = command.encode(this.wbuf, this.wlen);
    }
    this.commands++;
    if (this.wlen > 0) scheduleFlush(this);
  }

  private room(n: number): void {
    if (this.wlen + n <= this.wbuf.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.wbuf.length * 2, this.wlen + n));
    this.wbuf.copy(bigger, 0, 0, this.wlen);
    this.wbuf = bigger;
  }

  /** One command, full reply as a JS value (errors as Error). For setup paths, not the hot path. */
  call(args: readonly string[]): Promise<unknown> {
    let s = '*' + args.length + '\r\n';
    for (const a of args) s += '$' + Buffer.byteLength(a, 'latin1') + '\r\n' + a + '\r\n';
    return new Promise((resolve) => {
      this.send(
        s,
        {
          onReply: (r) => resolve(r.type === ReplyType.Error ? new Error(String(r.value)) : r.value),
          onFailure: (err) => resolve(err),
        },
        ParseMode.Full,
      );
    });
  }

  flush(): void {
    if (this.wlen === 0 || !this.socket) return;
    this.socket.write(this.wbuf.subarray(0, this.wlen));
    this.wlen = 0;
    // Written to the kernel at once (the usual case): the buffer is ours again. Otherwise the socket keeps it: take a new one.
    if (this.socket.writableLength > 0) this.wbuf = Buffer.allocUnsafe(this.wbuf.length);
  }

  private onData(chunk: Buffer): void {
    const now = performance.now();
    let buf = chunk;
    if (this.leftover) {
      buf = Buffer.concat([this.leftover, chunk]);
      this.leftover = undefined;
    }
    let pos = 0;
    const len = buf.length;
    while (pos < len) {
      const w = this.queue[this.head];
      if (!w) {
        this.close();
        return;
      }
      const next = parseReply(buf, pos, w.mode, this.reply);
      if (next === -1) break;
      pos = next;
      this.queue[this.head] = undefined as unknown as Waiting;
      this.head++;
      if (this.head === this.queue.length) idleEvents++;
      w.handler.onReply(this.reply, now);
    }
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
    if (pos < len) this.leftover = pos === 0 ? buf : buf.subarray(pos);
  }

  private failAll(err: Error): void {
    this.closed = true;
    const waiting = this.queue.slice(this.head);
    this.queue.length = 0;
    this.head = 0;
    for (const w of waiting) w.handler.onFailure(err);
  }

  close(): void {
    this.closed = true;
    this.socket?.destroy();
  }
}
