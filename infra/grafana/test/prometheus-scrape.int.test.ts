import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Cluster } from 'ioredis';
import { startStack, freePort, type Stack } from '@strata/local';
import { renderDashboards } from '../src/generate';
import { promqlOf } from '../src/dashboards';

// A real Prometheus (Debian's package) scrapes a running Strata under load;
// every PromQL query of every generated Grafana panel must return data.
const PREFIX = '127.0.31';
const PROM_ADDRESS = `${PREFIX}.100`;
const here = import.meta.dirname;

let dir: string;
let stack: Stack;
let prometheus: ChildProcess | undefined;
let promUrl: string;
let scrapeToken: string;
let stopLoad = false;
let loadDone: Promise<void> | undefined;
let client: Cluster | undefined;
const CLUSTER = 'graphed';

async function api<T>(method: string, p: string, body?: unknown): Promise<T> {
  const res = await fetch(stack.url + p, { method, headers: { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
  return (await res.json()) as T;
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const promQuery = async (query: string) => {
  const res = await fetch(`${promUrl}/api/v1/query?query=${encodeURIComponent(query)}`);
  return (await res.json()) as { status: string; error?: string; data: { result: { metric: Record<string, string>; value: [number, string] }[] } };
};

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'strata-prom-'));
  stack = await startStack({ endWithLauncher: true, dir, addressPrefix: PREFIX, port: 0, fastPostgres: true });
  scrapeToken = readFileSync(path.join(dir, 'metrics-token'), 'utf8').trim();
  const created = await api<{ cluster: { id: string } }>('POST', '/v1/clusters', { name: CLUSTER, shards: 2, replicasPerShard: 1 });
  await until('cluster ready', async () => ((await api<{ status: { phase: string } }>('GET', `/v1/clusters/${created.cluster.id}`)).status.phase === 'ready' ? true : undefined), 60_000);
  const conn = await api<{ uri: string }>('GET', `/v1/clusters/${created.cluster.id}/connection`);
  const u = new URL(conn.uri);
  client = new Cluster([{ host: u.hostname, port: Number(u.port) }], { redisOptions: { username: decodeURIComponent(u.username), password: decodeURIComponent(u.password) } });
  loadDone = (async () => {
    let n = 0;
    while (!stopLoad) {
      await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 4 === 0 ? client!.set(`k${(n + i) % 500}`, 'v') : client!.get(`k${(n + i) % 500}`))));
      n += 20;
      // ~1,000 commands a second: rate() needs traffic, not a saturated machine (the other suites share its 2 cores).
      await new Promise((r) => setTimeout(r, 20));
    }
  })();

  // The committed scrape config, pointed at this stack with its token.
  const tokenFile = path.join(dir, 'scrape-token');
  writeFileSync(tokenFile, scrapeToken, { mode: 0o600 });
  const config = readFileSync(path.join(here, '../prometheus/prometheus.yml'), 'utf8')
    .replace('/etc/prometheus/strata-metrics-token', tokenFile)
    .replace("'127.0.0.1:8080'", `'127.0.0.1:${stack.port}'`)
    .replace(/scrape_interval: 5s/, 'scrape_interval: 1s');
  const configFile = path.join(dir, 'prometheus.yml');
  writeFileSync(configFile, config);
  const check = spawnSync('promtool', ['check', 'config', configFile], { encoding: 'utf8' });
  expect(check.status, check.stdout + check.stderr).toBe(0);
  const port = await freePort(PROM_ADDRESS);
  promUrl = `http://${PROM_ADDRESS}:${port}`;
  prometheus = spawn('prometheus', [`--config.file=${configFile}`, `--storage.tsdb.path=${path.join(dir, 'tsdb')}`, `--web.listen-address=${PROM_ADDRESS}:${port}`], { stdio: 'ignore' });
  await until('Prometheus scraping Strata', async () => {
    const r = await promQuery('up{job="strata"}');
    return r.data.result[0]?.value[1] === '1' ? true : undefined;
  }, 30_000);
  // Enough scrapes under load for rate() over 10 s windows.
  await new Promise((r) => setTimeout(r, 12_000));
}, 180_000);

afterAll(async () => {
  stopLoad = true;
  await loadDone?.catch(() => {});
  client?.disconnect();
  if (prometheus?.pid) {
    prometheus.kill('SIGTERM');
    await new Promise((r) => prometheus!.once('exit', r));
  }
  await stack?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('Prometheus exposition and Grafana dashboards against a real Prometheus', () => {
  it('GET /metrics is clean under `promtool check metrics`', async () => {
    const text = await (await fetch(`${stack.url}/metrics`, { headers: { authorization: `Bearer ${scrapeToken}` } })).text();
    expect(text).toContain('strata_redis_command_latency_seconds_bucket');
    const r = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('Prometheus sees every series family with the cluster, shard, instance and role labels', async () => {
    const r = await promQuery(`strata_redis_commands_total{cluster="${CLUSTER}",class="read"}`);
    expect(r.data.result).toHaveLength(4);
    for (const s of r.data.result) {
      expect(s.metric).toMatchObject({ job: 'strata', cluster: CLUSTER });
      expect(s.metric.instance).toMatch(/^[0-9a-f-]{36}$/);
      expect(['primary', 'replica']).toContain(s.metric.role);
      expect(['0', '1']).toContain(s.metric.shard);
    }
    const values = await fetch(`${promUrl}/api/v1/label/cluster/values?match[]=strata_redis_up`);
    expect(((await values.json()) as { data: string[] }).data).toContain(CLUSTER);
  });

  it('every PromQL query of every generated Grafana panel returns data', async () => {
    const failures: string[] = [];
    let count = 0;
    for (const [file, text] of Object.entries(renderDashboards())) {
      for (const expr of promqlOf(JSON.parse(text))) {
        count++;
        const query = expr.replaceAll('$cluster', CLUSTER).replaceAll('$__rate_interval', '10s');
        const r = await promQuery(query);
        if (r.status !== 'success') failures.push(`${file}: ${expr}: ${r.error}`);
        else if (!r.data.result.length) failures.push(`${file}: ${expr}: no data`);
      }
    }
    expect(failures).toEqual([]);
    expect(count).toBeGreaterThan(20);
  });

  it('the server-side rate Prometheus computes matches the load (reads and writes > 0)', async () => {
    const r = await promQuery(`sum by (class) (rate(strata_redis_commands_total{cluster="${CLUSTER}",role="primary"}[10s]))`);
    const byClass = Object.fromEntries(r.data.result.map((s) => [s.metric.class, Number(s.value[1])]));
    expect(byClass.read).toBeGreaterThan(100);
    expect(byClass.write).toBeGreaterThan(30);
    expect(byClass.read! / byClass.write!).toBeGreaterThan(2);
    expect(byClass.read! / byClass.write!).toBeLessThan(4);
  });
});
