/**
 * `npm run bench -- --cluster <id> --workload ycsb-c [...]`: starts a
 * benchmark through the API, draws a progress bar from its SSE stream and
 * prints the summary. Same run as the console's, headless.
 *
 * Flags: --cluster, --workload, --records, --duration, --operations, --warmup,
 * --connections, --pipeline, --rate (target ops/s), --workers, --seed,
 * --value-size, --ratio, --no-load, --runs, --url (default
 * http://127.0.0.1:8080), --token (default $STRATA_TOKEN or .strata/admin-token),
 * --json (print the whole result as JSON).
 */
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { BenchmarkProgressEvent, BenchmarkRequestInput, Problem } from '@strata/api';
import { createStrataClient, type StrataComponents } from '@strata/api/client';
import { readSse } from './sse-reader';

const { values: a } = parseArgs({
  options: {
    cluster: { type: 'string' }, workload: { type: 'string', default: 'ycsb-c' }, records: { type: 'string' }, duration: { type: 'string' },
    operations: { type: 'string' }, warmup: { type: 'string' }, connections: { type: 'string' }, pipeline: { type: 'string' }, rate: { type: 'string' },
    workers: { type: 'string' }, seed: { type: 'string' }, 'value-size': { type: 'string' }, ratio: { type: 'string' }, 'no-load': { type: 'boolean' },
    runs: { type: 'string' }, url: { type: 'string' }, token: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean' },
  },
});

if (a.help || !a.cluster) {
  console.log('usage: npm run bench -- --cluster <id> --workload ycsb-a|ycsb-b|ycsb-c|ycsb-d|ycsb-f|getset|analytic [--records N] [--duration S | --operations N] [--warmup S] [--connections N] [--pipeline N] [--rate OPS] [--workers N] [--seed N] [--value-size B] [--ratio S:G] [--no-load] [--runs N] [--url URL] [--token T] [--json]');
  process.exit(a.help ? 0 : 2);
}

const url = (a.url ?? 'http://127.0.0.1:8080').replace(/\/$/, '');
const tokenFile = '.strata/admin-token';
const token = a.token ?? process.env.STRATA_TOKEN ?? (existsSync(tokenFile) ? readFileSync(tokenFile, 'utf8').trim() : undefined);
if (!token) {
  console.error('no API token: pass --token, set STRATA_TOKEN, or run from the directory holding .strata/admin-token');
  process.exit(2);
}
const num = (s: string | undefined) => (s === undefined ? undefined : Number(s));
const request: BenchmarkRequestInput = {
  workload: a.workload as BenchmarkRequestInput['workload'],
  recordCount: num(a.records),
  durationSec: num(a.duration),
  operationCount: num(a.operations),
  warmupSec: num(a.warmup),
  connections: num(a.connections),
  pipeline: num(a.pipeline),
  targetOpsPerSec: num(a.rate),
  workers: num(a.workers),
  seed: num(a.seed),
  valueSize: num(a['value-size']),
  ratio: a.ratio,
  load: a['no-load'] ? false : undefined,
  runs: num(a.runs),
};
for (const k of Object.keys(request) as (keyof BenchmarkRequestInput)[]) if (request[k] === undefined) delete request[k];

/** The client generated from openapi.json. */
const api = createStrataClient({ baseUrl: url, token });

/** The data of a call, or an Error naming the status, the problem's code and its fields. */
async function ok<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) {
    const p = (error ?? {}) as Partial<Problem>;
    const fields = p.errors?.map((e) => `${e.field}: ${e.message}`).join('; ');
    throw new Error(`${response.status} ${p.code}: ${p.detail ?? p.title}${fields ? ` (${fields})` : ''}`);
  }
  return data as T;
}

