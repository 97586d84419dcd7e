/**
 * The contract as served: Schemathesis reads a real stack's /v1/openapi.json, sends generated
 * requests (boundary values, then a few random ones per operation) and checks every response
 * against the documented schema, server-sent events one by one (response_schema_conformance).
 *
 * Needs Schemathesis (`python3 -m schemathesis.cli`); scripts/bootstrap.mjs installs it for
 * `npm test`. Without it the test is skipped locally and fails when CI=true.
 *
 * Bounded (~20 s of fuzzing, one worker, fixed seed): stateful chains are off, streams are read for
 * one event or 2 s (a finished benchmark's to its end), and these operations are not called:
 * - POST /v1/clusters: provisions Redis clusters (slow; fills the stack's one node);
 * - PATCH /v1/clusters/{id}, POST /v1/clusters/{id}/shards/{index}/switchover: online topology
 *   changes of the cluster the other operations read; DELETE /v1/clusters/{id} would delete it;
 * - POST /v1/clusters/{id}/benchmarks: generated requests run load for up to an hour;
 * - /v1/agent/*: the agent protocol; a node credential in a fuzzer would report made-up status to
 *   the control plane, and with the admin token they only answer 401.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Benchmark, OperationList } from '@strata/api';
import type { Stack } from '@strata/local';
import { testStack } from './helpers/test-stack';
import { TestApi } from './helpers/api-client';

const MIN_VERSION = '4.32.5';
const INSTALL = `pip install 'schemathesis>=${MIN_VERSION},<5'`;
const SCRAPE_TOKEN = 'contract-scrape-token-0123456789';
// The fuzzing run takes 126-149 s in a clean-clone `npm test` on the 2-core machine, and over 300 s with a chaos run
// beside it (killed then, with no report): room for three times as slow a host.
const FUZZ_TIMEOUT_MS = 450_000;

/** The installed Schemathesis version, or why it cannot be used. */
function schemathesisVersion(): { version?: string; problem?: string } {
  const r = spawnSync('python3', ['-m', 'schemathesis.cli', '--version'], { encoding: 'utf8' });
  const version = /version (\d+\.\d+\.\d+)/.exec(r.stdout ?? '')?.[1];
  if (r.status !== 0 || !version) return { problem: `Schemathesis is not installed (python3 -m schemathesis.cli): ${INSTALL}` };
  if (version.localeCompare(MIN_VERSION, undefined, { numeric: true }) < 0) {
    return { version, problem: `Schemathesis ${version} is older than ${MIN_VERSION} (server-sent event validation): ${INSTALL}` };
  }
  return { version };
}

const found = schemathesisVersion();
const ci = process.env.CI === 'true';

/** One request of the HAR report, reduced to what the assertions read. */
interface Exchange { method: string; path: string; query: string; status: number; contentType: string; body: string }

function readHar(file: string): Exchange[] {
  const har = JSON.parse(readFileSync(file, 'utf8')) as {
    log: { entries: { request: { method: string; url: string }; response: { status: number; content: { mimeType?: string; text?: string } } }[] };
  };
  return har.log.entries.map((e) => {
    const url = new URL(e.request.url);
    return {
      method: e.request.method, path: url.pathname, query: url.search, status: e.response.status,
      contentType: e.response.content.mimeType ?? '', body: e.response.content.text ?? '',
    };
  });
}

/** The operations to leave out, and the ids the others use (so they reach real resources, not only 404s). */
function config(ids: { cluster: string; benchmark: string; operation: string; node: string }, token: string): string {
  const disabled = [
    'POST /v1/clusters', 'PATCH /v1/clusters/\\{id\\}', 'DELETE /v1/clusters/\\{id\\}',
    'POST /v1/clusters/\\{id\\}/shards/\\{index\\}/switchover', 'POST /v1/clusters/\\{id\\}/benchmarks', '\\w+ /v1/agent/.*',
    // Checks the storage at whatever endpoint the request names (seconds per unreachable address): covered by backups-s3.int.test.ts.
    'PUT /v1/backup-storage',
  ];
  return `
headers = { Authorization = "Bearer ${token}" }
# Streams never end by themselves: read the first event (the live stream's resync, the metrics
# stream's first sample) or 2 s. The finished benchmark's stream is read to its \`end\`.
request-timeout = 2
max-stream-events = 1

[[operations]]
include-name = 'GET /v1/benchmarks/{id}/stream'
max-stream-events = 100

[[operations]]
include-name-regex = '^(${disabled.join('|')})$'
enabled = false

[[operations]]
include-name-regex = '^GET /v1/clusters/\\{id\\}'
parameters = { id = "${ids.cluster}" }

[[operations]]
include-name-regex = '^(GET|POST) /v1/benchmarks/\\{id\\}'
parameters = { id = "${ids.benchmark}" }

[[operations]]
include-name-regex = '^GET /v1/operations/\\{id\\}$'
parameters = { id = "${ids.operation}" }

[[operations]]
include-name = 'GET /v1/nodes/{id}/metrics'
parameters = { id = "${ids.node}" }

# Slow-log reads and resets wait for a task on every node (up to 8 s), behind a key scan the fuzzing may have started.
[[operations]]
include-name-regex = '^(GET|POST) /v1/clusters/\\{id\\}/diagnostics/slowlog'
request-timeout = 10

[[operations]]
include-name = 'GET /metrics'
headers = { Authorization = "Bearer ${SCRAPE_TOKEN}" }
`;
}

