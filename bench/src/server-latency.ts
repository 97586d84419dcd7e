/**
 * The servers' own view of latency for a benchmark window: Redis 7's
 * `LATENCY HISTOGRAM` (per command, power-of-two microsecond buckets,
 * cumulative counts since start or the last CONFIG RESETSTAT) read at the
 * start and the end of the steady window; the difference is what the node
 * measured in that window. We never RESETSTAT: other readers (metrics) use
 * the same counters.
 */

/** Per command: calls and non-cumulative counts per bucket (upper bound, us). */
export type CommandLatency = Map<string, { calls: number; buckets: Map<number, number> }>;

/** Parses the RESP reply of `LATENCY HISTOGRAM [cmd ...]` (as a nested array of strings/numbers). */
export function parseLatencyHistogram(reply: unknown): CommandLatency {
  const out: CommandLatency = new Map();
  if (!Array.isArray(reply)) return out;
  for (let i = 0; i + 1 < reply.length; i += 2) {
    const name = String(reply[i]).toLowerCase();
    const body = reply[i + 1];
    if (!Array.isArray(body)) continue;
    let calls = 0;
    let cumulative: unknown[] = [];
    for (let j = 0; j + 1 < body.length; j += 2) {
      const k = String(body[j]);
      if (k === 'calls') calls = Number(body[j + 1]);
      else if (k === 'histogram_usec' && Array.isArray(body[j + 1])) cumulative = body[j + 1] as unknown[];
    }
    const buckets = new Map<number, number>();
    let prev = 0;
    for (let j = 0; j + 1 < cumulative.length; j += 2) {
      const le = Number(cumulative[j]);
      const cum = Number(cumulative[j + 1]);
      if (cum > prev) buckets.set(le, cum - prev);
      prev = Math.max(prev, cum);
    }
    out.set(name, { calls, buckets });
  }
  return out;
}

/** What happened between two readings, summed over `commands` (all when omitted). Buckets sorted ascending. */
export function latencyDelta(start: CommandLatency, end: CommandLatency, commands?: readonly string[]): { calls: number; buckets: [number, number][] } {
  const sum = new Map<number, number>();
  let calls = 0;
  for (const [cmd, e] of end) {
    if (commands && !commands.includes(cmd)) continue;
    const s = start.get(cmd);
    calls += e.calls - (s?.calls ?? 0);
    for (const [le, n] of e.buckets) {
      const d = n - (s?.buckets.get(le) ?? 0);
      if (d > 0) sum.set(le, (sum.get(le) ?? 0) + d);
    }
  }
  return { calls: Math.max(0, calls), buckets: [...sum.entries()].sort((a, b) => a[0] - b[0]) };
}

export interface ServerLatencySummary {
  /** commands of the workload the node executed in the window */
  calls: number;
  /** percentiles as bucket upper bounds (power of two microseconds): "at most" */
  p50: number;
  p99: number;
  p999: number;
  max: number;
  /** per non-empty bucket: upper bound (us) and count */
  buckets: { leUs: number; count: number }[];
}

export function summarizeBuckets(d: { calls: number; buckets: [number, number][] }): ServerLatencySummary {
  const total = d.buckets.reduce((a, [, n]) => a + n, 0);
  const at = (q: number): number => {
    if (total === 0) return 0;
    const want = Math.ceil(total * q);
    let seen = 0;
    for (const [le, n] of d.buckets) {
      seen += n;
      if (seen >= want) return le;
    }
    return d.buckets[d.buckets.length - 1]![0];
  };
  return {
    calls: d.calls, p50: at(0.5), p99: at(0.99), p999: at(0.999), max: d.buckets.length ? d.buckets[d.buckets.length - 1]![0] : 0,
    buckets: d.buckets.map(([leUs, count]) => ({ leUs, count })),
  };
}

/** The commands each workload sends (lower case, as LATENCY HISTOGRAM names them). */
export function workloadCommands(workload: string): string[] {
  if (workload === 'getset') return ['get', 'set'];
  if (workload === 'analytic') return ['cluster|getkeysinslot', 'scan', 'hget'];
  return ['hgetall', 'hset'];
}
