/**
 * The analytic query of RethinkDB's report: count the sentences of `field0`
 * over every record and sum them. A sentence is a `.`-separated part, empty
 * parts included (ReQL's split('.') then count()): dots + 1.
 */
export function sentenceCount(field0: string): number {
  let n = 1;
  for (let i = 0; i < field0.length; i++) if (field0.charCodeAt(i) === 46) n++;
  return n;
}

/** Same over raw bytes (the load generator reads replies as Buffers). */
export function sentenceCountBytes(buf: Uint8Array, start: number, end: number): number {
  let n = 1;
  for (let i = start; i < end; i++) if (buf[i] === 46) n++;
  return n;
}
