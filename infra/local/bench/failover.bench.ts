/**
 * Failover benchmark: kill -9 of the primary a client is writing to, N times,
 * with Strata's fast failover on and off (Redis's own failure detection) in
 * the same run. Prints the distribution of the time without writes as the
 * client measured it (last acknowledged write before the kill to the first
 * after), Strata's own figure from the failover event, and any acknowledged
 * write that was lost. Asserts nothing.
 *
 *   npm run bench:failover            (KILLS=10 by default)
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Cluster, Redis } from 'ioredis';
import type { ClusterEvent, Connection, Topology } from '@strata/api';
import { startStack } from '../src/stack';

const KILLS = Number(process.env.KILLS ?? 10);
/** Between kills: the cluster heals, primaries move back, and Redis's vote ban (2 x node timeout) passes. */
const SETTLE_MS = Number(process.env.SETTLE_MS ?? 3000);
const STABLE_MS = Number(process.env.STABLE_MS ?? 4500);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface ModeResult { gaps: number[]; strata: number[]; acked: number; replicated: number; lostReplicated: number; lostPrimaryOnly: number; errors: number; slow: string[] }

/** A gap longer than this is listed with the errors the writer got meanwhile. */
const SLOW_GAP_MS = 1000;

async function api<T>(url: string, token: string, method: string, p: string, body?: unknown): Promise<T> {
  const res = await fetch(url + p, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
  return (await res.json()) as T;
}

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const v = await probe();
    if (v !== undefined) return v;
    await sleep(50);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * The measuring client: a minimal cluster-aware writer, so the figure is the
 * cluster's unavailability, not a client library's retry policy. It keeps the
 * slot owner of `{bench}`, writes `{bench}:<i>` one after another, and on any
 * error asks any seed for CLUSTER SLOTS again and retries after 2 ms. Each
 * write is then offered to WAIT 1 (100 ms): a write a replica acknowledged
 * must never be lost; one only the primary acknowledged may be, with
 * asynchronous replication, and is counted separately.
 */
class Writer {
  acked: { at: number; key: string; replicated: boolean }[] = [];
  errors = 0;
  /** When each error happened and what it said (its first words). */
  readonly errorLog: { at: number; what: string }[] = [];
  private stop = false;
  private done?: Promise<void>;
  private owner: string | null = null;
  private readonly conns = new Map<string, Redis>();
  constructor(private readonly seeds: string[], private readonly auth: { username: string; password: string }, private readonly slot: number) {}

  private conn(addr: string): Redis {
    let c = this.conns.get(addr);
    if (!c) {
      const [host, port] = addr.split(':');
      c = new Redis({ host, port: Number(port), ...this.auth, connectTimeout: 200, commandTimeout: 300, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => 20 });
      c.on('error', () => {});
      this.conns.set(addr, c);
    }
    return c;
  }

  private async refresh(): Promise<void> {
    for (const seed of [...this.seeds].sort(() => Math.random() - 0.5)) {
      try {
        const slots = (await this.conn(seed).call('CLUSTER', 'SLOTS')) as [number, number, [string, number]][];
        const r = slots.find(([a, b]) => a <= this.slot && this.slot <= b);
        if (r) { this.owner = `${r[2][0]}:${r[2][1]}`; return; }
      } catch { /* next seed */ }
    }
  }

  start(): void {
    this.done = (async () => {
      for (let i = 0; !this.stop; i++) {
        const key = `{bench}:${i}`;
        try {
          if (!this.owner) await this.refresh();
          if (!this.owner) throw new Error('no owner known');
          const c = this.conn(this.owner);
          await c.set(key, String(i));
          const at = performance.now();
          const replicas = Number(await c.call('WAIT', '1', '100').catch(() => 0));
          this.acked.push({ at, key, replicated: replicas >= 1 });
        } catch (err) {
          this.errors++;
          this.errorLog.push({ at: performance.now(), what: String((err as Error).message).split(/\s+/).slice(0, 3).join(' ').replace(/\d+\.\d+\.\d+\.\d+:\d+/g, 'host:port') });
          const moved = /^MOVED \d+ (\S+)/.exec((err as Error).message);
          this.owner = moved ? moved[1]! : null;
          await sleep(2);
        }
      }
    })();
  }
  async finish(): Promise<void> {
    this.stop = true;
    await this.done;
    for (const c of this.conns.values()) c.disconnect();
  }
  /**
   * The longest stretch without an acknowledged write in the few seconds
   * after `t` (a write in flight when the signal landed may still complete
   * just after it; the outage follows).
   */
  gapAfter(t: number, windowMs: number): number {
    return this.longestGap(t, windowMs).ms;
  }

  /** The longest gap after `t` (see gapAfter), with where it starts and ends. */
  longestGap(t: number, windowMs: number): { ms: number; from: number; to: number } {
    const from = this.acked.findLastIndex((a) => a.at <= t);
    if (from < 0) return { ms: NaN, from: t, to: t };
    let longest = { ms: 0, from: t, to: t };
    for (let i = from + 1; i < this.acked.length && this.acked[i - 1]!.at <= t + windowMs; i++) {
      const ms = this.acked[i]!.at - this.acked[i - 1]!.at;
      if (ms > longest.ms) longest = { ms, from: this.acked[i - 1]!.at, to: this.acked[i]!.at };
    }
    return longest;
  }

  /** The errors between two moments, by kind, most frequent first. */
  errorsBetween(from: number, to: number): string {
    const kinds = new Map<string, number>();
    for (const e of this.errorLog) if (e.at >= from && e.at <= to) kinds.set(e.what, (kinds.get(e.what) ?? 0) + 1);
    return [...kinds].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${n}x ${k}`).join(', ') || 'none';
  }
}

async function runMode(fast: boolean, prefix: string): Promise<ModeResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'strata-failover-bench-'));
  const stack = await startStack({ endWithLauncher: true,
    dir, addressPrefix: prefix, port: 0, nodes: 3, fastPostgres: true,
    // Redis alone: Strata never steps in (a long grace), it only restarts the old primary once Redis has promoted.
    extraEnv: { STRATA_FAST_FAILOVER: String(fast), STRATA_FAILOVER_GRACE_MS: '60000', STRATA_REBALANCE_AFTER_MS: '1000', STRATA_LOG_LEVEL: process.env.KEEP ? 'info' : 'warn' },
  });
  const { url, adminToken: token } = stack;
  const client: { c?: Cluster } = {};
  try {
    // Every acknowledged write stays (one new key each, ~14,000 a second into one shard): 64 MB filled up after ~30 kills,
    // and from then on the writer got OOM errors, not a failover. 512 MB holds 50 kills and more.
    const created = await api<{ cluster: { id: string } }>(url, token, 'POST', '/v1/clusters', { name: 'bench', shards: 3, replicasPerShard: 1, memoryMbPerShard: 512 });
    const id = created.cluster.id;
    const healthy = () => waitFor(async () => {
      const c = await api<{ status: { phase: string } }>(url, token, 'GET', `/v1/clusters/${id}`);
      const t = await api<Topology>(url, token, 'GET', `/v1/clusters/${id}/topology`);
      const all = t.shards.flatMap((s) => s.instances);
      const spread = t.shards.every((s) => s.instances.find((i) => i.role === 'primary')?.preferredRole === 'primary');
      return c.status.phase === 'ready' && spread && all.every((i) => i.health === 'healthy') ? t : undefined;
    }, 60_000, 'a healthy, spread cluster');
    await healthy();
    const conn = await api<Connection>(url, token, 'GET', `/v1/clusters/${id}/connection`);
    client.c = new Cluster(conn.seeds.map((s) => ({ host: s.split(':')[0]!, port: Number(s.split(':')[1]) })), {
      redisOptions: { username: conn.username, password: conn.password, connectTimeout: 300 },
      retryDelayOnFailover: 10, retryDelayOnClusterDown: 20, retryDelayOnTryAgain: 10, slotsRefreshTimeout: 300,
    });
    client.c.on('error', () => {});
    const slot = Number(await client.c.cluster('KEYSLOT', '{bench}'));
    const writer = new Writer(conn.seeds, { username: conn.username, password: conn.password }, slot);
    writer.start();
    await sleep(1000);
    const killedAt: number[] = [];
    for (let k = 0; k < KILLS; k++) {
      await healthy();
      // Stable for a moment after any switchover (as after a real incident),
      // and Redis's vote ban (2 x node timeout) has passed.
      await sleep(STABLE_MS);
      const t = await healthy();
      // The primary serving the writer's slot ({bench} hashes to one slot).
      const shard = t.shards.find((s) => s.slots.some((r) => r.start <= slot && slot <= r.end))!;
      const primary = shard.instances.find((i) => i.role === 'primary')!;
      const pid = Number(execFileSync('pgrep', ['-f', `redis-server ${primary.address}`], { encoding: 'utf8' }).trim());
      killedAt.push(performance.now());
      process.kill(pid, 'SIGKILL');
      await sleep(SETTLE_MS);
    }
    await healthy();
    await sleep(500);
    await writer.finish();
    const events = await api<{ items: ClusterEvent[] }>(url, token, 'GET', `/v1/clusters/${id}/events?limit=200`);
    const strata = events.items.filter((e): e is Extract<ClusterEvent, { type: 'failover' }> => e.type === 'failover' && e.cause !== 'switchover')
      .map((e) => e.writeUnavailableMs ?? NaN);
    // Every write a replica acknowledged must still be there. Checked with a
    // fresh client; a read that fails is retried, never counted as lost.
    const verify = new Cluster(conn.seeds.map((s) => ({ host: s.split(':')[0]!, port: Number(s.split(':')[1]) })), {
      redisOptions: { username: conn.username, password: conn.password },
    });
    verify.on('error', () => {});
    let lostReplicated = 0;
    let lostPrimaryOnly = 0;
    for (let i = 0; i < writer.acked.length; i += 500) {
      const batch = writer.acked.slice(i, i + 500);
      const values = await Promise.all(batch.map(async (a) => {
        for (let attempt = 0; ; attempt++) {
          try {
            return await verify.get(a.key);
          } catch (err) {
            if (attempt >= 20) throw err;
            await sleep(100);
          }
        }
      }));
      values.forEach((v, j) => {
        if (v === batch[j]!.key.split(':')[1]) return;
        if (batch[j]!.replicated) lostReplicated++;
        else lostPrimaryOnly++;
      });
    }
    verify.disconnect();
    return {
      gaps: killedAt.map((t) => writer.gapAfter(t, SETTLE_MS)), strata,
      slow: killedAt.flatMap((t, k) => {
        const g = writer.longestGap(t, SETTLE_MS);
        return g.ms > SLOW_GAP_MS ? [`kill ${k + 1}: ${g.ms.toFixed(0)} ms without writes, from ${(g.from - t).toFixed(0)} ms after the kill; errors meanwhile: ${writer.errorsBetween(g.from, g.to)}`] : [];
      }), acked: writer.acked.length, replicated: writer.acked.filter((a) => a.replicated).length,
      lostReplicated, lostPrimaryOnly, errors: writer.errors,
    };
  } finally {
    client.c?.disconnect();
    await stack.stop();
    if (process.env.KEEP) console.log(`kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

const pct = (xs: number[], p: number) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! : NaN;
};
const row = (name: string, xs: number[]) =>
  `${name.padEnd(38)} ${pct(xs, 50).toFixed(0).padStart(6)} ${Math.min(...xs).toFixed(0).padStart(6)} ${pct(xs, 90).toFixed(0).padStart(6)} ${pct(xs, 99).toFixed(0).padStart(6)} ${Math.max(...xs).toFixed(0).padStart(6)}   n=${xs.length}`;

const redisVersion = spawnSync('redis-server', ['--version'], { encoding: 'utf8' }).stdout.match(/v=(\S+)/)?.[1];
console.log(`kill -9 of the written-to primary, ${KILLS} times per mode, 3x1 cluster, durability none, ${os.cpus().length} cores, redis ${redisVersion}`);
const modes = (process.env.MODES ?? 'fast,redis').split(',');
const empty: ModeResult = { gaps: [], strata: [], acked: 0, replicated: 0, lostReplicated: 0, lostPrimaryOnly: 0, errors: 0, slow: [] };
const fast = modes.includes('fast') ? await runMode(true, '127.0.21') : empty;
const redis = modes.includes('redis') ? await runMode(false, '127.0.22') : empty;
console.log('time without acknowledged writes (ms)      median    min    p90    p99    max');
console.log(row('client, Strata fast failover', fast.gaps));
console.log(row("client, Redis's own detection", redis.gaps));
console.log(row('Strata event (detected -> ok), fast', fast.strata));
console.log(row('Strata event (detected -> ok), Redis', redis.strata));
console.log(`median ratio Redis alone / Strata: ${(pct(redis.gaps, 50) / pct(fast.gaps, 50)).toFixed(1)}x`);
for (const [name, r] of [['Strata fast failover', fast], ['Redis alone', redis]] as const) {
  for (const line of r.slow) console.log(`${name}, gap over ${SLOW_GAP_MS} ms: ${line}`);
  console.log(`${name}: ${r.acked} writes acknowledged by the primary (${r.replicated} also by a replica), ${r.errors} errors; lost: ${r.lostReplicated} replica-acknowledged, ${r.lostPrimaryOnly} primary-only`);
}