describe.runIf(found.version || ci)('the contract as served (Schemathesis against a real stack)', () => {
  let stack: Stack;
  let api: TestApi;
  let cleanup: () => Promise<void>;
  let dir: string;
  let run: { code: number | null; output: string; exchanges: Exchange[]; report: { test_cases: { generated: number }; failures: unknown[]; errors: unknown[] } };

  beforeAll(async () => {
    if (found.problem) return;
    ({ stack, api, cleanup } = await testStack('127.0.90', { nodes: 1, extraEnv: { STRATA_METRICS_TOKEN: SCRAPE_TOKEN } }));
    const cluster = (await api.createCluster({ name: 'contract', shards: 1, replicasPerShard: 0 })).body.cluster.id;
    await api.waitForPhase(cluster, 'ready');
    // A finished benchmark: its stream sends its progress and `end` at once.
    const started = await api.call<Benchmark>('POST', `/v1/clusters/${cluster}/benchmarks`, {
      workload: 'getset', recordCount: 100, operationCount: 200, warmupSec: 0, connections: 1, load: false,
    });
    expect(started.status).toBe(202);
    await api.pollUntil(async () => {
      const b = (await api.call<Benchmark>('GET', `/v1/benchmarks/${started.body.id}`)).body;
      return ['succeeded', 'failed', 'cancelled'].includes(b.state) ? b : undefined;
    }, 30_000, () => 'the benchmark did not finish in 30 s');
    const operation = (await api.call<OperationList>('GET', `/v1/clusters/${cluster}/operations`)).body.items[0]!.id;
    const node = (await api.nodes()).body.items[0]!.id;

    dir = mkdtempSync(path.join(os.tmpdir(), 'strata-contract-'));
    writeFileSync(path.join(dir, 'schemathesis.toml'), config({ cluster, benchmark: started.body.id, operation, node }, stack.adminToken));
    // One worker: Schemathesis's worker threads share Python's lock (four took several times longer here than one) and
    // raced in CPython 3.11's ast module (a tool error, not the API's).
    const args = [
      '-m', 'schemathesis.cli', '--config-file', path.join(dir, 'schemathesis.toml'), '--no-color',
      'run', `${stack.url}/v1/openapi.json`, '--checks', 'response_schema_conformance',
      '--phases', 'coverage,fuzzing', '--max-examples', '5', '--seed', '1', '--workers', '1',
      '--report', 'har,json', '--report-har-path', path.join(dir, 'run.har'), '--report-json-path', path.join(dir, 'run.json'),
    ];
    const once = async () => {
      for (const f of ['run.json', 'run.har']) rmSync(path.join(dir, f), { force: true });
      const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
        execFile('python3', args, { cwd: dir, timeout: FUZZ_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
          resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, output: `${stdout}\n${stderr}` });
        });
      });
      // A run killed at FUZZ_TIMEOUT_MS leaves an empty report: the next test names the timeout (code null).
      const written = readdirSync(dir).includes('run.json') ? readFileSync(path.join(dir, 'run.json'), 'utf8') : '';
      const report = written.trim() ? JSON.parse(written) : { test_cases: { generated: 0 }, failures: [], errors: [] };
      // A killed run can also leave its HAR half written: its requests then count as unread, and the timeout is named.
      return { code, output, report, exchanges: code !== null && readdirSync(dir).includes('run.har') ? readHar(path.join(dir, 'run.har')) : [] };
    };
    const t0 = Date.now();
    run = await once();
    const report = run.report;
    console.log(`schemathesis ${found.version}: ${report.test_cases.generated} test cases, ${run.exchanges.length} requests in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }, 700_000);

  afterAll(async () => {
    await cleanup?.();
    if (dir && !process.env.STRATA_KEEP_TEST_DIRS) rmSync(dir, { recursive: true, force: true });
  });

  it('Schemathesis is installed (scripts/bootstrap.mjs installs it; required when CI=true)', () => {
    expect(found.problem).toBeUndefined();
  });

  it.skipIf(!!found.problem)('finds no response that violates the schema, in a bounded run', () => {
    expect(run.code, run.output).not.toBeNull(); // null: killed after FUZZ_TIMEOUT_MS
    expect(run.report.failures, run.output).toEqual([]);
    expect(run.report.errors, run.output).toEqual([]);
    expect(run.code, run.output).toBe(0);
    expect(run.report.test_cases.generated).toBeGreaterThan(300);
  });

  it.skipIf(!!found.problem)('read every server-sent stream and the signed-out session, so their schemas were checked', () => {
    const ok = (p: RegExp) => run.exchanges.filter((e) => e.method === 'GET' && p.test(e.path) && e.status === 200);
    for (const [stream, event] of [[/^\/v1\/events\/stream$/, 'resync'], [/^\/v1\/clusters\/[^/]+\/metrics\/stream$/, 'sample'], [/^\/v1\/benchmarks\/[^/]+\/stream$/, 'end']] as const) {
      const read = ok(stream);
      expect(read.length, `${stream}`).toBeGreaterThan(0);
      expect(read.every((e) => e.contentType.startsWith('text/event-stream'))).toBe(true);
      expect(read.some((e) => e.body.includes(`event: ${event}\ndata: {`)), `${stream}: an \`${event}\` event`).toBe(true);
    }
    const signedOut = ok(/^\/v1\/session$/).filter((e) => e.query.includes('optional=true'));
    expect(signedOut.map((e) => e.body)).toContain('null');
    const scraped = ok(/^\/metrics$/);
    expect(scraped.length).toBeGreaterThan(0);
    expect(scraped[0]!.body).toContain('# TYPE');
  });
});
