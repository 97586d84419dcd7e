/**
 * A client that reads and writes the whole time a topology changes: each
 * worker owns a slice of the keys and overwrites them one after another,
 * remembering the last acknowledged value of each; reads check keys exist.
 */
import { Redis, type Cluster } from 'ioredis';
import { pace } from './pace';
import { bulkSibling } from './workload';

export class LastValueLoad {
  /** Last acknowledged value per key index (undefined: the loaded value). */
  readonly acked = new Map<number, string>();
  /** The last write of a key after its last acknowledged one, when that write failed or (with waitReplicas) no replica confirmed it: either value is right. */
  readonly unsure = new Map<number, string>();
  writes = 0;
  reads = 0;
  errors = 0;
  readMisses = 0;
  readonly errorSamples: string[] = [];
  private stopped = false;
  private loops: Promise<void>[] = [];

  /**
   * `waitReplicas`: a write counts as acknowledged only once `WAIT n` says n
   * replicas have it (what an application does when a primary may crash:
   * Redis replicates asynchronously). `everyMs`: each worker's pace (a write
   * and a read at most that often).
   */
  constructor(private readonly client: Cluster, private readonly prefix: string, private readonly keys: number, private readonly workers = 8, private readonly waitReplicas = 0, private readonly everyMs = 5) {}

  start(): this {
    for (let w = 0; w < this.workers; w++) {
      this.loops.push((async () => {
        let seq = 0;
        for (let i = w; !this.stopped; i = (i + this.workers * 37) % this.keys) {
          const began = performance.now();
          const key = `${this.prefix}:${i}`;
          const value = `u${w}-${++seq}`;
          try {
            if (this.waitReplicas > 0) {
              const res = await this.client.pipeline().set(key, value).call('WAIT', String(this.waitReplicas), '1000').exec();
              const [setErr] = res?.[0] ?? [new Error('no reply')];
              if (setErr) throw setErr;
              // Not on a replica: it may or may not survive a crash, so either value is right from now on.
              if (Number(res?.[1]?.[1] ?? 0) < this.waitReplicas) this.unsure.set(i, value);
              else {
                this.acked.set(i, value);
                this.unsure.delete(i);
              }
            } else {
              await this.client.set(key, value);
              this.acked.set(i, value);
              this.unsure.delete(i);
            }
            this.writes++;
            const r = (i * 7919 + seq) % this.keys;
            const got = await this.client.get(`${this.prefix}:${r}`);
            this.reads++;
            if (got === null) this.readMisses++;
          } catch (err) {
            // A write that failed may still have been applied (the reply was lost, or WAIT failed after the SET).
            this.unsure.set(i, value);
            this.errors++;
            if (this.errorSamples.length < 5) this.errorSamples.push((err as Error).message);
            await new Promise((res) => setTimeout(res, 20));
          }
          await pace(began, this.everyMs);
        }
      })());
    }
    return this;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.loops);
  }

  /** Keys whose value is not their last acknowledged one (or the loaded `v<i>`). */
  async wrong(client: Cluster): Promise<string[]> {
    const bad: string[] = [];
    const bulk = bulkSibling(client);
    try {
      for (let start = 0; start < this.keys; start += 1000) {
        const idx = Array.from({ length: Math.min(1000, this.keys - start) }, (_, k) => start + k);
        const values = await Promise.all(idx.map((i) => bulk.get(`${this.prefix}:${i}`).catch(() => client.get(`${this.prefix}:${i}`))));
        values.forEach((v, k) => {
          const i = idx[k]!;
          if (v !== (this.acked.get(i) ?? `v${i}`) && v !== this.unsure.get(i)) bad.push(`${this.prefix}:${i}=${v} (want ${this.acked.get(i) ?? `v${i}`})`);
        });
      }
    } finally {
      bulk.disconnect();
    }
    return bad;
  }
}

/** Every primary's own view: slots it owns and any slot left importing/migrating. */
export async function slotReport(addresses: string[], auth: { username: string; password: string }): Promise<{ owned: number; open: string[]; assigned: number }> {
  let owned = 0;
  const open: string[] = [];
  let assigned = 0;
  for (const a of addresses) {
    const [host, port] = [a.slice(0, a.lastIndexOf(':')), Number(a.slice(a.lastIndexOf(':') + 1))];
    const c = new Redis({ host, port, ...auth, lazyConnect: true, maxRetriesPerRequest: 1 });
    try {
      await c.connect();
      const nodes = String(await c.call('CLUSTER', 'NODES'));
      const me = nodes.split('\n').find((l) => l.includes('myself'))!;
      for (const f of me.trim().split(' ').slice(8)) {
        if (f.startsWith('[')) open.push(`${a} ${f}`);
        else {
          const [s, e] = f.split('-').map(Number);
          owned += (e ?? s!) - s! + 1;
        }
      }
      const info = String(await c.call('CLUSTER', 'INFO'));
      assigned = Math.max(assigned, Number(/cluster_slots_assigned:(\d+)/.exec(info)?.[1] ?? 0));
    } finally {
      c.disconnect();
    }
  }
  return { owned, open, assigned };
}

/** Every instance's own CLUSTER NODES, for a failure message: who claims what, as each member sees it. */
export async function clusterViews(addresses: string[], auth: { username: string; password: string }): Promise<string> {
  const out: string[] = [];
  for (const a of addresses) {
    const c = new Redis({ host: a.slice(0, a.lastIndexOf(':')), port: Number(a.slice(a.lastIndexOf(':') + 1)), ...auth, lazyConnect: true, maxRetriesPerRequest: 1 });
    try {
      await c.connect();
      out.push(`--- ${a}\n${String(await c.call('CLUSTER', 'NODES')).trim()}`);
    } catch (err) {
      out.push(`--- ${a}: ${(err as Error).message}`);
    } finally {
      c.disconnect();
    }
  }
  return out.join('\n');
}

/** Polls `probe` every 50 ms until it returns something truthy (errors count as not yet). */
export async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe().catch(() => undefined);
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((res) => setTimeout(res, 50));
  }
}
