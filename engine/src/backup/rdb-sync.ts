/**
 * A snapshot of a running Redis, read over the replication protocol as
 * `redis-cli --rdb` does: `REPLCONF rdb-only 1`, `SYNC`, and the server
 * forks and streams its RDB straight to us (diskless: nothing written to
 * its disk, and the file streams on while it is being produced). The fork
 * is the snapshot's point in time. Both answers a server may give are read:
 * `$<length>` (a disk-based transfer) and `$EOF:<40-byte mark>` (diskless,
 * ending with the mark). Never holds more than a chunk in memory.
 */
import { openInstanceSocket } from '../redis/instance-socket';
import type { TlsLogin } from '../redis/admin/admin-connection';
import { PassThrough, type Readable } from 'node:stream';

export interface RdbSyncTarget {
  host: string;
  port: number;
  username?: string;
  password?: string;
  /** TLS, verifying the server against the cluster's CA (a TLS cluster). */
  tls?: TlsLogin;
  /** Connect and handshake timeout. */
  timeoutMs?: number;
}

export interface RdbSync {
  /** The RDB's bytes (ends when the server sent all of it; errors when the transfer breaks). */
  rdb: Readable;
  /** When the server answered SYNC with the transfer's start (the fork has happened by then). */
  startedAt: Date;
  /** The announced length (disk-based transfers only). */
  length: number | null;
  /** Closes the connection (the server's fork child then stops). */
  close(): void;
}

const EOF_MARK_LENGTH = 40;
/** Bytes gathered from the socket before they go on as one piece. */
const COALESCE_BYTES = 256 * 1024;

/** A RESP command as bytes. */
const command = (...args: string[]) => Buffer.from(`*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`);

