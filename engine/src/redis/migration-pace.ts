/**
 * How hard a slot migration may press on the primaries it moves keys
 * between. Every call the migration makes on a primary blocks that
 * primary's event loop while it runs (reading and serialising keys,
 * deleting them, restoring them), and the application's commands queue
 * behind it. A priority sets how long one such call may last (its time
 * budget), how slow a primary may answer a probe before the migration
 * rests, and how many source/target pairs move at once. The pacer sizes
 * each batch from the time the previous ones took per key, so large keys
 * travel in smaller batches and a busy primary gets smaller ones.
 * Pure: no I/O; the admin code measures and asks.
 */
import type { MigrationPriority } from '../domain';

export interface MigrationPace {
  /** Longest a single call may block a primary (ms): the batch is sized to fit. */
  blockBudgetMs: number;
  /** A probe (PING) answered slower than this means the primary is busy: the pair rests and shrinks its batch. */
  busyProbeMs: number;
  /** How long a pair rests after seeing a busy primary (ms). */
  restMs: number;
  /** Pairs (source -> target) moving at once; 0: all of them. */
  parallelPairs: number;
  /** Calls a source primary may have in flight at once (rounds of a pair overlap up to this): more hides round trips on a busy host. */
  inFlightPerSource: number;
  /**
   * Share of a source's time the move's calls may take (1: back to back). After a call of d ms the source is left
   * alone for d x (1 / share - 1) ms, so an application request waits behind at most one call, and only now and then.
   */
  busyShare: number;
  minBatchKeys: number;
  maxBatchKeys: number;
  /** Slots opened together per pair and round. */
  slotsPerRound: number;
  /** Keys per second one pair reaches on an idle 2-core host (bench:reshard), for estimates. */
  keysPerSecPerPair: number;
}

export const MIGRATION_PACES: Record<MigrationPriority, MigrationPace> = {
  gentle: { blockBudgetMs: 0.4, busyProbeMs: 1, restMs: 5, parallelPairs: 1, inFlightPerSource: 1, busyShare: 0.25, minBatchKeys: 8, maxBatchKeys: 256, slotsPerRound: 32, keysPerSecPerPair: 14_000 },
  balanced: { blockBudgetMs: 1, busyProbeMs: 3, restMs: 2, parallelPairs: 0, inFlightPerSource: 2, busyShare: 1, minBatchKeys: 16, maxBatchKeys: 1000, slotsPerRound: 128, keysPerSecPerPair: 25_000 },
  fast: { blockBudgetMs: 8, busyProbeMs: 50, restMs: 0, parallelPairs: 0, inFlightPerSource: 4, busyShare: 1, minBatchKeys: 64, maxBatchKeys: 4000, slotsPerRound: 256, keysPerSecPerPair: 28_000 },
};

export const DEFAULT_MIGRATION_PRIORITY: MigrationPriority = 'balanced';

/**
 * Batch sizing for one primary: what a key costs the primary is the lowest
 * time per key among the last calls (waiting for a CPU or the network only
 * ever adds to a call, so the quickest calls are closest to the primary's
 * own work), and a batch fits the budget. Probes keep the usual round trip
 * (low quartile of recent PINGs) and say when the primary is busy.
 */
export class BatchPacer {
  private readonly perKey: number[] = [];
  private readonly rtts: number[] = [];

  constructor(private readonly pace: MigrationPace) {}

  /**
   * Keys the next call may carry: what fits the budget, or on a host where
   * every answer already takes longer than the budget (the usual round trip),
   * what fits that round trip, up to 4x the budget: a client there waits that
   * long anyway, and smaller batches would only multiply the round trips.
   */
  batchKeys(): number {
    const { minBatchKeys, maxBatchKeys, blockBudgetMs } = this.pace;
    const budget = Math.max(blockBudgetMs, Math.min(4 * blockBudgetMs, this.roundTripMs()));
    const fit = this.perKey.length ? budget / Math.min(...this.perKey) : minBatchKeys * 4;
    return Math.max(minBatchKeys, Math.min(maxBatchKeys, Math.floor(fit)));
  }

  /** The usual round trip to the primary (ms), 0 before any probe. */
  roundTripMs(): number {
    if (!this.rtts.length) return 0;
    return [...this.rtts].sort((a, b) => a - b)[Math.floor(this.rtts.length / 4)]!;
  }

  /** A call of `keys` keys took `ms` as the caller saw it. */
  observe(keys: number, ms: number): void {
    if (keys <= 0 || !Number.isFinite(ms)) return;
    // At least a microsecond a key: a call is never free.
    this.perKey.push(Math.max(0.001, ms / keys));
    if (this.perKey.length > 16) this.perKey.shift();
  }

  /**
   * A probe answered in `ms`: true when the primary is busy and the caller
   * should rest `restMs` first: slower than the priority allows and than 4x
   * the usual round trip (a host whose every answer is slow is not helped by
   * resting: the move would only take longer).
   */
  probe(ms: number): boolean {
    this.rtts.push(ms);
    if (this.rtts.length > 20) this.rtts.shift();
    return ms > Math.max(this.pace.busyProbeMs, 4 * this.roundTripMs());
  }
}

/** What each priority costs for a move of `keys` keys over `pairs` source/target pairs: an estimate for the plan preview. */
export interface MigrationCost {
  priority: MigrationPriority;
  estimatedSeconds: number;
  /** Longest a single migration call blocks a primary (ms): what an application request may wait behind it. */
  maxBlockMs: number;
  summary: string;
}

export function migrationCosts(keys: number, pairs: number): MigrationCost[] {
  return (Object.keys(MIGRATION_PACES) as MigrationPriority[]).map((priority) => {
    const p = MIGRATION_PACES[priority];
    const parallel = Math.max(1, p.parallelPairs === 0 ? Math.min(pairs, 3) : Math.min(pairs, p.parallelPairs));
    const estimatedSeconds = Math.round((keys / (p.keysPerSecPerPair * parallel) + 0.5) * 10) / 10;
    const summary = priority === 'gentle'
      ? `about ${estimatedSeconds} s; each step holds a primary at most ~${p.blockBudgetMs} ms, one pair at a time, leaving each source alone ${Math.round((1 - p.busyShare) * 100)} % of the time and resting whenever a primary answers slower than ${p.busyProbeMs} ms`
      : priority === 'balanced'
        ? `about ${estimatedSeconds} s; each step holds a primary at most ~${p.blockBudgetMs} ms, pairs in parallel, resting when a primary answers slower than ${p.busyProbeMs} ms`
        : `about ${estimatedSeconds} s; steps of up to ~${p.blockBudgetMs} ms, never resting: application requests on moving shards may wait that long`;
    return { priority, estimatedSeconds, maxBlockMs: p.blockBudgetMs, summary };
  });
}
