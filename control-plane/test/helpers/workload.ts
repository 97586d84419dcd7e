/**
 * What a real application does to a cluster while faults happen: load keys
 * and make sure replicas have them (WAIT), and keep writing with
 * acknowledged-by-replica writes, remembering which ones were acknowledged.
 */
import { execFileSync } from 'node:child_process';
import { Cluster, Redis } from 'ioredis';
import { pace } from './pace';

// ioredis's cluster client sends ASKING without handling its promise (cluster/index.js, on an ASK redirect):
// when the node it was sent to dies with it in flight, it rejects unhandled. The command sent after it
// reports the failure to the caller, so the ASKING's own rejection is dropped here.
const asking = Redis.prototype.asking as (...args: unknown[]) => Promise<unknown>;
(Redis.prototype as unknown as { asking: typeof asking }).asking = function (this: Redis, ...args: unknown[]) {
  const p = asking.apply(this, args);
  p?.catch?.(() => {});
  return p;
};

export function appClient(uri: string, seeds?: string[]): Cluster {
  const u = new URL(uri);
  const startup = (seeds ?? [`${u.hostname}:${u.port}`]).map((s) => ({ host: s.slice(0, s.lastIndexOf(':')), port: Number(s.slice(s.lastIndexOf(':') + 1)) }));
  const c = new Cluster(startup, {
    // A command never waits forever: a stuck client fails the test instead of hanging it.
    redisOptions: { username: decodeURIComponent(u.username), password: decodeURIComponent(u.password), connectTimeout: 500, commandTimeout: 3000 },
    slotsRefreshTimeout: 500,
    retryDelayOnFailover: 20,
    retryDelayOnClusterDown: 50,
    retryDelayOnTryAgain: 20,
  });
  // Connection errors during a fault are expected; the commands report them.
  c.on('error', () => {});
  return c;
}

/**
 * A client of the same cluster, with the same options, that sends the
 * commands one tick issues as one write per node (ioredis's auto-pipelining):
 * a bulk load or check of thousands of keys then costs a few system calls per
 * batch instead of one per key, on the client and on every server. A command
 * of such a batch that meets a redirect (MOVED, ASK: its slot map was stale)
 * fails instead of following it, so callers send a failed one again through
 * the ordinary client. The caller disconnects it.
 */
export function bulkSibling(client: Cluster): Cluster {
  // The nodes it knows, or (not connected yet) the ones it was given.
  const known = client.nodes('all').map((n) => ({ host: n.options.host, port: n.options.port }));
  const seeds = known.length ? known : (client as unknown as { startupNodes: { host: string; port: number }[] }).startupNodes;
  const c = new Cluster(seeds, { ...client.options, enableAutoPipelining: true });
  c.on('error', () => {});
  return c;
}

/** Writes `count` keys `prefix:<i>` = `v<i>` and waits until every primary's replicas acknowledged them. */
export async function loadKeys(client: Cluster, prefix: string, count: number, replicas: number): Promise<void> {
  const bulk = bulkSibling(client);
  try {
    for (let start = 0; start < count; start += 1000) {
      const writes: Promise<unknown>[] = [];
      for (let i = start; i < Math.min(count, start + 1000); i++) writes.push(bulk.set(`${prefix}:${i}`, `v${i}`).catch(() => client.set(`${prefix}:${i}`, `v${i}`)));
      await Promise.all(writes);
    }
    // WAIT counts the writes of its own connection: it goes to every connection that wrote.
    if (replicas > 0) {
      for (const node of [...bulk.nodes('master'), ...client.nodes('master')]) {
        const acked = Number(await node.call('WAIT', String(replicas), '5000'));
        if (acked < replicas) throw new Error(`WAIT: only ${acked} of ${replicas} replicas acknowledged on ${node.options.host}:${node.options.port}`);
      }
    }
  } finally {
    bulk.disconnect();
  }
}

/** How many of `prefix:0..count-1` hold their loaded value. */
export async function countPresent(client: Cluster, prefix: string, count: number): Promise<number> {
  let present = 0;
  let firstError: Error | null = null;
  const bulk = bulkSibling(client);
  try {
    for (let start = 0; start < count; start += 1000) {
      const reads: Promise<string | null>[] = [];
      for (let i = start; i < Math.min(count, start + 1000); i++) reads.push(bulk.get(`${prefix}:${i}`).catch(() => client.get(`${prefix}:${i}`)).catch((err: Error) => { firstError ??= err; return null; }));
      (await Promise.all(reads)).forEach((v, k) => { if (v === `v${start + k}`) present++; });
    }
  } finally {
    bulk.disconnect();
  }
  // A read that failed says nothing about the key: the caller must not mistake it for a lost key.
  if (firstError) throw new Error(`reads failed: ${(firstError as Error).message}`);
  return present;
}

