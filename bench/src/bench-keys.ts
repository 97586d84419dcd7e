/**
 * A benchmark's own key space on a customer's cluster. Every key a run
 * writes starts with `benchKeyPrefix(runId)` ("strata-bench:1a2b3c4d:"), so
 * it reads and writes no other key, counts only its own keys, and removes
 * them when it ends; keys under BENCH_KEY_SPACE left by a run that could not
 * clean up (a crashed agent) are swept when the next run on that cluster
 * starts. The prefix has no `{...}` hash tag: the keys spread over every slot
 * as YCSB's own names do. Customers must not use the reserved prefix.
 */
export const BENCH_KEY_SPACE = 'strata-bench:';

/** The prefix of one run's keys: the space, the run id's first 8 characters, a colon. */
export function benchKeyPrefix(benchmarkId: string): string {
  return `${BENCH_KEY_SPACE}${benchmarkId.replace(/-/g, '').slice(0, 8)}:`;
}
