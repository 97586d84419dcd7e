/**
 * Turns what the workers measured into a BenchmarkResult: throughput over
 * the steady window, per-op percentiles, the time series, per-shard ops next
 * to the server's own counters, and the validity verdict with every failing
 * gate named (BENCHMARKS.md "A run is marked invalid ... when").
 */
import type { BenchmarkRequest, BenchmarkResult, BenchmarkOpStats, BenchmarkPoint, ValidityGate, AnalyticSummary, BenchmarkFaultResult } from '@strata/api';
import { summarizeBuckets } from './server-latency';
import { decodeHistogram, mergeHistograms, summarize } from './histogram';
import { mergeOpCounts } from './merge';
import type { OpCounts } from './loadgen/protocol';
import type { RunSummary } from './loadgen/load-generator';
import { shardName } from '@strata/api';

export const CPU_LIMIT = 0.8;
export const LAG_LIMIT_US = 1000;
export const REDIRECT_LIMIT = 0.01;

/** One host's run: the load generator's summary plus where it ran. */
export interface HostRun extends RunSummary {
  nodeId: string;
  host: string;
  threads: number;
  connections: number;
}

export interface ResultInput {
  request: BenchmarkRequest;
  seed: number;
  hosts: HostRun[];
  /** merged per second over hosts, t = seconds since the steady phase began */
  intervals: { t: number; ops: OpCounts[] }[];
  keyCount?: number;
  serverCommands?: Record<string, number>;
  /** per primary: LATENCY HISTOGRAM delta over the steady window */
  serverLatency?: Record<string, { calls: number; buckets: [number, number][] }>;
  /** the fault injected mid-run, and the control plane's failover event for it */
  fault?: {
    kind: 'kill-primary';
    shard: number;
    instanceId: string;
    endpoint: string;
    injectedAtMs?: number;
    injectError?: string;
    failover?: { promotedAtMs: number; cause: string; writeUnavailableMs: number | null };
  };
  loaded?: { inserted: number; errors: number; sec: number; firstError?: string };
  analyticRuns?: { records: number; sentences: number; ms: number; longestBatchMs: number; errors: number; firstError?: string }[];
  lostWorkers: string[];
  environment: { engineVersion: string; shards: number; replicasPerShard: number; durability: string };
}

