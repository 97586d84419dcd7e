/**
 * Benchmarks: YCSB workloads, memtier-style GET/SET and the analytic
 * sentence count, run by load workers on agents (see shared/BENCHMARKS.md).
 */
import { z, Id, Timestamp, safeString, freeText } from './common';

export const BenchmarkWorkload = z.enum(['ycsb-a', 'ycsb-b', 'ycsb-c', 'ycsb-d', 'ycsb-f', 'getset', 'analytic']);
export type BenchmarkWorkload = z.infer<typeof BenchmarkWorkload>;

/** Fault injected while the benchmark runs ("Failover under load"). */
export const BenchmarkFault = z
  .strictObject({
    kind: z.literal('kill-primary').describe("kill -9 of one shard's primary, done by the agent on its node"),
    shard: z.number().int().min(0).max(1023).default(0),
    atSec: z.number().int().min(0).max(3600).default(5).describe('seconds into the steady phase'),
  })
  .openapi('BenchmarkFault');
export type BenchmarkFault = z.infer<typeof BenchmarkFault>;

export const BenchmarkRequest = z
  .strictObject({
    workload: BenchmarkWorkload,
    recordCount: z.number().int().min(1).max(50_000_000).default(100_000).describe('records loaded (YCSB) or key range (getset)'),
    operationCount: z.number().int().min(1).max(1_000_000_000).optional().describe('stop after this many operations (steady phase)'),
    durationSec: z.number().int().min(1).max(3600).optional().describe('steady phase length; default 10 when operationCount is absent'),
    warmupSec: z.number().int().min(0).max(600).default(2),
    connections: z.number().int().min(1).max(1024).default(16).describe('closed-loop clients in total, spread over workers'),
    pipeline: z.number().int().min(1).max(512).default(1).describe('requests in flight per client'),
    targetOpsPerSec: z.number().int().min(1).max(100_000_000).optional().describe('open loop at this total rate; absent = capacity run'),
    workers: z.number().int().min(1).max(64).optional().describe('worker threads in total; default one per chosen node'),
    nodeIds: z.array(Id).min(1).max(64).optional().describe('agents that run workers; default every online node of the cluster'),
    seed: z.number().int().min(0).max(2 ** 31 - 1).optional(),
    valueSize: z.number().int().min(1).max(1_048_576).default(100).describe('getset value bytes'),
    ratio: z.string().regex(/^\d{1,4}:\d{1,4}$/).refine((r) => r !== '0:0', 'at least one side must be positive').default('1:1').describe('getset SET:GET'),
    keyPattern: z.enum(['uniform', 'gaussian']).default('uniform').describe('getset key distribution'),
    load: z.boolean().default(true).describe('load records before the run (YCSB, analytic, getset); a run only ever sees its own keys, removed when it ends, so without a load its reads miss'),
    runs: z.number().int().min(1).max(20).default(5).describe('analytic: repetitions, mean reported'),
    fault: BenchmarkFault.optional().describe('inject a fault mid-run (the "Failover under load" preset)'),
  })
  .superRefine((v, ctx) => {
    if (v.operationCount !== undefined && v.durationSec !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['durationSec'], message: 'give operationCount or durationSec, not both' });
    }
    if (v.workload === 'analytic' && v.targetOpsPerSec !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['targetOpsPerSec'], message: 'the analytic workload is a full scan; it has no target rate' });
    }
    if (v.fault) {
      if (v.workload === 'analytic') ctx.addIssue({ code: 'custom', path: ['fault'], message: 'a fault is injected into a timed run, not the analytic scan' });
      if (v.operationCount !== undefined) ctx.addIssue({ code: 'custom', path: ['fault'], message: 'a fault needs a timed run (durationSec), not operationCount' });
      else if (v.fault.atSec >= (v.durationSec ?? 10)) ctx.addIssue({ code: 'custom', path: ['fault', 'atSec'], message: 'the fault must happen inside the steady phase (atSec < durationSec)' });
    }
    if (v.workers !== undefined && v.workers > v.connections) {
      ctx.addIssue({ code: 'custom', path: ['workers'], message: 'each worker needs at least one connection' });
    }
  })
  .openapi('BenchmarkRequest');
