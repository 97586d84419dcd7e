/**
 * A request answered before its body arrived in full (a refused upload: wrong
 * Content-Type, too large, not an RDB). Closing the connection at once would
 * reset it while the client still sends, and a client that reads nothing
 * before it has sent its whole body (most blocking HTTP clients) would see
 * EPIPE or ECONNRESET instead of the answer. So the rest is read and dropped,
 * bounded: once `maxBytes` more have come, or no byte for `idleMs`, the
 * connection is closed. (Node's own drain of an unread body has no bound: a
 * body that never ends held the connection for good.)
 */
import type { IncomingMessage } from 'node:http';

export interface DropBounds {
  /** Bytes read and dropped at most before the connection is closed. */
  maxBytes: number;
  /** Closed when no byte comes for this long. */
  idleMs: number;
}

export function dropUnreadBody(req: IncomingMessage, bounds: DropBounds): void {
  if (req.complete) return;
  let dropped = 0;
  const close = () => {
    clearTimeout(idle);
    req.socket.destroy();
  };
  const idle = setTimeout(close, bounds.idleMs);
  idle.unref();
  req.on('data', (c: Buffer) => {
    if ((dropped += c.length) > bounds.maxBytes) close();
    else idle.refresh();
  });
  req.once('end', () => clearTimeout(idle));
  req.once('close', () => clearTimeout(idle));
  req.resume();
}
