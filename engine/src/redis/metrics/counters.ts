/**
 * Counter deltas across samples (pure code). A counter that went down, or a
 * changed `run_id`, means the instance restarted (or its stats were reset):
 * the new value is what happened since then, so it is the delta, the way
 * Prometheus's rate() treats a counter reset.
 */
export function counterDelta(previous: number | undefined, current: number, restarted = false): number {
  if (previous === undefined) return 0;
  if (restarted || current < previous) return Math.max(0, current);
  return current - previous;
}

/** Per-second rate of `delta` over `intervalMs`; 0 for an empty interval. */
export const ratePerSecond = (delta: number, intervalMs: number): number => (intervalMs > 0 ? (delta * 1000) / intervalMs : 0);
