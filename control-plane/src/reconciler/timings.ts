/**
 * Every wait the reconciler makes, in one place: config.ts fills them from
 * the environment (these values are the defaults), main.ts passes them in,
 * and tests may shorten them.
 */
export interface ReconcilerTimings {
  /** How often a control plane looks for clusters that need a pass. */
  tickMs: number;
  /**
   * A worker with work left passes again this long after its last pass
   * started. What agents report (every node, every second; during a slot
   * migration every report differs) waits for that pass instead of starting
   * one at once: passes driven by reports were 15 a second during a 3 -> 4
   * reshard, CPU and PostgreSQL time taken from the engines moving the keys.
   * A spec change, an operation control or an agent task's end starts a pass
   * at once.
   */
  requeueMs: number;
  /** Every provisioned cluster that is not settled gets a pass at least this often, changed or not (level-triggered). */
  sweepMs: number;
  /**
   * A settled cluster still gets a pass about this often (the safety net of a
   * level-triggered loop, for drift no report shows; spread by +-20 % so a
   * fleet's rechecks do not come together). Anything an agent reports, a spec
   * change, a task's end or a node falling silent brings a pass at once. Every
   * 30 s, 1,000 quiet clusters cost 33 passes (270 queries) a second.
   */
  settledRecheckMs: number;
  /** A worker's lease on a cluster (renewed each pass); another control plane takes over once it expires. */
  leaseMs: number;
  /** How long heal passes share one read of the node list. */
  nodesTtlMs: number;
  /** Healing retries a failed task after this, doubling per failure since its last success ... */
  retryBaseMs: number;
  /** ... up to this. */
  retryMaxMs: number;
  /** An update's slot migration waits this long for a shard without a primary to get one (Redis promotes a replica within seconds) before it fails. */
  headlessWaitMs: number;
  /** Removing instances waits this long for a member that is down to run again before forgetting them without it. */
  forgetWaitMs: number;
  /** Failed migration attempts are spaced this long, doubling. */
  migrateRetryBaseMs: number;
  /** After a migration run ended, how long its own final report stands in for the agents' reports still on their way. */
  migrateReportWaitMs: number;
  /** A formed cluster whose nodes disagree this long after form-cluster succeeded is formed again. */
  reformAfterMs: number;
}

export const DEFAULT_TIMINGS: ReconcilerTimings = {
  tickMs: 500,
  requeueMs: 250,
  sweepMs: 2000,
  settledRecheckMs: 5 * 60_000,
  leaseMs: 5000,
  nodesTtlMs: 1000,
  retryBaseMs: 500,
  retryMaxMs: 30_000,
  headlessWaitMs: 30_000,
  forgetWaitMs: 60_000,
  migrateRetryBaseMs: 500,
  migrateReportWaitMs: 4000,
  reformAfterMs: 5000,
};
