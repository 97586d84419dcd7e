import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { z, Problem } from './common';
import {
  Cluster, ClusterList, ClusterWithOperation, Connection, CreateClusterRequest, Topology,
} from './clusters';
import { Operation, OperationList } from './operations';
import { ClusterEventList, ClusterEventQuery } from './events';
import { ClusterUpdateAccepted, SwitchoverRequest, UpdateClusterDryRun, UpdateClusterQuery, UpdateClusterRequest } from './topology';
import { CreateJoinTokenRequest, JoinToken, NodeList } from './nodes';
import { LiveEvent } from './live';
import { Capacity } from './capacity';
import {
  AgentEndpoints, AgentStatusReport, CompleteTaskRequest, HeartbeatResponse, LeaseTaskResponse, TaskProgressRequest, RegisterAgentRequest, RegisterAgentResponse,
} from './agent';
import {
  AgentMetricsBatch, ClusterCurrentMetricsList, MetricsResult, MetricsStreamEvent, NodeCurrentMetricsList,
} from './metrics';
import {
  CreateOrganizationRequest, CreateOrganizationResponse, LoginRequest, Session, type Scope,
} from './auth';
import { Benchmark, BenchmarkList, BenchmarkRequest, BenchmarkProgressEvent, BenchmarkWorkerReport, BenchmarkWorkerCommand } from './benchmarks';
import { OPERATION_TABLE, type OperationDef } from './operation-table';

const json = (schema: z.ZodType, description = 'OK') => ({
  description,
  content: { 'application/json': { schema } },
});
const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: Problem } },
});
const body = (schema: z.ZodType) => ({ body: { content: { 'application/json': { schema } } } });
const idParam = z.object({ id: z.string().uuid() });
const errors = {
  400: problem('Invalid request (code validation_failed)'),
  401: problem('Missing or invalid credentials'),
  403: problem('The role or token lacks the scope this operation needs (code forbidden)'),
  404: problem('Not found (also for resources of another organization)'),
};