export function buildResult(i: ResultInput): BenchmarkResult {
  const reasons: { gate: ValidityGate; message: string }[] = [];
  const openLoop = i.request.targetOpsPerSec !== undefined;
  const merged = mergeOpCounts(i.hosts.map((h) => h.ops));
  const steadyStart = Math.min(...i.hosts.map((h) => h.steadyStartMs));
  const steadyEnd = Math.max(...i.hosts.map((h) => h.steadyEndMs));
  const steadySec = i.hosts.length > 0 && steadyEnd > steadyStart ? (steadyEnd - steadyStart) / 1000 : 0;
  const ops: BenchmarkOpStats[] = merged.map((o) => ({
    op: o.op,
    count: o.count,
    errors: o.errors,
    misses: o.misses,
    opsPerSec: steadySec > 0 ? o.count / steadySec : 0,
    service: summarize(decodeHistogram(o.service)),
    response: o.response ? summarize(decodeHistogram(o.response)) : undefined,
  }));
  const totalOps = ops.reduce((a, o) => a + o.count, 0);

  const writeWorkload = i.request.workload !== 'ycsb-c' && i.request.workload !== 'analytic';
  const lastT = Math.ceil(steadySec) + 1;
  const series: BenchmarkPoint[] = i.intervals
    .filter((p) => p.t <= lastT)
    .sort((a, b) => a.t - b.t)
    .map((p) => {
      const h = mergeHistograms(p.ops.map((o) => decodeHistogram(o.service)));
      const s = summarize(h);
      return { t: p.t, ops: p.ops.reduce((a, o) => a + o.count, 0), p50: s.p50, p99: s.p99, errors: p.ops.reduce((a, o) => a + o.errors, 0), ...(writeWorkload ? { writes: writesOf(p.ops) } : {}) };
    });

  const endpoints = new Set<string>([...i.hosts.flatMap((h) => Object.keys(h.endpointCommands)), ...Object.keys(i.serverCommands ?? {})]);
  const shards = [...endpoints].sort().map((endpoint) => ({
    endpoint,
    clientOps: i.hosts.reduce((a, h) => a + (h.endpointCommands[endpoint] ?? 0), 0),
    serverOps: i.serverCommands?.[endpoint],
    ...(i.serverLatency?.[endpoint] ? { serverLatency: summarizeBuckets(i.serverLatency[endpoint]) } : {}),
  }));

  // ---- validity gates ----
  for (const h of i.hosts) {
    if (h.maxElu > CPU_LIMIT) {
      reasons.push({ gate: 'client-cpu', message: `a load generator thread on ${h.host} was busy ${Math.round(h.maxElu * 100)}% of the steady window (limit ${CPU_LIMIT * 100}%): the client, not the cluster, may be the bottleneck` });
    }
    if (openLoop && h.scheduleLagP99Us !== undefined && h.scheduleLagP99Us > LAG_LIMIT_US) {
      reasons.push({ gate: 'schedule-lag', message: `schedule lag p99 on ${h.host} was ${(h.scheduleLagP99Us / 1000).toFixed(2)} ms (limit 1 ms): requests left later than intended` });
    }
  }
  const runErrors = ops.reduce((a, o) => a + o.errors, 0);
  // With a fault injected, failed operations while the shard has no primary are the point of the run: reported in `fault`, not a gate.
  const errors = (i.fault ? 0 : runErrors) + (i.loaded?.errors ?? 0);
  if (errors > 0) {
    const first = i.hosts.find((h) => h.firstError)?.firstError ?? i.loaded?.firstError;
    reasons.push({ gate: 'errors', message: `${errors} operations failed${first ? ` (first: ${first})` : ''}` });
  }
  const misses = ops.reduce((a, o) => a + o.misses, 0);
  if (misses > 0) reasons.push({ gate: 'misses', message: `${misses} reads found no record` });
  const redirects = i.hosts.reduce((a, h) => a + h.redirects, 0);
  if (totalOps > 0 && redirects / totalOps > REDIRECT_LIMIT) {
    reasons.push({ gate: 'redirects', message: `${redirects} MOVED/ASK redirects for ${totalOps} operations (limit ${REDIRECT_LIMIT * 100}%)` });
  }
  if (i.keyCount !== undefined && i.keyCount !== i.request.recordCount) {
    reasons.push({ gate: 'key-count', message: `the run's own key space holds ${i.keyCount} records, not recordCount ${i.request.recordCount}` });
  }
  for (const w of i.lostWorkers) reasons.push({ gate: 'worker-lost', message: w });

  let fault: BenchmarkFaultResult | undefined;
  if (i.fault) {
    const f = i.fault;
    const t = (ms: number) => Math.round((ms - steadyStart) / 10) / 100;
    // The fault's gap: the longest that begins between the kill and 2 s after the failover (or the run's end).
    const gapStartsBy = f.injectedAtMs === undefined ? Infinity : (f.failover ? f.failover.promotedAtMs + 2000 : steadyEnd);
    const gap = longestWriteGap(i.hosts, f.injectedAtMs === undefined ? steadyStart : Math.max(steadyStart, f.injectedAtMs - 1000), steadyEnd, gapStartsBy);
    fault = {
      kind: f.kind, shard: f.shard, instanceId: f.instanceId, endpoint: f.endpoint,
      injectedAtT: f.injectedAtMs === undefined ? undefined : t(f.injectedAtMs),
      injectError: f.injectError,
      failoverAtT: f.failover ? t(f.failover.promotedAtMs) : undefined,
      failoverCause: f.failover?.cause,
      writeUnavailableMs: f.failover?.writeUnavailableMs,
      writeGapMs: gap.ms,
      writeGapStartT: gap.ms > 0 ? t(gap.startMs) : undefined,
      writeGapEndT: gap.ms > 0 ? t(gap.startMs + gap.ms) : undefined,
      errors: runErrors,
    };
    if (f.injectedAtMs === undefined) reasons.push({ gate: 'fault', message: `the fault was not injected${f.injectError ? `: ${f.injectError}` : ''}` });
    else if (!f.failover) reasons.push({ gate: 'fault', message: `no failover of ${shardName(f.shard)} was recorded after the primary was killed` });
  }

  let analytic: AnalyticSummary | undefined;
  if (i.analyticRuns && i.analyticRuns.length > 0) {
    const runs = i.analyticRuns;
    const last = runs[runs.length - 1]!;
    const meanMs = runs.reduce((a, r) => a + r.ms, 0) / runs.length;
    analytic = {
      records: last.records,
      sentences: last.sentences,
      runsMs: runs.map((r) => Math.round(r.ms * 10) / 10),
      meanMs: Math.round(meanMs * 10) / 10,
      recordsPerSec: meanMs > 0 ? Math.round((last.records / meanMs) * 1000) : 0,
      longestBlockMs: Math.round(Math.max(...runs.map((r) => r.longestBatchMs)) * 10) / 10,
    };
    const bad = runs.find((r) => r.records !== i.request.recordCount);
    if (bad) reasons.push({ gate: 'key-count', message: `the analytic scan visited ${bad.records} records, not recordCount ${i.request.recordCount}` });
    const aerr = runs.reduce((a, r) => a + r.errors, 0);
    if (aerr > 0) reasons.push({ gate: 'errors', message: `${aerr} analytic reads failed (first: ${runs.find((r) => r.firstError)?.firstError})` });
  }

  return {
    opsPerSec: steadySec > 0 ? Math.round((totalOps / steadySec) * 10) / 10 : 0,
    totalOps,
    steadySec: Math.round(steadySec * 1000) / 1000,
    ops,
    series,
    shards,
    validity: { valid: reasons.length === 0, reasons, coordinatedOmission: !openLoop && i.request.workload !== 'analytic' },
    workers: i.hosts.map((h) => ({ nodeId: h.nodeId, host: h.host, threads: h.threads, connections: h.connections, cpu: Math.round(h.maxElu * 1000) / 1000, scheduleLagP99Us: h.scheduleLagP99Us, engine: h.engine, engineNote: h.engineNote })),
    loadedKeys: i.keyCount,
    loadSec: i.loaded ? Math.round(i.loaded.sec * 100) / 100 : undefined,
    analytic,
    fault,
    environment: { ...i.environment, mode: openLoop ? 'open-loop' : 'capacity', seed: i.seed },
  };
}