export type BenchmarkRequest = z.infer<typeof BenchmarkRequest>;
export type BenchmarkRequestInput = z.input<typeof BenchmarkRequest>;

export const BenchmarkState = z.enum(['pending', 'loading', 'warmup', 'running', 'succeeded', 'failed', 'cancelled']);
export type BenchmarkState = z.infer<typeof BenchmarkState>;

/** Latency summary in microseconds. */
export const LatencySummary = z
  .object({
    count: z.number().int(),
    mean: z.number(),
    p50: z.number(),
    p95: z.number(),
    p99: z.number(),
    p999: z.number(),
    max: z.number(),
  })
  .openapi('LatencySummary');
export type LatencySummary = z.infer<typeof LatencySummary>;

export const BenchmarkOpStats = z
  .object({
    op: z.string().describe('read, update, insert, rmw, get, set, scan'),
    count: z.number().int(),
    errors: z.number().int(),
    misses: z.number().int(),
    opsPerSec: z.number(),
    service: LatencySummary.describe('send -> reply, microseconds'),
    response: LatencySummary.optional().describe('intended start -> reply (open loop only), microseconds'),
  })
  .openapi('BenchmarkOpStats');
export type BenchmarkOpStats = z.infer<typeof BenchmarkOpStats>;

export const BenchmarkPoint = z
  .object({
    t: z.number().describe('seconds since the steady phase began (negative: warm-up)'),
    ops: z.number().int(),
    p50: z.number(),
    p99: z.number(),
    errors: z.number().int(),
    writes: z.number().int().optional().describe('acknowledged writes (update, insert, set, read-modify-write) in this second'),
  })
  .openapi('BenchmarkPoint');
export type BenchmarkPoint = z.infer<typeof BenchmarkPoint>;

export const ValidityGate = z.enum(['client-cpu', 'schedule-lag', 'errors', 'misses', 'redirects', 'key-count', 'worker-lost', 'fault']);
export type ValidityGate = z.infer<typeof ValidityGate>;

export const BenchmarkValidity = z
  .object({
    valid: z.boolean(),
    reasons: z.array(z.object({ gate: ValidityGate, message: z.string() })),
    coordinatedOmission: z.boolean().describe('closed loop: latency not corrected for coordinated omission'),
  })
  .openapi('BenchmarkValidity');
export type BenchmarkValidity = z.infer<typeof BenchmarkValidity>;

export const BenchmarkShardOps = z
  .object({
    endpoint: z.string().describe('primary host:port'),
    clientOps: z.number().int().describe('operations the client sent there in the steady window'),
    serverOps: z.number().int().optional().describe('commands the server counted in the same window'),
    serverLatency: z
      .object({
        calls: z.number().int().describe("the workload's commands the node executed in the window"),
        p50: z.number(),
        p99: z.number(),
        p999: z.number(),
        max: z.number(),
        buckets: z.array(z.object({ leUs: z.number(), count: z.number().int() })).describe('per non-empty bucket: its upper bound (us) and count'),
      })
      .optional()
      .describe("the node's own LATENCY HISTOGRAM for the steady window (command execution only, no network): percentiles are bucket upper bounds, microseconds"),
  })
  .openapi('BenchmarkShardOps');

/** What the injected fault did, on the result's time axis (seconds since the steady phase began). */
export const BenchmarkFaultResult = z
  .object({
    kind: z.literal('kill-primary'),
    shard: z.number().int(),
    instanceId: Id,
    endpoint: z.string(),
    injectedAtT: z.number().optional().describe('when the agent killed the primary; absent when it could not'),
    injectError: z.string().optional(),
    failoverAtT: z.number().optional().describe("when the replica took over (the control plane's failover event, promotedAt)"),
    failoverCause: z.string().optional(),
    writeUnavailableMs: z.number().int().nullable().optional().describe("the failover event's own measure of the window without writes"),
    writeGapMs: z.number().describe("longest time with no acknowledged write to the shard's slots, as the clients saw it (10 ms resolution)"),
    writeGapStartT: z.number().optional(),
    writeGapEndT: z.number().optional(),
    errors: z.number().int().describe('operations that failed during the run (expected while the shard has no primary)'),
  })
  .openapi('BenchmarkFaultResult');