export function buildOpenApiDocument(): object {
  const r = new OpenAPIRegistry();
  r.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer' });
  const security = [{ bearer: [] }];
  /**
   * The scope an operation needs, as the bearer requirement's role list (OpenAPI 3.1).
   * `self`: any signed-in user, or a token with the admin scope (managing one's own tokens).
   */
  const scope = (s: Scope | 'self') => [{ bearer: [s] }];

  r.registerPath({
    method: 'post', path: '/v1/clusters', summary: 'Create a cluster', security: scope('clusters:write'),
    request: body(CreateClusterRequest),
    responses: {
      202: { ...json(ClusterWithOperation, 'Accepted; follow the operation at Location'), headers: { Location: { schema: { type: 'string' } } } },
      ...errors,
      409: problem('A cluster with this name exists (code name_taken)'),
      422: problem('The spec cannot be placed on the available nodes (code unplaceable)'),
    },
  });
  r.registerPath({ method: 'get', path: '/v1/clusters', summary: 'List clusters', security: scope('clusters:read'), responses: { 200: json(ClusterList), 401: errors[401] } });
  r.registerPath({ method: 'get', path: '/v1/clusters/{id}', summary: 'Get a cluster', security: scope('clusters:read'), request: { params: idParam }, responses: { 200: json(Cluster), ...errors } });
  r.registerPath({
    method: 'patch', path: '/v1/clusters/{id}', summary: 'Change shards, replicas, memory, durability or eviction online; ?dryRun=true returns the plan and changes nothing', security: scope('clusters:write'),
    request: { params: idParam, query: UpdateClusterQuery, ...body(UpdateClusterRequest) },
    responses: {
      200: json(UpdateClusterDryRun, 'Dry run: the plan'), 202: json(ClusterUpdateAccepted, 'Accepted: the change runs as an operation'), ...errors,
      409: problem('Another change is running (code operation_in_progress, with operationId), or the cluster is not ready'),
      422: problem('The nodes cannot hold it (code unplaceable) or the data would not fit (code does_not_fit)'),
    },
  });
  r.registerPath({
    method: 'post', path: '/v1/clusters/{id}/shards/{index}/switchover', summary: "Promote a replica of one shard without losing acknowledged writes", security: scope('clusters:write'),
    request: { params: z.object({ id: z.string(), index: z.string() }), ...body(SwitchoverRequest) },
    responses: { 202: json(ClusterWithOperation, 'Accepted'), ...errors, 409: problem('Another change is running'), 422: problem('No in-sync replica') },
  });
  for (const action of ['pause', 'resume', 'cancel'] as const) {
    r.registerPath({
      method: 'post', path: `/v1/operations/{id}/${action}`, summary: `${action[0]!.toUpperCase()}${action.slice(1)} a running topology change (update-cluster)`, security: scope('clusters:write'),
      request: { params: idParam }, responses: { 200: json(Operation), ...errors, 409: problem('Not an unfinished update, or past its point of no return') },
    });
  }
  r.registerPath({ method: 'delete', path: '/v1/clusters/{id}', summary: 'Delete a cluster', security: scope('clusters:write'), request: { params: idParam }, responses: { 202: json(ClusterWithOperation, 'Accepted'), ...errors } });
  r.registerPath({ method: 'get', path: '/v1/clusters/{id}/topology', summary: 'Shards, slot ranges and instances', security: scope('clusters:read'), request: { params: idParam }, responses: { 200: json(Topology), ...errors } });
  r.registerPath({ method: 'get', path: '/v1/clusters/{id}/connection', summary: 'Connection string and credentials', security: scope('clusters:read'), request: { params: idParam }, responses: { 200: json(Connection), ...errors, 409: problem('Cluster is being deleted') } });
  r.registerPath({ method: 'get', path: '/v1/clusters/{id}/operations', summary: "A cluster's operations, newest first", security: scope('clusters:read'), request: { params: idParam }, responses: { 200: json(OperationList), ...errors } });
  r.registerPath({ method: 'get', path: '/v1/clusters/{id}/events', summary: "A cluster's events (failovers, restarts, data loss, rebalancing, slot repair), newest first, paged", security: scope('clusters:read'), request: { params: idParam, query: ClusterEventQuery }, responses: { 200: json(ClusterEventList), ...errors } });
  r.registerPath({ method: 'get', path: '/v1/operations/{id}', summary: 'Get an operation', security: scope('clusters:read'), request: { params: idParam }, responses: { 200: json(Operation), ...errors } });
  r.registerPath({ method: 'get', path: '/v1/nodes', summary: 'List nodes: every node with its capacity for platform admins; for others only the nodes running their clusters, without capacity', security: scope('clusters:read'), responses: { 200: json(NodeList), 401: errors[401] } });
  r.registerPath({ method: 'get', path: '/v1/capacity', summary: 'Room for new clusters: free memory per schedulable node (anonymous), the largest instance and most replicas per shard placeable', security: scope('clusters:read'), responses: { 200: json(Capacity), 401: errors[401] } });
  r.registerPath({
    method: 'get', path: '/v1/events/stream', summary: "Live changes of the caller's organization: server-sent `cluster`, `cluster-deleted`, `operation`, `cluster-activity` and `resync` events (session cookie or Bearer token)", security: scope('clusters:read'),
    responses: { 200: { description: 'text/event-stream; `event:` is the type, `data:` a LiveEvent', content: { 'text/event-stream': { schema: LiveEvent } } }, 401: errors[401] },
  });
  r.registerPath({ method: 'post', path: '/v1/nodes/{id}/drain', summary: 'Drain a node for maintenance (platform admin): primaries switch over, every instance is rebuilt on other nodes', security: scope('admin'), request: { params: idParam }, responses: { 200: json(z.object({ id: z.string(), name: z.string(), draining: z.boolean() })), ...errors, 403: problem('Not a platform admin') } });
  r.registerPath({ method: 'post', path: '/v1/nodes/{id}/undrain', summary: 'Return a drained node to placement (platform admin)', security: scope('admin'), request: { params: idParam }, responses: { 200: json(z.object({ id: z.string(), name: z.string(), draining: z.boolean() })), ...errors, 403: problem('Not a platform admin') } });
  r.registerPath({ method: 'post', path: '/v1/nodes/join-tokens', summary: 'Create a one-time join token for a new node (platform admin)', security: scope('admin'), request: body(CreateJoinTokenRequest), responses: { 201: json(JoinToken), ...errors, 403: problem('Not a platform admin') } });
  r.registerPath({ method: 'post', path: '/v1/organizations', summary: 'Create an organization (platform admin)', security: scope('admin'), request: body(CreateOrganizationRequest), responses: { 201: json(CreateOrganizationResponse), ...errors, 403: problem('Not a platform admin'), 409: problem('Name taken') } });
  for (const o of Object.values(OPERATION_TABLE) as OperationDef[]) {
    const hasId = o.path.includes('{id}');
    const request = {
      ...(hasId ? { params: idParam } : {}),
      ...(o.query ? { query: o.query as z.ZodObject } : {}),
      ...(o.body ? body(o.body) : {}),
    };
    r.registerPath({
      method: o.method, path: o.path, summary: o.summary, security: scope(o.scope),
      ...(Object.keys(request).length ? { request } : {}),
      responses: {
        [o.success.status]: json(o.success.schema, o.success.description),
        ...(o.body || o.query ? { 400: errors[400] } : {}),
        401: errors[401], 403: problem(o.scope === 'self' ? 'A token without the admin scope, or a scope beyond your role' : `Needs the ${o.scope} scope`),
        ...(hasId ? { 404: errors[404] } : {}),
        ...Object.fromEntries(Object.entries(o.problems ?? {}).map(([k, v]) => [k, problem(v)])),
      },
    });
  }
  r.registerPath({ method: 'post', path: '/v1/session', summary: 'Sign in (sets an httpOnly session cookie)', request: body(LoginRequest), responses: { 200: json(Session), 400: errors[400], 401: problem('Wrong email or password (code invalid_credentials)') } });
  r.registerPath({
    method: 'get', path: '/v1/session', summary: 'Current session (with `?optional=true`: 200 and `null` when signed out, instead of 401)',
    request: { query: z.object({ optional: z.enum(['true', 'false']).optional() }) },
    responses: { 200: json(Session.nullable()), 401: errors[401] },
  });
  r.registerPath({ method: 'delete', path: '/v1/session', summary: 'Sign out', responses: { 204: { description: 'Signed out' } } });
  r.registerPath({ method: 'post', path: '/v1/agent/register', summary: 'Agent: register with a one-time join token', request: body(RegisterAgentRequest), responses: { 201: json(RegisterAgentResponse), 400: errors[400], 401: problem('Join token invalid, used or expired (code join_token_invalid)') } });
  r.registerPath({ method: 'post', path: '/v1/agent/status', summary: 'Agent: report observed node and engine status', security, request: body(AgentStatusReport), responses: { 204: { description: 'Stored' }, 400: errors[400], 401: errors[401] } });
  r.registerPath({ method: 'get', path: '/v1/agent/endpoints', summary: 'Agent: the cluster endpoints to serve and the live instances they forward to', security, responses: { 200: json(AgentEndpoints), 401: errors[401] } });
  r.registerPath({ method: 'get', path: '/v1/agent/tasks', summary: 'Agent: long-poll for the next task and lease it', security, request: { query: z.object({ waitMs: z.string().optional() }) }, responses: { 200: json(LeaseTaskResponse), 401: errors[401] } });
  r.registerPath({ method: 'post', path: '/v1/agent/tasks/{id}/heartbeat', summary: "Agent: extend a task's lease (the reply may ask the task to stop early)", security, request: { params: idParam }, responses: { 200: json(HeartbeatResponse), ...errors, 409: problem('Lease lost') } });
  r.registerPath({ method: 'post', path: '/v1/agent/tasks/{id}/progress', summary: "Agent: report a running task's progress", security, request: { params: idParam, ...body(TaskProgressRequest) }, responses: { 204: { description: 'Recorded' }, ...errors, 409: problem('Lease lost') } });
  r.registerPath({ method: 'post', path: '/v1/agent/tasks/{id}/complete', summary: 'Agent: report a task outcome', security, request: { params: idParam, ...body(CompleteTaskRequest) }, responses: { 204: { description: 'Recorded' }, ...errors } });
  const metricsQuery = z.object({
    metric: z.string().describe('comma-separated: ops, ops_read, ops_write, ops_other, latency_p50, latency_p95, latency_p99, latency_p999, clients, memory_used, memory_max, keys, evictions, expirations, hits, misses, repl_lag, net_in, net_out, cpu'),
    from: z.string().optional().describe('RFC 3339, unix seconds or relative ("-1h"); default 5 minutes before `to`'),
    to: z.string().optional().describe('default now'),
    step: z.string().optional().describe('seconds per point; default keeps ~600 points'),
    by: z.enum(['cluster', 'shard', 'instance']).optional(),
  });
  r.registerPath({ method: 'get', path: '/v1/clusters/{id}/metrics', summary: 'Metric history of a cluster, by cluster, shard or instance (hot window, 1 s points or 1 min rollups)', security: scope('clusters:read'), request: { params: idParam, query: metricsQuery }, responses: { 200: json(MetricsResult), ...errors } });
  r.registerPath({
    method: 'get', path: '/v1/clusters/{id}/metrics/stream', summary: 'Live metrics: server-sent `sample` events, one point per series per second', security: scope('clusters:read'),
    request: { params: idParam, query: z.object({ metric: z.string().optional(), by: z.enum(['cluster', 'shard', 'instance']).optional() }) },
    responses: { 200: { description: 'text/event-stream of `sample` events (data: MetricsStreamEvent)', content: { 'text/event-stream': { schema: MetricsStreamEvent } } }, ...errors },
  });
  r.registerPath({
    method: 'get', path: '/v1/nodes/{id}/metrics', summary: 'Host metric history of a node (cpu, memory, disk); platform admins only', security: scope('clusters:read'),
    request: { params: idParam, query: z.object({ metric: z.string().optional().describe('comma-separated: cpu, memory_total, memory_available, memory_used, disk_total, disk_free, disk_used'), from: z.string().optional(), to: z.string().optional(), step: z.string().optional() }) },
    responses: { 200: json(MetricsResult), ...errors, 403: problem('Not a platform admin') },
  });
  r.registerPath({ method: 'get', path: '/v1/metrics/clusters', summary: "Current ops/s, p99 and memory of the caller's clusters", security: scope('clusters:read'), responses: { 200: json(ClusterCurrentMetricsList), 401: errors[401] } });
  r.registerPath({ method: 'get', path: '/v1/metrics/nodes', summary: 'Current CPU, memory and disk of every node (platform admins; an empty list for others: host load includes other organizations)', security: scope('clusters:read'), responses: { 200: json(NodeCurrentMetricsList), 401: errors[401] } });
  r.registerPath({ method: 'post', path: '/v1/agent/metrics', summary: 'Agent: push a batch of per-second instance and host samples', security, request: body(AgentMetricsBatch), responses: { 200: json(z.object({ accepted: z.number().int(), rejected: z.number().int() })), 400: errors[400], 401: errors[401] } });
  r.registerPath({ method: 'get', path: '/metrics', summary: 'Prometheus exposition of cluster, shard, instance and node series and the control plane\'s health (scrape token as Bearer)', security, responses: { 200: { description: 'text/plain; version=0.0.4', content: { 'text/plain': { schema: z.string() } } }, 401: errors[401] } });
  // Benchmarks (issue 10)
  r.registerPath({ method: 'post', path: '/v1/clusters/{id}/benchmarks', summary: 'Start a benchmark on a cluster (one at a time per cluster)', security: scope('benchmarks:run'), request: { params: idParam, ...body(BenchmarkRequest) }, responses: { 202: json(Benchmark, 'Accepted'), ...errors, 409: problem('A benchmark is already running, or the cluster is not ready') } });
  r.registerPath({ method: 'get', path: '/v1/clusters/{id}/benchmarks', summary: "A cluster's benchmarks, newest first", security: scope('clusters:read'), request: { params: idParam }, responses: { 200: json(BenchmarkList), ...errors } });
  r.registerPath({ method: 'get', path: '/v1/clusters/{id}/benchmark-presets', summary: 'One-click presets sized to the cluster', security: scope('clusters:read'), request: { params: idParam }, responses: { 200: json(z.object({ items: z.array(z.object({ id: z.string(), title: z.string(), description: z.string(), request: BenchmarkRequest })) })), ...errors } });
  r.registerPath({ method: 'get', path: '/v1/benchmarks/{id}', summary: 'A benchmark: state, progress and (when finished) its result', security: scope('clusters:read'), request: { params: idParam }, responses: { 200: json(Benchmark), ...errors } });
  r.registerPath({ method: 'get', path: '/v1/benchmarks/{id}/stream', summary: 'Live progress (SSE `progress` events with per-second points; `end` when finished)', security: scope('clusters:read'), request: { params: idParam }, responses: { 200: { description: 'text/event-stream of BenchmarkProgressEvent', content: { 'text/event-stream': { schema: BenchmarkProgressEvent } } }, ...errors } });
  r.registerPath({ method: 'post', path: '/v1/benchmarks/{id}/cancel', summary: 'Cancel a running benchmark: every worker stops', security: scope('benchmarks:run'), request: { params: idParam }, responses: { 202: json(Benchmark, 'Accepted'), ...errors, 409: problem('Already finished') } });
  r.registerPath({ method: 'get', path: '/v1/benchmarks/{id}/export', summary: 'Export: JSON with HdrHistogram logs (default) or CSV (?format=csv)', security: scope('clusters:read'), request: { params: idParam, query: z.object({ format: z.enum(['json', 'csv']).optional() }) }, responses: { 200: { description: 'JSON or CSV', content: { 'application/json': { schema: z.object({}) }, 'text/csv': { schema: z.string() } } }, ...errors } });
  r.registerPath({ method: 'post', path: '/v1/agent/tasks/{id}/benchmark', summary: "Agent: a benchmark worker's report, answered with its next command", security, request: { params: idParam, ...body(BenchmarkWorkerReport) }, responses: { 200: json(BenchmarkWorkerCommand), ...errors } });
  r.registerPath({ method: 'get', path: '/healthz', summary: 'Liveness and database reachability', responses: { 200: json(z.object({ status: z.literal('ok') })) } });

  return new OpenApiGeneratorV31(r.definitions).generateDocument({
    openapi: '3.1.0',
    info: { title: 'Strata API', version: '1.0.0', description: 'Managed Redis Cluster: clusters, operations, nodes.' },
    servers: [{ url: '/' }],
  });
}