/**
 * Writes one key after another, each followed by WAIT for `replicas`
 * acknowledgements: a write counts as acknowledged only when a replica has it.
 * Records the longest gap between two acknowledged writes.
 */
export class DurableWriter {
  readonly acked: string[] = [];
  errors = 0;
  /** Writes sent to a node that no longer serves the key's slot, written again after the client refreshed its slot map. */
  redirects = 0;
  /** The first few errors, with when they happened (for a failed assertion's message). */
  readonly firstErrors: string[] = [];
  longestGapMs = 0;
  private stopped = false;
  private loop?: Promise<void>;

  /** `everyMs`: the writer's pace (one write at most that often). */
  constructor(private readonly client: Cluster, private readonly prefix: string, private readonly replicas: number, private readonly everyMs = 2) {}

  start(): this {
    this.loop = (async () => {
      let last = Date.now();
      for (let i = 0; !this.stopped; i++) {
        const began = performance.now();
        const key = `${this.prefix}:${i}`;
        try {
          const res = await this.client.pipeline().set(key, `w${i}`).call('WAIT', String(this.replicas), '1000').exec();
          const [setErr] = res?.[0] ?? [new Error('no reply')];
          const [, waited] = res?.[1] ?? [null, 0];
          if (!setErr && (this.replicas === 0 || Number(waited) >= this.replicas)) {
            this.acked.push(key);
            const now = Date.now();
            this.longestGapMs = Math.max(this.longestGapMs, now - last);
            last = now;
          } else if (setErr && /^(MOVED|ASK) /.test(setErr.message)) {
            // The slot is served elsewhere now (a failover or a switchover moved it). ioredis follows a
            // redirect by itself, but not inside a pipeline whose WAIT (no key) was answered: refresh the
            // slot map as a client would and write this key again. Not an error: nothing was refused.
            this.redirects++;
            i--;
            await new Promise<void>((resolve) => this.client.refreshSlotsCache(() => resolve()));
          } else if (setErr) this.noteError(setErr);
        } catch (err) {
          this.noteError(err);
          await new Promise((r) => setTimeout(r, 10));
        }
        await pace(began, this.everyMs);
      }
    })();
    return this;
  }

  /**
   * Stops after the write in flight. A cluster client whose every node went away (a temporary endpoint closed)
   * queues that write for good: after `graceMs` its client is disconnected, which fails it (never acknowledged,
   * so never counted).
   */
  async stop(graceMs = 5000): Promise<void> {
    this.stopped = true;
    if (await this.endsWithin(graceMs)) return;
    this.noteError(new Error(`writer still waiting for a reply ${graceMs} ms after stop: client disconnected`));
    this.client.disconnect();
    // A client with no node left may not even fail its queued write on disconnect: the loop is left behind then.
    await this.endsWithin(2000);
  }

  private async endsWithin(ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const ended = await Promise.race([(this.loop ?? Promise.resolve()).then(() => true), new Promise<boolean>((r) => (timer = setTimeout(() => r(false), ms)))]);
    clearTimeout(timer);
    return ended;
  }

  private noteError(err: unknown): void {
    this.errors++;
    if (this.firstErrors.length < 5) this.firstErrors.push(`${new Date().toISOString()} ${(err as Error)?.message ?? String(err)}`);
  }

  /** Acknowledged keys that no longer hold their value. */
  async lost(client: Cluster): Promise<string[]> {
    const missing: string[] = [];
    for (let start = 0; start < this.acked.length; start += 500) {
      const keys = this.acked.slice(start, start + 500);
      const values = await Promise.all(keys.map((k) => client.get(k).catch(() => null)));
      values.forEach((v, j) => { if (v !== `w${keys[j]!.split(':').pop()}`) missing.push(keys[j]!); });
    }
    return missing;
  }
}

/** The pid of the redis-server serving host:port (its process title names the address). */
export function enginePid(address: string): number {
  const out = execFileSync('pgrep', ['-f', `redis-server ${address}`], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
  if (out.length !== 1) throw new Error(`expected one redis-server on ${address}, found ${out.length}`);
  return Number(out[0]);
}

/** Like countPresent, but retries while reads fail (a long-lived client catching up with a new topology). */
export async function countPresentEventually(client: Cluster, prefix: string, count: number, timeoutMs = 15_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await countPresent(client, prefix, count);
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}