export type BenchmarkFaultResult = z.infer<typeof BenchmarkFaultResult>;

export const BenchmarkWorkerInfo = z.object({
  nodeId: Id,
  host: z.string(),
  threads: z.number().int(),
  connections: z.number().int(),
  cpu: z.number().describe('busiest load generator thread, fraction of one core'),
  scheduleLagP99Us: z.number().optional(),
  engine: z.enum(['native', 'js']).optional().describe("what ran the run phase: 'native' (the C worker, closed-loop YCSB) or 'js' (worker threads)"),
  engineNote: z.string().optional().describe("why a closed-loop YCSB run phase ran in 'js', e.g. the native worker is not built on that node"),
});

export const AnalyticSummary = z
  .object({
    records: z.number().int().describe('distinct records visited (last run)'),
    sentences: z.number().int(),
    runsMs: z.array(z.number()),
    meanMs: z.number(),
    recordsPerSec: z.number(),
    longestBlockMs: z.number().describe('longest single call on any node'),
  })
  .openapi('AnalyticSummary');
export type AnalyticSummary = z.infer<typeof AnalyticSummary>;

export const BenchmarkResult = z
  .object({
    opsPerSec: z.number(),
    totalOps: z.number().int(),
    steadySec: z.number(),
    ops: z.array(BenchmarkOpStats),
    series: z.array(BenchmarkPoint),
    shards: z.array(BenchmarkShardOps),
    validity: BenchmarkValidity,
    workers: z.array(BenchmarkWorkerInfo),
    loadedKeys: z.number().int().optional(),
    loadSec: z.number().optional(),
    analytic: AnalyticSummary.optional(),
    fault: BenchmarkFaultResult.optional(),
    environment: z.object({
      engineVersion: z.string(),
      shards: z.number().int(),
      replicasPerShard: z.number().int(),
      durability: z.string(),
      mode: z.enum(['capacity', 'open-loop']),
      seed: z.number().int(),
    }),
  })
  .openapi('BenchmarkResult');
export type BenchmarkResult = z.infer<typeof BenchmarkResult>;

export const Benchmark = z
  .object({
    id: Id,
    clusterId: Id,
    workload: BenchmarkWorkload,
    state: BenchmarkState,
    progress: z.number().min(0).max(1),
    detail: z.string().optional(),
    request: BenchmarkRequest,
    result: BenchmarkResult.optional(),
    error: z.object({ code: z.string(), message: z.string() }).optional(),
    createdAt: Timestamp,
    startedAt: Timestamp.optional(),
    finishedAt: Timestamp.optional(),
  })
  .openapi('Benchmark');
export type Benchmark = z.infer<typeof Benchmark>;

export const BenchmarkList = z.object({ items: z.array(Benchmark) }).openapi('BenchmarkList');
export type BenchmarkList = z.infer<typeof BenchmarkList>;

/** SSE `progress` event of GET /v1/benchmarks/{id}/stream. */
export const BenchmarkProgressEvent = z
  .object({
    state: BenchmarkState,
    progress: z.number(),
    detail: z.string().optional(),
    point: BenchmarkPoint.optional(),
  })
  .openapi('BenchmarkProgressEvent');
export type BenchmarkProgressEvent = z.infer<typeof BenchmarkProgressEvent>;
/** SSE `end` event of GET /v1/benchmarks/{id}/stream: the benchmark finished; the stream closes. */
export const BenchmarkStreamEnd = z.strictObject({}).openapi('BenchmarkStreamEnd');
export type BenchmarkStreamEnd = z.infer<typeof BenchmarkStreamEnd>;

// ---------- agent side: the `benchmark` task and its reports ----------

/** What a worker host measured for one op type; histograms are HdrHistogram compressed base64 (microseconds). */
export const OpCountsSchema = z.object({
  op: safeString(),
  count: z.number().int(),
  errors: z.number().int(),
  misses: z.number().int(),
  service: safeString(),
  response: safeString().optional(),
});

