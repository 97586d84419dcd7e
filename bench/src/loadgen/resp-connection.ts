/**
 * One pipelining socket to a redis-server. Commands are written straight
 * into an output buffer (see command-writer.ts) and sent once per
 * event-loop turn; replies are matched in order to the waiting requests.
 * Nothing is allocated per request or reply in the common case.
 */
import net from 'node:net';
import tls from 'node:tls';
import { ParseMode, parseReply, ReplyType, type Reply } from './resp';
import type { Encodable } from './command-writer';

export interface ReplyHandler {
  /** Called with the reply (the Reply object is reused: copy what you keep). `now` is performance.now() when the bytes arrived. */
  onReply(reply: Reply, now: number): void;
  /** The connection failed before this request was answered. */
  onFailure(err: Error): void;
}

/**
 * Every socket of this thread reads into this one buffer (net's `onread`: no
 * Buffer and no stream event per read). A reply is consumed before the
 * callback returns; a partial one is copied out (`leftover`).
 */
const readBuffer = Buffer.allocUnsafe(256 * 1024);

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
  /**
   * Requests waiting for their reply: a ring (capacity a power of two) of
   * handlers and parse modes, oldest at `head`, `count` of them. Nothing is
   * allocated per request, and the arrays keep their storage.
   */
  private handlers: (ReplyHandler | undefined)[] = new Array<ReplyHandler | undefined>(64).fill(undefined);
  private modes = new Uint8Array(64);
  private head = 0;
  private count = 0;
  private wbuf = Buffer.allocUnsafe(16 * 1024);
  private wlen = 0;
  private leftover: Buffer | undefined;
  private readonly reply: Reply = { type: ReplyType.Simple, integer: 0, value: undefined };
  private closed = false;
  /** Commands written on this connection (for per-shard ops). */
  commands = 0;
  /** Commands queued since the last write. */
  private unsent = 0;
  /** A batch this large is written at once instead of at the end of the event-loop turn (the pipeline depth). */
  flushAt = Infinity;

  private constructor(
    readonly host: string,
    readonly port: number,
  ) {
    this.endpoint = `${host}:${port}`;
  }

  /** With `auth.tls`, the connection speaks TLS, verifies the server against `auth.tls.ca` and presents `cert`/`key` when given. */
  static async connect(host: string, port: number, auth?: { username: string; password: string; tls?: { ca: string; cert?: string; key?: string } }, timeoutMs = 5000): Promise<RespConnection> {
    const c = new RespConnection(host, port);
    await c.open(timeoutMs, auth?.tls);
    if (auth) {
      const r = await c.call(['AUTH', auth.username, auth.password]);
      if (r instanceof Error) {
        c.close();
        throw r;
      }
    }
    return c;
  }

  private open(timeoutMs: number, secure?: { ca: string; cert?: string; key?: string }): Promise<void> {
    return new Promise((resolve, reject) => {
      // Plain text reads into one reused buffer; TLS hands over each decrypted chunk.
      const s: net.Socket = secure
        ? tls.connect({ host: this.host, port: this.port, ca: secure.ca, cert: secure.cert, key: secure.key, ...(net.isIP(this.host) ? {} : { servername: this.host }) }).setNoDelay(true)
        : net.connect({
          host: this.host,
          port: this.port,
          noDelay: true,
          onread: {
            buffer: readBuffer,
            callback: (n: number, buf: Uint8Array) => {
              this.onData(buf as Buffer, n);
              return true;
            },
          },
        });
      if (secure) s.on('data', (chunk: Buffer) => this.onData(chunk, chunk.length));
      const timer = setTimeout(() => {
        s.destroy();
        reject(new Error(`connect ${this.endpoint} timed out`));
      }, timeoutMs);
      s.once(secure ? 'secureConnect' : 'connect', () => {
        clearTimeout(timer);
        this.socket = s;
        resolve();
      });
      s.once('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
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
    return this.count;
  }

  /** Queues a command (RESP text, or written by `encode`); the reply goes to `handler`. */
  send(command: string | Encodable, handler: ReplyHandler, mode: ParseMode = ParseMode.Skip): void {
    if (this.closed) {
      handler.onFailure(new Error(`connection to ${this.endpoint} closed`));
      return;
    }
    if (this.count === this.handlers.length) this.grow();
    const i = (this.head + this.count) & (this.handlers.length - 1);
    this.handlers[i] = handler;
    this.modes[i] = mode;
    this.count++;
    if (typeof command === 'string') {
      this.room(command.length);
      this.wlen += this.wbuf.write(command, this.wlen, 'latin1');
    } else {
      this.room(command.maxBytes);
      this.wlen = command.encode(this.wbuf, this.wlen);
    }
    this.commands++;
    if (++this.unsent >= this.flushAt) this.flush();
    else if (this.wlen > 0) scheduleFlush(this);
  }

  /**
   * Queues `count` commands written by one `encode` call (a pipelined
   * batch), all answered to `handler` in order, and writes them at once.
   */
  sendBatch(batch: Encodable, handler: ReplyHandler, count: number): void {
    if (this.closed) {
      for (let k = 0; k < count; k++) handler.onFailure(new Error(`connection to ${this.endpoint} closed`));
      return;
    }
    for (let k = 0; k < count; k++) {
      if (this.count === this.handlers.length) this.grow();
      const i = (this.head + this.count) & (this.handlers.length - 1);
      this.handlers[i] = handler;
      this.modes[i] = ParseMode.Skip;
      this.count++;
    }
    this.room(batch.maxBytes);
    this.wlen = batch.encode(this.wbuf, this.wlen);
    this.commands += count;
    this.flush();
  }

  private grow(): void {
    const n = this.handlers.length;
    const handlers = new Array<ReplyHandler | undefined>(n * 2).fill(undefined);
    const modes = new Uint8Array(n * 2);
    for (let k = 0; k < this.count; k++) {
      handlers[k] = this.handlers[(this.head + k) & (n - 1)];
      modes[k] = this.modes[(this.head + k) & (n - 1)]!;
    }
    this.handlers = handlers;
    this.modes = modes;
    this.head = 0;
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
    this.unsent = 0;
    this.socket.write(this.wbuf.subarray(0, this.wlen));
    this.wlen = 0;
    // Written to the kernel at once (the usual case): the buffer is ours again. Otherwise the socket keeps it: take a new one.
    if (this.socket.writableLength > 0) this.wbuf = Buffer.allocUnsafe(this.wbuf.length);
  }

  /** `n` bytes arrived in `chunk` (the shared read buffer: consumed or copied before returning). */
  private onData(chunk: Buffer, n: number): void {
    const now = performance.now();
    let buf = chunk;
    let len = n;
    if (this.leftover) {
      buf = Buffer.concat([this.leftover, chunk.subarray(0, n)]);
      len = buf.length;
      this.leftover = undefined;
    }
    let pos = 0;
    while (pos < len) {
      if (this.count === 0) {
        this.close();
        return;
      }
      const i = this.head;
      const next = parseReply(buf, pos, this.modes[i]! as ParseMode, this.reply, len);
      if (next === -1) break;
      pos = next;
      const h = this.handlers[i]!;
      this.handlers[i] = undefined;
      this.head = (i + 1) & (this.handlers.length - 1);
      if (--this.count === 0) idleEvents++;
      h.onReply(this.reply, now);
    }
    if (pos < len) this.leftover = Buffer.from(buf.subarray(pos, len));
  }

  private failAll(err: Error): void {
    this.closed = true;
    const waiting: ReplyHandler[] = [];
    for (let k = 0; k < this.count; k++) waiting.push(this.handlers[(this.head + k) & (this.handlers.length - 1)]!);
    this.handlers.fill(undefined);
    this.head = 0;
    this.count = 0;
    for (const h of waiting) h.onFailure(err);
  }

  close(): void {
    this.closed = true;
    this.socket?.destroy();
  }
}
