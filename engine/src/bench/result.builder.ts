/**
 * Turns what the workers measured into a BenchmarkResult: throughput over
 * the steady window, per-op percentiles, the time series, per-shard ops next
 * to the server's own counters, and the validity verdict with every failing
 * gate named (BENCHMARKS.md "A run is marked invalid ... when").
 */
import type { BenchmarkRequest, BenchmarkResult, BenchmarkOpStats, BenchmarkPoint, ValidityGate, AnalyticSummary } from '@strata/api';
import { decodeHistogram, mergeHistograms, summarize } from './histogram';
import { mergeOpCounts } from './merge';
import type { OpCounts } from './loadgen/protocol';
import type { RunSummary } from './loadgen/load-generator';

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

  const series: BenchmarkPoint[] = i.intervals
    .slice()
    .sort((a, b) => a.t - b.t)
    .map((p) => {
      const h = mergeHistograms(p.ops.map((o) => decodeHistogram(o.service)));
      const s = summarize(h);
      return { t: p.t, ops: p.ops.reduce((a, o) => a + o.count, 0), p50: s.p50, p99: s.p99, errors: p.ops.reduce((a, o) => a + o.errors, 0) };
    });

  const endpoints = new Set<string>([...i.hosts.flatMap((h) => Object.keys(h.endpointCommands)), ...Object.keys(i.serverCommands ?? {})]);
  const shards = [...endpoints].sort().map((endpoint) => ({
    endpoint,
    clientOps: i.hosts.reduce((a, h) => a + (h.endpointCommands[endpoint] ?? 0), 0),
    serverOps: i.serverCommands?.[endpoint],
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
  const errors = ops.reduce((a, o) => a + o.errors, 0) + (i.loaded?.errors ?? 0);
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
    reasons.push({ gate: 'key-count', message: `the cluster holds ${i.keyCount} keys, not recordCount ${i.request.recordCount}` });
  }
  for (const w of i.lostWorkers) reasons.push({ gate: 'worker-lost', message: w });

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
    workers: i.hosts.map((h) => ({ nodeId: h.nodeId, host: h.host, threads: h.threads, connections: h.connections, cpu: Math.round(h.maxElu * 1000) / 1000, scheduleLagP99Us: h.scheduleLagP99Us })),
    loadedKeys: i.keyCount,
    loadSec: i.loaded ? Math.round(i.loaded.sec * 100) / 100 : undefined,
    analytic,
    environment: { ...i.environment, mode: openLoop ? 'open-loop' : 'capacity', seed: i.seed },
  };
}