/** The part of a benchmark one agent runs (a `benchmark` task). */
export const BenchmarkTaskSpec = z.object({
  benchmarkId: Id,
  clusterId: Id,
  workload: BenchmarkWorkload,
  recordCount: z.number().int(),
  threads: z.number().int().min(1),
  connections: z.number().int().min(1),
  pipeline: z.number().int().min(1),
  targetOpsPerSec: z.number().optional(),
  seed: z.number().int(),
  valueSize: z.number().int(),
  ratio: z.string(),
  keyPattern: z.enum(['uniform', 'gaussian']),
  seeds: z.array(z.string()).min(1).describe('cluster members host:port'),
  workerIndexBase: z.number().int(),
  workerCountTotal: z.number().int(),
  keyPrefix: z.string().min(1).max(40).describe('every key the run reads or writes starts with it; the agent removes them when the run ends'),
});
export type BenchmarkTaskSpec = z.infer<typeof BenchmarkTaskSpec>;

export const BenchmarkWorkerReport = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('ready'), primaries: z.array(safeString()) }),
    z.object({ kind: z.literal('poll') }),
    z.object({ kind: z.literal('load-progress'), done: z.number().int() }),
    z.object({ kind: z.literal('loaded'), inserted: z.number().int(), errors: z.number().int(), firstError: freeText().optional() }),
    z.object({ kind: z.literal('interval'), t: z.number().int(), phase: z.enum(['warmup', 'steady']), ops: z.array(OpCountsSchema) }),
    z.object({
      kind: z.literal('done'),
      ops: z.array(OpCountsSchema),
      endpointCommands: z.record(z.string(), z.number()),
      steadyStartMs: z.number(),
      steadyEndMs: z.number(),
      maxElu: z.number(),
      scheduleLagP99Us: z.number().optional(),
      engine: z.enum(['native', 'js']).optional(),
      engineNote: freeText().optional(),
      redirects: z.number().int(),
      firstError: freeText().optional(),
      keyCount: z.number().int().optional().describe("the run's own keys on the primaries before the run (first host only)"),
      serverCommands: z.record(z.string(), z.number()).optional().describe('per primary: commands processed in the steady window (first host only)'),
      serverLatency: z
        .record(z.string(), z.object({ calls: z.number().int(), buckets: z.array(z.tuple([z.number(), z.number()])) }))
        .optional()
        .describe("per primary: LATENCY HISTOGRAM of the workload's commands over the steady window (first host only)"),
      writeSlots: z
        .object({ startMs: z.number(), slotMs: z.number().int(), bits: safeString().describe('base64 bitmap: slot i had an acknowledged write') })
        .optional(),
    }),
    z.object({ kind: z.literal('fault'), injectedAtMs: z.number(), error: freeText().optional() }),
    z.object({
      kind: z.literal('analytic'),
      records: z.number().int(),
      sentences: z.number().int(),
      ms: z.number(),
      longestBatchMs: z.number(),
      errors: z.number().int(),
      firstError: freeText().optional(),
    }),
    z.object({ kind: z.literal('failed'), message: freeText() }),
  ])
  .openapi('BenchmarkWorkerReport');
export type BenchmarkWorkerReport = z.infer<typeof BenchmarkWorkerReport>;

export const BenchmarkWorkerCommand = z
  .discriminatedUnion('action', [
    z.object({ action: z.literal('wait') }),
    z.object({ action: z.literal('load'), from: z.number().int(), to: z.number().int() }),
    z.object({
      action: z.literal('run'),
      startAtMs: z.number(),
      warmupSec: z.number().int(),
      durationSec: z.number().int().optional(),
      operationCount: z.number().int().optional(),
      measureServer: z.boolean(),
      fault: z.object({ instanceId: Id, atMs: z.number() }).optional().describe('kill this engine (on this host) at atMs (epoch)'),
      watchEndpoint: z.string().optional().describe("record acknowledged writes only for the slots this primary owns at the start (the fault's shard)"),
    }),
    z.object({ action: z.literal('analytic'), primaries: z.array(z.string()) }),
    z.object({ action: z.literal('stop') }),
    z.object({ action: z.literal('exit') }),
  ])
  .openapi('BenchmarkWorkerCommand');
export type BenchmarkWorkerCommand = z.infer<typeof BenchmarkWorkerCommand>;
