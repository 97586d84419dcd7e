/**
 * A bare RESP connection that restores batches of keys on a target primary
 * (`RESTORE-ASKING key ttl payload REPLACE [ABSTTL]`, accepted for a slot
 * the target imports): each batch is encoded into one buffer and written at
 * once, and the replies (`+OK` or an error line) are counted as they come.
 * A general-purpose client builds an object and a promise per command,
 * which on a busy host costs more than the target spends restoring a key.
 */
import type net from 'node:net';
import { openInstanceSocket } from '../instance-socket';
import type { TlsLogin } from './admin-connection';

export interface RestoreEntry {
  key: Buffer;
  /** Absolute expiry in ms (PEXPIRETIME), or <= 0 for none. */
  expireAt: number;
  payload: Buffer;
}

interface Pending { left: number; errors: string[]; resolve: () => void; reject: (err: Error) => void }

const CRLF = Buffer.from('\r\n');
const bulk = (b: Buffer | string) => {
  const buf = typeof b === 'string' ? Buffer.from(b) : b;
  return [Buffer.from(`$${buf.length}\r\n`), buf, CRLF];
};
const command = (args: (Buffer | string)[]) => [Buffer.from(`*${args.length}\r\n`), ...args.flatMap(bulk)];

const HEAD_PLAIN = '*5\r\n$14\r\nRESTORE-ASKING\r\n';
const HEAD_TTL = '*6\r\n$14\r\nRESTORE-ASKING\r\n';
const TAIL_PLAIN = '$7\r\nREPLACE\r\n';
const TAIL_TTL = '$7\r\nREPLACE\r\n$6\r\nABSTTL\r\n';
const lenHeader = (n: number) => `$${n}\r\n`;

/** The RESTORE-ASKING commands of a batch, encoded into one buffer (sized first, then filled: no piece per argument). */
export function encodeRestores(entries: RestoreEntry[]): Buffer {
  const ttls = entries.map((e) => (e.expireAt > 0 ? String(e.expireAt) : '0'));
  let size = 0;
  entries.forEach((e, i) => {
    const ttl = ttls[i]!;
    size += (e.expireAt > 0 ? HEAD_TTL.length + TAIL_TTL.length : HEAD_PLAIN.length + TAIL_PLAIN.length)
      + lenHeader(e.key.length).length + e.key.length + 2
      + lenHeader(ttl.length).length + ttl.length + 2
      + lenHeader(e.payload.length).length + e.payload.length + 2;
  });
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  const text = (t: string) => { at += out.write(t, at, 'latin1'); };
  const bytes = (b: Buffer) => { at += b.copy(out, at); };
  entries.forEach((e, i) => {
    const ttl = ttls[i]!;
    text(e.expireAt > 0 ? HEAD_TTL : HEAD_PLAIN);
    text(lenHeader(e.key.length)); bytes(e.key); text('\r\n');
    text(lenHeader(ttl.length)); text(ttl); text('\r\n');
    text(lenHeader(e.payload.length)); bytes(e.payload); text('\r\n');
    text(e.expireAt > 0 ? TAIL_TTL : TAIL_PLAIN);
  });
  return out;
}

export class BulkRestoreConnection {
  private readonly queue: Pending[] = [];
  private buffered: Buffer = Buffer.alloc(0);
  private failure: Error | null = null;

  private constructor(private readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', (err) => this.fail(err));
    socket.on('close', () => this.fail(new Error('Connection is closed.')));
  }

  /** Connects and logs in (AUTH user password); rejects on a refused login. */
  static async connect(host: string, port: number, username: string, password: string, tlsLogin?: TlsLogin, timeoutMs = 5000): Promise<BulkRestoreConnection> {
    const { socket, readyEvent } = openInstanceSocket(host, port, tlsLogin);
    socket.setNoDelay(true);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => { socket.destroy(); reject(new Error(`connect to ${host}:${port} timed out`)); }, timeoutMs);
      socket.once(readyEvent, () => { clearTimeout(timer); resolve(); });
      socket.once('error', (err) => { clearTimeout(timer); reject(err); });
    });
    const conn = new BulkRestoreConnection(socket);
    await conn.send(Buffer.concat(command(['AUTH', username, password])), 1);
    return conn;
  }

  /** Restores the entries (REPLACE); rejects with the first error a restore got. */
  restore(entries: RestoreEntry[]): Promise<void> {
    if (!entries.length) return Promise.resolve();
    return this.send(encodeRestores(entries), entries.length);
  }

  /** Writes `count` RESTORE-ASKING commands already RESP-encoded (a slot move's COPY reply); rejects like restore. */
  restoreEncoded(commands: Buffer, count: number): Promise<void> {
    if (!count) return Promise.resolve();
    return this.send(commands, count);
  }

  close(): void {
    this.socket.destroy();
  }

  private send(data: Buffer, replies: number): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ left: replies, errors: [], resolve, reject });
      this.socket.write(data);
    });
  }

  /** Every reply expected here is one line: +OK or -ERROR. */
  private onData(chunk: Buffer): void {
    this.buffered = this.buffered.length ? Buffer.concat([this.buffered, chunk]) : chunk;
    let start = 0;
    for (;;) {
      const end = this.buffered.indexOf(CRLF, start);
      if (end < 0) break;
      const head = this.buffered[start];
      const p = this.queue[0];
      if (!p) { this.fail(new Error('reply without a request')); return; }
      if (head === 0x2d /* - */) p.errors.push(this.buffered.toString('utf8', start + 1, end));
      else if (head !== 0x2b /* + */) { this.fail(new Error(`unexpected reply ${this.buffered.toString('utf8', start, Math.min(end, start + 60))}`)); return; }
      start = end + 2;
      if (--p.left === 0) {
        this.queue.shift();
        if (p.errors.length) p.reject(new Error(`RESTORE-ASKING: ${p.errors[0]} (${p.errors.length} error(s))`));
        else p.resolve();
      }
    }
    this.buffered = this.buffered.subarray(start);
  }

  private fail(err: Error): void {
    if (this.failure) return;
    this.failure = err;
    for (const p of this.queue.splice(0)) p.reject(err);
    this.socket.destroy();
  }
}
