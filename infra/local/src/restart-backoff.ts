/**
 * How long the launcher waits before starting a dead agent again: 1 s,
 * doubling to 30 s while it keeps dying (or failing to start), and back to
 * 1 s once a run lasted `stableAfterMs` (a crash an hour after the last one
 * is a new problem, not a crash loop). Like systemd's RestartSec with
 * StartLimitIntervalSec=0: it never gives up.
 */
export class RestartBackoff {
  private failures = 0;

  constructor(private readonly opts: { baseMs?: number; maxMs?: number; stableAfterMs?: number } = {}) {}

  /** The process exited (or failed to start) after running `ranForMs`: the delay before the next attempt. */
  next(ranForMs: number): number {
    if (ranForMs >= (this.opts.stableAfterMs ?? 10_000)) this.failures = 0;
    this.failures++;
    return Math.min(this.opts.maxMs ?? 30_000, (this.opts.baseMs ?? 1000) * 2 ** Math.min(16, this.failures - 1));
  }
}
