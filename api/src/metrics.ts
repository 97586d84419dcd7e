/**
 * Live metrics: what agents push every second, and what the API serves
 * (history queries, the live SSE stream, current values for lists).
 */
import { z, Id, safeString } from './common';
import { AgentStatusReport } from './agent';

/** Number of latency buckets: bucket i holds calls that took (2^(i-1), 2^i] microseconds. */
export const LATENCY_BUCKET_COUNT = 27;

export const InstanceMetricSample = z.object({
  instanceId: Id,
  clusterId: Id,
  ts: z.number().int().describe('Unix ms of the sample, on a whole second'),
  intervalMs: z.number().int().min(1).max(600_000).describe('Time the counter deltas cover'),
  role: z.enum(['primary', 'replica']),
  restarted: z.boolean().describe('The engine restarted (or reset its stats) since the previous sample'),
  reads: z.number().int().min(0),
  writes: z.number().int().min(0).describe('On a replica: writes applied from the replication stream'),
  others: z.number().int().min(0),
  latency: z.array(z.number().int().min(0)).length(LATENCY_BUCKET_COUNT).describe('Read+write calls per power-of-two latency bucket in this interval'),
  latencySumUs: z.number().min(0),
  clients: z.number().int().min(0),
  usedMemory: z.number().min(0),
  maxMemory: z.number().min(0),
  keys: z.number().int().min(0),
  evicted: z.number().int().min(0),
  expired: z.number().int().min(0),
  hits: z.number().int().min(0),
  misses: z.number().int().min(0),
  netIn: z.number().min(0),
  netOut: z.number().min(0),
  cpuSeconds: z.number().min(0),
  replicas: z.array(z.object({ host: safeString(), port: z.number().int(), lagBytes: z.number().min(0) })).max(16)
    .describe('On a primary: offset lag of each connected replica'),
});
export type InstanceMetricSample = z.infer<typeof InstanceMetricSample>;

export const HostMetricSample = z.object({
  ts: z.number().int(),
  cpu: z.number().min(0).max(1).describe('Busy share of all host CPUs over the interval'),
  memoryTotal: z.number().min(0),
  memoryAvailable: z.number().min(0),
  diskTotal: z.number().min(0),
  diskFree: z.number().min(0),
});
export type HostMetricSample = z.infer<typeof HostMetricSample>;

export const AgentMetricsBatch = z
  .strictObject({
    host: z.array(HostMetricSample).max(600),
    instances: z.array(InstanceMetricSample).max(20_000),
    status: AgentStatusReport.optional().describe(
      "The node's status report, carried by the steady once-a-second push instead of a separate POST /v1/agent/status (one request per node per second instead of two); changes are still reported at once on /v1/agent/status",
    ),
  })
  .openapi('AgentMetricsBatch');
export type AgentMetricsBatch = z.infer<typeof AgentMetricsBatch>;

/** Instance and cluster series. Rates are per second, latency in microseconds, memory and lag in bytes, cpu in cores. */
export const ClusterMetric = z.enum([
  'ops', 'ops_read', 'ops_write', 'ops_other',
  'latency_p50', 'latency_p95', 'latency_p99', 'latency_p999',
  'clients', 'memory_used', 'memory_max', 'keys',
  'evictions', 'expirations', 'hits', 'misses', 'repl_lag', 'net_in', 'net_out', 'cpu',
]);
export type ClusterMetric = z.infer<typeof ClusterMetric>;
export const CLUSTER_METRICS = ClusterMetric.options;

export const NodeMetric = z.enum(['cpu', 'memory_total', 'memory_available', 'memory_used', 'disk_total', 'disk_free', 'disk_used']);
export type NodeMetric = z.infer<typeof NodeMetric>;
export const NODE_METRICS = NodeMetric.options;

export const MetricsGrouping = z.enum(['cluster', 'shard', 'instance']);
export type MetricsGrouping = z.infer<typeof MetricsGrouping>;

const metricList = <T extends z.ZodEnum>(e: T) =>
  safeString().min(1).transform((s, ctx) => {
    const names = s.split(',').map((x) => x.trim()).filter(Boolean);
    const bad = names.filter((n) => !e.safeParse(n).success);
    if (bad.length || !names.length) {
      ctx.addIssue({ code: 'custom', message: `unknown metric ${bad.join(', ') || '(none)'}; one or more of: ${e.options.join(', ')}` });
      return z.NEVER;
    }
    return [...new Set(names)] as z.infer<T>[];
  });