const WRITE_OPS = new Set(['update', 'insert', 'rmw', 'set']);

/** Acknowledged writes of one interval. */
export function writesOf(ops: readonly OpCounts[]): number {
  return ops.filter((o) => WRITE_OPS.has(o.op)).reduce((a, o) => a + o.count - o.errors, 0);
}

/**
 * Longest time inside [fromMs, toMs) with no acknowledged write on any host:
 * the hosts' write bitmaps (same run start and slot size) OR-ed together.
 * With `startsBy`, only gaps that begin no later than it count (a gap may run
 * on past it): the gap a fault caused, not a later stall of a busy host.
 */
export function longestWriteGap(hosts: Pick<HostRun, 'writeSlots'>[], fromMs: number, toMs: number, startsBy = Infinity): { ms: number; startMs: number } {
  const parts = hosts.map((h) => h.writeSlots).filter((w): w is NonNullable<typeof w> => w !== undefined);
  if (parts.length === 0 || !(toMs > fromMs)) return { ms: 0, startMs: fromMs };
  const { startMs, slotMs } = parts[0]!;
  const maps = parts.map((p) => ({ off: Math.round((p.startMs - startMs) / slotMs), bits: Buffer.from(p.bits, 'base64') }));
  const has = (slot: number) => maps.some((m) => {
    const j = slot - m.off;
    return j >= 0 && ((m.bits[j >> 3] ?? 0) & (1 << (j & 7))) !== 0;
  });
  const first = Math.max(0, Math.floor((fromMs - startMs) / slotMs));
  const last = Math.ceil((toMs - startMs) / slotMs);
  let best = 0;
  let bestStart = first;
  let run = 0;
  for (let s = first; s < last; s++) {
    if (has(s)) {
      run = 0;
      continue;
    }
    run++;
    if (run > best && startMs + (s - run + 1) * slotMs <= startsBy) {
      best = run;
      bestStart = s - run + 1;
    }
  }
  return { ms: best * slotMs, startMs: startMs + bestStart * slotMs };
}
