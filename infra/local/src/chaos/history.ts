/**
 * The checker of a chaos run, Jepsen's list-append in miniature: clients
 * append unique integers to lists (RPUSH), each operation recorded as ok,
 * failed (refused: the write did not happen) or unknown (a timeout or a
 * dropped connection: it may have happened). After the fault heals the lists
 * are read back. Pure: the history in, the verdict out.
 */

export type OpStatus = 'ok' | 'failed' | 'unknown';

export interface AppendOp {
  /** The appending client (1-based); its values are `client × 10,000,000 + sequence`. */
  client: number;
  key: string;
  value: number;
  /** `wait`: acknowledged only once `WAIT 1` said a replica has it. */
  kind: 'plain' | 'wait';
  status: OpStatus;
  /** ms since the run started. */
  start: number;
  end: number;
  /** The error's first word (MOVED, NOREPLICAS, CLUSTERDOWN, timeout ...), for failed and unknown ops. */
  error?: string;
}

export interface SplitSample {
  /** ms since the run started. */
  at: number;
  /** Slots claimed by two or more nodes at once, each node by its own view (CLUSTER NODES "myself"). */
  doublyClaimedSlots: number;
}

export interface ChaosVerdict {
  ops: number;
  acknowledged: { plain: number; wait: number };
  /** Acknowledged appends missing from the final lists. */
  lost: { plain: number; wait: number };
  /** From the start of the first lost acknowledged append to the end of the last one, ms (0: none lost). */
  lossWindowMs: number;
  /** Values in the lists that no client ever tried to append. */
  unexpected: number;
  /** Values found more than once. */
  duplicates: number;
  failedShare: number;
  unknownShare: number;
  /** Samples in which two nodes claimed one slot. */
  twoPrimaryMoments: number;
  /** From the fault's start to the first acknowledged append that started after it, ms (null: none). */
  firstOkAfterFaultMs: number | null;
  /** Longest stretch without any acknowledged append, from the fault's start on, ms. */
  longestGapMs: number;
  /** Error kinds of the failed and unknown ops, with counts. */
  errors: Record<string, number>;
}

/** Acknowledged appends missing from the final lists. */
export function lostAppends(ops: readonly AppendOp[], finalLists: ReadonlyMap<string, readonly number[]>): AppendOp[] {
  const present = new Map<string, Set<number>>();
  const has = (key: string, value: number) => {
    let set = present.get(key);
    if (!set) present.set(key, (set = new Set(finalLists.get(key) ?? [])));
    return set.has(value);
  };
  return ops.filter((o) => o.status === 'ok' && !has(o.key, o.value));
}

export function checkHistory(input: { ops: readonly AppendOp[]; finalLists: ReadonlyMap<string, readonly number[]>; samples: readonly SplitSample[]; faultAt: number; endAt: number }): ChaosVerdict {
  const { ops, finalLists } = input;
  const seen = new Map<number, number>();
  for (const values of finalLists.values()) for (const v of values) seen.set(v, (seen.get(v) ?? 0) + 1);
  const attempted = new Set(ops.map((o) => o.value));
  const acked = ops.filter((o) => o.status === 'ok');
  const lostOps = lostAppends(acked, finalLists);
  const errors: Record<string, number> = {};
  for (const o of ops) if (o.status !== 'ok') errors[o.error ?? o.status] = (errors[o.error ?? o.status] ?? 0) + 1;
  const okTimes = acked.map((o) => o.end).sort((a, b) => a - b);
  const after = acked.filter((o) => o.start >= input.faultAt).map((o) => o.end).sort((a, b) => a - b);
  let gap = 0;
  let prev = input.faultAt;
  for (const t of okTimes.filter((x) => x >= input.faultAt)) {
    gap = Math.max(gap, t - prev);
    prev = t;
  }
  gap = Math.max(gap, input.endAt - prev);
  return {
    ops: ops.length,
    acknowledged: { plain: acked.filter((o) => o.kind === 'plain').length, wait: acked.filter((o) => o.kind === 'wait').length },
    lost: { plain: lostOps.filter((o) => o.kind === 'plain').length, wait: lostOps.filter((o) => o.kind === 'wait').length },
    lossWindowMs: lostOps.length ? Math.max(...lostOps.map((o) => o.end)) - Math.min(...lostOps.map((o) => o.start)) : 0,
    unexpected: [...seen.keys()].filter((v) => !attempted.has(v)).length,
    duplicates: [...seen.values()].filter((n) => n > 1).length,
    failedShare: ops.length ? ops.filter((o) => o.status === 'failed').length / ops.length : 0,
    unknownShare: ops.length ? ops.filter((o) => o.status === 'unknown').length / ops.length : 0,
    twoPrimaryMoments: input.samples.filter((s) => s.doublyClaimedSlots > 0).length,
    firstOkAfterFaultMs: after.length ? after[0]! - input.faultAt : null,
    longestGapMs: gap,
    errors,
  };
}