const time = safeString().describe('RFC 3339 time, unix seconds, or relative like "-15m", "-1h", "now"');

export const ClusterMetricsQuery = z.strictObject({
  metric: metricList(ClusterMetric).describe('comma-separated metric names'),
  from: time.optional().describe('default: 5 minutes before `to`'),
  to: time.optional().describe('default: now'),
  step: z.coerce.number().int().min(1).max(86_400).optional().describe('seconds between points; default picks at most ~600 points'),
  by: MetricsGrouping.default('cluster'),
});
export type ClusterMetricsQuery = z.infer<typeof ClusterMetricsQuery>;

export const NodeMetricsQuery = z.strictObject({
  metric: metricList(NodeMetric).optional(),
  from: time.optional(),
  to: time.optional(),
  step: z.coerce.number().int().min(1).max(86_400).optional(),
});
export type NodeMetricsQuery = z.infer<typeof NodeMetricsQuery>;

export const MetricsStreamQuery = z.strictObject({
  metric: metricList(ClusterMetric).optional().describe('default: ops, ops_read, ops_write, latency_p50, latency_p99, memory_used, clients'),
  by: MetricsGrouping.default('cluster'),
});
export type MetricsStreamQuery = z.infer<typeof MetricsStreamQuery>;

export const MetricSeries = z.object({
  metric: z.string(),
  scope: MetricsGrouping.or(z.literal('node')),
  shard: z.number().int().nullable(),
  instanceId: z.string().nullable(),
  role: z.enum(['primary', 'replica']).nullable(),
  values: z.array(z.number().nullable()).describe('one value per timestamp; null where no sample'),
});
export type MetricSeries = z.infer<typeof MetricSeries>;

export const MetricsResult = z
  .object({
    from: z.number().int().describe('unix seconds'),
    to: z.number().int(),
    step: z.number().int(),
    source: z.enum(['memory', 'raw', 'rollup']).describe('memory: hot 1 s window; raw: 1 s points in PostgreSQL; rollup: 1 min rollups'),
    timestamps: z.array(z.number().int()).describe('unix seconds, start of each step'),
    series: z.array(MetricSeries),
  })
  .openapi('MetricsResult');
export type MetricsResult = z.infer<typeof MetricsResult>;

/** One SSE `sample` event of GET /v1/clusters/{id}/metrics/stream. */
export const MetricsStreamEvent = z
  .object({
    ts: z.number().int().describe('unix seconds of the point'),
    series: z.array(MetricSeries.omit({ values: true }).extend({ value: z.number().nullable() })),
  })
  .openapi('MetricsStreamEvent');
export type MetricsStreamEvent = z.infer<typeof MetricsStreamEvent>;

export const ClusterCurrentMetrics = z.object({
  clusterId: Id,
  ts: z.number().int().nullable(),
  ops: z.number().nullable(),
  opsRead: z.number().nullable(),
  opsWrite: z.number().nullable(),
  latencyP99: z.number().nullable(),
  memoryUsed: z.number().nullable(),
});
export type ClusterCurrentMetrics = z.infer<typeof ClusterCurrentMetrics>;
export const ClusterCurrentMetricsList = z.object({ items: z.array(ClusterCurrentMetrics) }).openapi('ClusterCurrentMetricsList');
export type ClusterCurrentMetricsList = z.infer<typeof ClusterCurrentMetricsList>;

export const NodeCurrentMetrics = z.object({
  nodeId: Id,
  ts: z.number().int().nullable(),
  cpu: z.number().nullable(),
  memoryTotal: z.number().nullable(),
  memoryUsed: z.number().nullable(),
  diskTotal: z.number().nullable(),
  diskUsed: z.number().nullable(),
});
export type NodeCurrentMetrics = z.infer<typeof NodeCurrentMetrics>;
export const NodeCurrentMetricsList = z.object({ items: z.array(NodeCurrentMetrics) }).openapi('NodeCurrentMetricsList');
export type NodeCurrentMetricsList = z.infer<typeof NodeCurrentMetricsList>;
