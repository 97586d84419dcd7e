/**
 * Benchmark API: start on a cluster, list, get, live stream (SSE), cancel,
 * export. And the agent side: workers report and get their next command.
 */
import { Router, type Request, type RequestHandler } from 'express';
import { BenchmarkRequest, type BenchmarkList, type BenchmarkProgressEvent, type BenchmarkStreamEnd } from '@strata/api';
import { parseUuid } from '../http/validate';
import { mountOperation, mountRaw } from '../http/operation-router';
import { notFound } from '../errors';
import { publicBenchmark, type BenchmarkStore } from '../stores/benchmark.store';
import type { BenchmarkService } from './benchmark.service';
import type { BenchmarkCoordinator } from './benchmark-coordinator';
import { exportCsv, exportJson } from './benchmark-export';
import { BENCHMARK_PRESETS, presetImpact, presetRequest } from '@strata/api';
import type { ClusterStore } from '../stores/cluster.store';
import type { EventStreams } from '../http/event-streams';

export interface BenchmarkRoutesDeps {
  eventStreams: EventStreams;
  benchmarks: BenchmarkStore;
  benchmarkService: BenchmarkService;
  coordinator: BenchmarkCoordinator;
  clusters: ClusterStore;
}

const BASE = '/v1';

/** Mounted at /v1 behind user auth. */
export function benchmarkRoutes(d: BenchmarkRoutesDeps): Router {
  const r = Router();

  mountOperation(r, BASE, 'listBenchmarkPresets', async ({ req }) => {
    const cluster = await d.clusters.get(parseUuid(req.params.id, 'Cluster'), req.principal!.organizationId);
    if (!cluster) throw notFound('Cluster');
    return {
      items: BENCHMARK_PRESETS.map((p) => {
        const request = presetRequest(p.id, cluster.spec);
        return { ...p, request: BenchmarkRequest.parse(request), ...presetImpact(request) };
      }),
    };
  });

  mountOperation(r, BASE, 'startBenchmark', async (input) => {
    const { req, res } = input;
    const clusterId = parseUuid(req.params.id, 'Cluster');
    const body = input.body;
    const b = await d.benchmarkService.start(req.principal!.organizationId, clusterId, body);
    res.location(`/v1/benchmarks/${b.id}`);
    return publicBenchmark(b);
  });

  mountOperation(r, BASE, 'listBenchmarks', async ({ req }) => {
    const clusterId = parseUuid(req.params.id, 'Cluster');
    // Another organization's cluster (or none) is a 404, not an empty list.
    if (!(await d.clusters.get(clusterId, req.principal!.organizationId))) throw notFound('Cluster');
    const items = await d.benchmarks.listForCluster(clusterId, req.principal!.organizationId);
    const out: BenchmarkList = { items: items.map(publicBenchmark) };
    return out;
  });

  const load = async (req: Request) => {
    const b = await d.benchmarks.get(parseUuid(String(req.params.id), 'Benchmark'), req.principal!.organizationId);
    if (!b) throw notFound('Benchmark');
    return b;
  };

  mountOperation(r, BASE, 'getBenchmark', async ({ req }) => publicBenchmark(await load(req)));

  mountOperation(r, BASE, 'cancelBenchmark', async ({ req }) => {
    const b = await load(req);
    return publicBenchmark(await d.benchmarkService.cancel(req.principal!.organizationId, b.id));
  });

  mountRaw(r, BASE, 'exportBenchmark', async ({ req, res }) => {
    const b = publicBenchmark(await load(req));
    if (req.query.format === 'csv') {
      res.type('text/csv').attachment(`benchmark-${b.id}.csv`).send(exportCsv(b));
      return;
    }
    res.attachment(`benchmark-${b.id}.json`).json(exportJson(b, await d.benchmarks.histograms(b.id)));
  });

  mountRaw(r, BASE, 'streamBenchmark', async ({ req, res }) => {
    const b = await load(req);
    const stream = d.eventStreams.start(req, res, { retryMs: 2000 });
    const send = (e: BenchmarkProgressEvent) => stream.send('progress', e);
    send({ state: b.state, progress: b.progress, detail: b.detail });
    const run = d.coordinator.get(b.id);
    for (const point of run?.points ?? []) send({ state: run!.state, progress: run!.progress, point });
    const unsubscribe = d.coordinator.subscribe(b.id, (e) => {
      send(e);
      if (['succeeded', 'failed', 'cancelled'].includes(e.state)) end();
    });
    const end = () => {
      unsubscribe?.();
      const last: BenchmarkStreamEnd = {};
      stream.send('end', last);
      stream.end();
    };
    if (!unsubscribe) end();
    stream.onClose(() => unsubscribe?.());
  });

  return r;
}

/** Mounted at /v1/agent (node auth from the table): a benchmark worker's report, answered with its next command. */
export function agentBenchmarkRoutes(d: { coordinator: BenchmarkCoordinator; benchmarks: BenchmarkStore }): Router {
  const r = Router();
  mountOperation(r, '/v1/agent', 'reportBenchmarkWorker', async (input) => {
    const { req } = input;
    const taskId = parseUuid(req.params.id as string, 'Task');
    const body = input.body;
    const benchmarkId = await d.benchmarks.benchmarkOfTask(taskId, req.node!.id);
    if (!benchmarkId) throw notFound('Task');
    return d.coordinator.report(benchmarkId, req.node!.id, taskId, body);
  });
  return r;
}