export function openRdbSync(t: RdbSyncTarget): Promise<RdbSync> {
  return new Promise((resolve, reject) => {
    const { socket, readyEvent } = openInstanceSocket(t.host, t.port, t.tls);
    socket.setNoDelay(true);
    const timeoutMs = t.timeoutMs ?? 10_000;
    const timeout = () => fail(new Error(`no answer from ${t.host}:${t.port} within ${timeoutMs} ms`));
    let timer = setTimeout(timeout, timeoutMs);
    const rdb = new PassThrough({ highWaterMark: 1024 * 1024 });
    let state: 'handshake' | 'streaming' | 'failed' = 'handshake';
    let done = false;
    const fail = (err: Error) => {
      clearTimeout(timer);
      if (done || state === 'failed') return;
      socket.destroy();
      if (state === 'handshake') reject(err);
      // A reader gets the error; a transfer nobody reads (closed unread) just ends, raising nothing unhandled.
      else if (rdb.listenerCount('error') > 0) rdb.destroy(err);
      else rdb.destroy();
      state = 'failed';
    };
    socket.on('error', (err) => fail(new Error(`${t.host}:${t.port}: ${err.message}`)));

    // The handshake: replies to AUTH, the REPLCONFs, then SYNC's `$...` header.
    const steps: Buffer[] = [];
    if (t.password !== undefined) steps.push(t.username ? command('AUTH', t.username, t.password) : command('AUTH', t.password));
    steps.push(command('REPLCONF', 'capa', 'eof'), command('REPLCONF', 'rdb-only', '1'), command('SYNC'));
    const simpleReplies = steps.length - 1;
    let replies = 0;
    let buf = Buffer.alloc(0);
    // Payload state.
    let remaining: number | null = null;
    let mark: Buffer | null = null;
    let tail = Buffer.alloc(0);

    // The socket delivers the stream in pieces of ~16 KB: they go on in batches of COALESCE_BYTES, so what reads the
    // RDB (hash, file or upload) handles a few hundred pieces per 100 MB instead of thousands.
    let batch: Buffer[] = [];
    let batchBytes = 0;
    const flush = (): boolean => {
      if (!batchBytes) return true;
      const out = batch.length === 1 ? batch[0]! : Buffer.concat(batch, batchBytes);
      batch = [];
      batchBytes = 0;
      return rdb.write(out);
    };
    /** Queues bytes of the RDB; false when the reader wants no more for now. */
    const emit = (b: Buffer): boolean => {
      if (!b.length) return true;
      batch.push(b);
      batchBytes += b.length;
      return batchBytes >= COALESCE_BYTES ? flush() : true;
    };
    const finish = () => {
      done = true;
      socket.removeAllListeners('data');
      socket.end();
      socket.destroy();
      flush();
      rdb.end();
    };

    const onPayload = (chunk: Buffer) => {
      if (done) return;
      if (remaining !== null) {
        const take = chunk.subarray(0, remaining);
        remaining -= take.length;
        if (remaining === 0) {
          emit(take);
          return finish();
        }
        if (!emit(take)) socket.pause();
        return;
      }
      // Diskless: hold back the last 40 bytes until we know they are not the end mark.
      if (chunk.length >= EOF_MARK_LENGTH) {
        // The usual case, without copying the chunk: the held-back bytes go on, and the chunk's last 40 are held.
        const end = chunk.length - EOF_MARK_LENGTH;
        const last = chunk.subarray(end);
        let room = emit(tail);
        room = emit(chunk.subarray(0, end)) && room;
        if (last.equals(mark!)) return finish();
        tail = Buffer.from(last);
        if (!room) socket.pause();
        return;
      }
      const all = Buffer.concat([tail, chunk]);
      if (all.length >= EOF_MARK_LENGTH && all.subarray(all.length - EOF_MARK_LENGTH).equals(mark!)) {
        emit(all.subarray(0, all.length - EOF_MARK_LENGTH));
        finish();
        return;
      }
      const keep = Math.min(EOF_MARK_LENGTH, all.length);
      const out = all.subarray(0, all.length - keep);
      tail = Buffer.from(all.subarray(all.length - keep));
      if (!emit(out)) socket.pause();
    };
    rdb.on('drain', () => socket.resume());

    socket.on('data', (chunk: Buffer) => {
      if (remaining !== null || mark !== null) return onPayload(chunk);
      buf = Buffer.concat([buf, chunk]);
      for (;;) {
        // The server sends bare newlines as keepalives while it prepares the transfer (e.g. waits for a save to end).
        while (buf.length && buf[0] === 0x0a) {
          buf = buf.subarray(1);
          clearTimeout(timer);
          timer = setTimeout(timeout, timeoutMs);
        }
        const eol = buf.indexOf('\r\n');
        if (eol < 0) return;
        const line = buf.subarray(0, eol).toString('latin1');
        buf = buf.subarray(eol + 2);
        if (line.startsWith('-')) return fail(new Error(`${t.host}:${t.port} refused the snapshot: ${line.slice(1)}`));
        if (replies < simpleReplies) {
          // One command at a time: SYNC is refused while replies are pending.
          socket.write(steps[++replies]!);
          continue;
        }
        if (!line.startsWith('$')) return fail(new Error(`${t.host}:${t.port}: unexpected answer to SYNC: ${line.slice(0, 80)}`));
        clearTimeout(timer);
        if (line.startsWith('$EOF:')) mark = Buffer.from(line.slice(5), 'latin1');
        else remaining = Number(line.slice(1));
        state = 'streaming';
        resolve({ rdb, startedAt: new Date(), length: remaining, close: () => socket.destroy() });
        if (remaining === 0) return finish();
        if (buf.length) onPayload(buf);
        buf = Buffer.alloc(0);
        return;
      }
    });
    socket.on('close', () => {
      clearTimeout(timer);
      if (!done) fail(new Error(`${t.host}:${t.port} closed the connection before the snapshot was complete`));
    });
    socket.once(readyEvent, () => socket.write(steps[0]!));
  });
}
