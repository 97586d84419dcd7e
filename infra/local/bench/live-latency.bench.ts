/**
 * Live-state benchmark (issue 12): how long after a change a console learns
 * of it, through the event stream (GET /v1/events/stream) and, in the same
 * run, through polling GET /v1/clusters/{id} every 1 s (the console's fast
 * poll) and every 4 s (its poll of a settled cluster), each poller started at
 * a random phase. Two changes: a delete accepted by the API (-> Deleting) and
 * kill -9 of a primary (-> Degraded). Prints median and max; asserts nothing.
 *
 *   npm run bench:live            (ROUNDS=5 by default)
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Cluster, ClusterWithOperation, LiveEvent, Topology } from '@strata/api';
import { startStack } from '../src/stack';

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const dir = mkdtempSync(path.join(os.tmpdir(), 'strata-bench-live-'));
const stack = await startStack({ endWithLauncher: true, dir, nodes: 3, port: 0, fastPostgres: true, addressPrefix: process.env.STRATA_BENCH_PREFIX ?? '127.0.72' });
const headers = { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' };
const call = async <T>(method: string, p: string, body?: unknown): Promise<T> =>
  (await (await fetch(stack.url + p, { method, headers, body: body ? JSON.stringify(body) : undefined })).json()) as T;

/** One stream for the whole run; resolves waiters on the first matching event. */
const waiters: { match: (e: LiveEvent) => boolean; resolve: (at: number) => void }[] = [];
const abort = new AbortController();
const stream = await fetch(`${stack.url}/v1/events/stream`, { headers, signal: abort.signal });
void (async () => {
  let buf = '';
  const dec = new TextDecoder();
  try {
    for await (const chunk of stream.body as unknown as AsyncIterable<Uint8Array>) {
      buf += dec.decode(chunk, { stream: true });
      let i: number;
      while ((i = buf.indexOf('\n\n')) !== -1) {
        const data = buf.slice(0, i).split('\n').find((l) => l.startsWith('data: '));
        buf = buf.slice(i + 2);
        if (!data) continue;
        const e = JSON.parse(data.slice(6)) as LiveEvent;
        const now = performance.now();
        for (const w of waiters.splice(0).filter((w) => (w.match(e) ? (w.resolve(now), false) : true))) waiters.push(w);
      }
    }
  } catch { /* aborted */ }
})();
const viaStream = (id: string, phase: Cluster['status']['phase']) =>
  new Promise<number>((resolve) => waiters.push({ match: (e) => e.type === 'cluster' && e.cluster.id === id && e.cluster.status.phase === phase, resolve }));

/**
 * A poller like the console's: GET every `everyMs`, first poll at a random
 * phase. NaN when it never saw the phase (the cluster moved past it, e.g. was
 * gone, between two polls).
 */
function viaPolling(id: string, phase: Cluster['status']['phase'], everyMs: number, past: (c: Cluster | null) => boolean): Promise<number> {
  return new Promise((resolve) => {
    const poll = async () => {
      const res = await fetch(`${stack.url}/v1/clusters/${id}`, { headers });
      const c = res.status === 404 ? null : ((await res.json()) as Cluster);
      if (c?.status.phase === phase) return resolve(performance.now());
      if (past(c)) return resolve(Number.NaN);
      setTimeout(() => void poll(), everyMs);
    };
    setTimeout(() => void poll(), Math.random() * everyMs);
  });
}

async function ready(name: string, spec: object): Promise<string> {
  const r = await call<ClusterWithOperation>('POST', '/v1/clusters', { name, memoryMbPerShard: 32, ...spec });
  for (;;) {
    const c = await call<Cluster>('GET', `/v1/clusters/${r.cluster.id}`);
    if (c.status.phase === 'ready') return c.id;
    await sleep(200);
  }
}

const results: Record<string, number[]> = {};
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  abort.abort();
  await stack.stop();
  rmSync(dir, { recursive: true, force: true });
};
process.on('SIGINT', () => void stop().then(() => process.exit(130)));
process.on('SIGTERM', () => void stop().then(() => process.exit(143)));
const add = (k: string, v: number) => (results[k] ??= []).push(v);

async function measure(label: string, id: string, phase: Cluster['status']['phase'], act: () => Promise<void>, past: (c: Cluster | null) => boolean): Promise<void> {
  let acted = false;
  const after = (c: Cluster | null) => acted && past(c);
  const s = viaStream(id, phase);
  const p1 = viaPolling(id, phase, 1000, after);
  const p4 = viaPolling(id, phase, 4000, after);
  await sleep(4100); // every poller has polled once before the change
  const t0 = performance.now();
  acted = true;
  await act();
  const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${label}: not seen within 60 s`)), 60_000).unref());
  const [a, b, c] = await Promise.race([Promise.all([s, p1, p4]), timeout]);
  add(`${label}: event stream`, a - t0);
  add(`${label}: polling every 1 s`, b - t0);
  add(`${label}: polling every 4 s`, c - t0);
}

try {
  for (let i = 0; i < ROUNDS; i++) {
    const id = await ready(`del-${i}`, { shards: 1, replicasPerShard: 0 });
    // From the API accepting the delete (202) to each client seeing Deleting.
    await measure('delete -> Deleting', id, 'deleting', async () => void (await call('DELETE', `/v1/clusters/${id}`)), (c) => c === null);
  }
  const killId = await ready('kills', { shards: 2, replicasPerShard: 1 });
  for (let i = 0; i < ROUNDS; i++) {
    const topology = await call<Topology>('GET', `/v1/clusters/${killId}/topology`);
    const victim = topology.shards[i % 2]!.instances.find((x) => x.role === 'primary')!;
    const pid = Number(execFileSync('pgrep', ['-f', `redis-server ${victim.address}`], { encoding: 'utf8' }).trim());
    // The 4 s poller may only see it ready again: the degraded window was shorter than its period.
    const start = Date.now();
    await measure('kill -9 primary -> Degraded', killId, 'degraded', async () => void process.kill(pid, 'SIGKILL'), (c) => Date.now() - start > 6000 && c?.status.phase === 'ready');
    for (;;) {
      if ((await call<Cluster>('GET', `/v1/clusters/${killId}`)).status.phase === 'ready') break;
      await sleep(200);
    }
    await sleep(5000); // primaries moved back, Redis's vote ban passed
  }
  const q = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
  console.log(`\nlive-state latency, ${ROUNDS} rounds each (ms from the change to the client knowing it)`);
  for (const [k, all] of Object.entries(results)) {
    const xs = all.filter((x) => !Number.isNaN(x));
    const missed = all.length - xs.length;
    const stats = xs.length ? `median ${q(xs, 0.5).toFixed(0).padStart(5)}   max ${Math.max(...xs).toFixed(0).padStart(5)}` : 'never seen'.padEnd(25);
    console.log(`  ${k.padEnd(46)} ${stats}${missed ? `   missed ${missed} of ${all.length}` : ''}`);
  }
} finally {
  await stop();
}