function bar(e: BenchmarkProgressEvent): void {
  if (!process.stderr.isTTY) return;
  const width = 30;
  const filled = Math.round(e.progress * width);
  const pt = e.point ? `  ${e.point.ops.toLocaleString('en')} ops/s p99 ${(e.point.p99 / 1000).toFixed(2)} ms` : '';
  process.stderr.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(Math.round(e.progress * 100)).padStart(3)}% ${e.state.padEnd(9)} ${(e.detail ?? '').slice(0, 50).padEnd(50)}${pt}`);
}

async function follow(id: string): Promise<void> {
  const res = await fetch(`${url}/v1/benchmarks/${id}/stream`, { headers: { authorization: `Bearer ${token}` } });
  await readSse(res, (event, data) => {
    if (event === 'end') return true;
    if (data) bar(JSON.parse(data) as BenchmarkProgressEvent);
  });
}

const us = (v: number) => (v < 1000 ? `${v} us` : `${(v / 1000).toFixed(2)} ms`);

async function main(): Promise<void> {
  // openapi.json shows BenchmarkRequest as parsed (fields with defaults required); the server fills them in.
  const body = request as StrataComponents['schemas']['BenchmarkRequest'];
  const started = await ok(api.POST('/v1/clusters/{id}/benchmarks', { params: { path: { id: a.cluster! } }, body }));
  console.error(`benchmark ${started.id} (${started.workload}) started`);
  const byId = { params: { path: { id: started.id } } };
  process.on('SIGINT', () => void ok(api.POST('/v1/benchmarks/{id}/cancel', byId)).finally(() => process.exit(130)));
  await follow(started.id);
  if (process.stderr.isTTY) process.stderr.write('\n');
  let b = await ok(api.GET('/v1/benchmarks/{id}', byId));
  for (let i = 0; i < 20 && ['pending', 'loading', 'warmup', 'running'].includes(b.state); i++) {
    await new Promise((r) => setTimeout(r, 500));
    b = await ok(api.GET('/v1/benchmarks/{id}', byId));
  }
  if (a.json) {
    console.log(JSON.stringify(b, null, 2));
    return;
  }
  if (!b.result) {
    console.log(`benchmark ${b.state}: ${b.error?.message ?? ''}`);
    process.exitCode = 1;
    return;
  }
  const r = b.result;
  console.log(`\n${b.workload}  ${r.environment.mode}  seed ${r.environment.seed}  ${b.request.connections} connections, pipeline ${b.request.pipeline}`);
  if (r.analytic) {
    console.log(`analytic: ${r.analytic.records.toLocaleString('en')} records, ${r.analytic.sentences.toLocaleString('en')} sentences, mean ${r.analytic.meanMs} ms (${r.analytic.runsMs.join(', ')}), ${r.analytic.recordsPerSec.toLocaleString('en')} records/s, longest block ${r.analytic.longestBlockMs} ms`);
  } else {
    console.log(`throughput: ${r.opsPerSec.toLocaleString('en')} ops/s (${r.totalOps.toLocaleString('en')} ops in ${r.steadySec} s)`);
    console.log('op        count      p50        p95        p99        p99.9      errors');
    for (const o of r.ops) console.log(`${o.op.padEnd(9)} ${String(o.count).padEnd(10)} ${us(o.service.p50).padEnd(10)} ${us(o.service.p95).padEnd(10)} ${us(o.service.p99).padEnd(10)} ${us(o.service.p999).padEnd(10)} ${o.errors + o.misses}`);
    for (const s of r.shards) console.log(`shard ${s.endpoint}: client ${s.clientOps.toLocaleString('en')} / server ${s.serverOps?.toLocaleString('en') ?? '?'} commands`);
  }
  console.log(`client: ${r.workers.map((w) => `${w.host} ${w.threads} thread(s) busiest ${Math.round(w.cpu * 100)}%`).join(', ')}`);
  console.log(r.validity.valid ? 'verdict: valid' : `verdict: INVALID\n${r.validity.reasons.map((x) => `  - ${x.gate}: ${x.message}`).join('\n')}`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
