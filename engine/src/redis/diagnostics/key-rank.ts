/**
 * Pure parts of the diagnostics an agent runs on an engine: how a key or an
 * argument is shown (printable, bounded), the top-N lists a key scan keeps,
 * how a SLOWLOG reply reads, and how long a scan rests between batches.
 */

/** Printable ASCII kept, `\` and every other byte as \xHH (like redis-cli); cut to `max` characters with a trailing "…". */
export function printable(value: Buffer | string, max: number): string {
  const buf = typeof value === 'string' ? Buffer.from(value) : value;
  let out = '';
  for (const b of buf) {
    const piece = b >= 0x20 && b < 0x7f && b !== 0x5c ? String.fromCharCode(b) : b === 0x5c ? '\\\\' : `\\x${b.toString(16).padStart(2, '0')}`;
    if (out.length + piece.length > max) return `${out}…`;
    out += piece;
  }
  return out;
}

/** The `n` largest items by `score`, largest first; ties keep the first seen. */
export class TopN<T> {
  private readonly items: { item: T; score: number }[] = [];
  constructor(private readonly n: number) {}

  /** Smallest score that still gets in (-Infinity while not full). */
  get floor(): number {
    return this.items.length < this.n ? -Infinity : this.items[this.items.length - 1]!.score;
  }

  offer(item: T, score: number): void {
    if (this.n <= 0 || score <= this.floor) return;
    let i = this.items.length;
    while (i > 0 && this.items[i - 1]!.score < score) i--;
    this.items.splice(i, 0, { item, score });
    if (this.items.length > this.n) this.items.pop();
  }

  list(): { item: T; score: number }[] {
    return [...this.items];
  }
}

export interface SlowRecord {
  id: number;
  /** Unix seconds. */
  at: number;
  durationMicros: number;
  command: string;
  args: string[];
  argsOmitted: number;
  client: string;
  clientName: string;
}

/** Redis puts this as the last argument when it left some out. */
const MORE_ARGS = /^\.\.\. \((\d+) more arguments?\)$/;

/** One SLOWLOG GET entry: [id, unix time, micros, [argv...], client addr, client name]. */
export function parseSlowLogEntry(raw: unknown, limits: { args: number; argChars: number }): SlowRecord {
  const e = raw as [number | string, number | string, number | string, (Buffer | string)[], (Buffer | string)?, (Buffer | string)?];
  const argv = (e[3] ?? []).map((a) => (typeof a === 'string' ? Buffer.from(a) : a));
  let omitted = 0;
  const last = argv.at(-1)?.toString('latin1');
  const more = last ? MORE_ARGS.exec(last) : null;
  if (more) {
    omitted += Number(more[1]);
    argv.pop();
  }
  const [cmd, ...args] = argv;
  const kept = args.slice(0, limits.args);
  omitted += args.length - kept.length;
  return {
    id: Number(e[0]),
    at: Number(e[1]),
    durationMicros: Number(e[2]),
    command: cmd ? printable(cmd, 64).toUpperCase() : '',
    args: kept.map((a) => printable(a, limits.argChars)),
    argsOmitted: omitted,
    client: e[4] ? e[4].toString() : '',
    clientName: e[5] ? printable(e[5], 64) : '',
  };
}

/** A scan is busy at most this part of its time: it rests RESTS_PER_BATCH times as long as a batch took. */
export const RESTS_PER_BATCH = 4;

/**
 * How long a scan rests after a batch: at least `pauseMs`, and at least
 * RESTS_PER_BATCH times as long as the batch took (its round trips, as the
 * scanner saw them: on a busy host they take longer, so the scan backs off
 * by itself), so it is busy at most a fifth of its time.
 */
export function restAfter(batchMs: number, pauseMs: number): number {
  return Math.max(pauseMs, Math.ceil(batchMs * RESTS_PER_BATCH));
}
