/**
 * Clients of a chaos run: each appends unique integers to lists spread over
 * every slot, talking to the primary that owns the key's slot on a direct
 * connection (as a careful application does; each client its own router and
 * connections), half of them acknowledging a write only once `WAIT 1` on
 * that same connection said a replica has it.
 * Every operation is recorded as ok, failed (refused: not applied) or
 * unknown (a timeout or lost connection: maybe applied).
 */
import { Redis } from 'ioredis';
import { keySlot } from '@strata/engine';
import type { AppendOp } from './history';

export interface Login { username: string; password: string }

/** Errors Redis answers without applying the write. */
const REFUSALS = ['MOVED', 'ASK', 'CLUSTERDOWN', 'NOREPLICAS', 'READONLY', 'TRYAGAIN', 'LOADING', 'MASTERDOWN', 'NOPERM', 'OOM'];

/** A slot map refreshed from any reachable member, and one connection per primary. */
export class SlotRouter {
  private owners: string[] = new Array(16384);
  private readonly conns = new Map<string, Redis>();
  private known: Set<string>;

  constructor(seeds: readonly string[], private readonly login: Login) {
    this.known = new Set(seeds);
  }

  conn(address: string): Redis {
    let c = this.conns.get(address);
    if (!c) {
      const [host, port] = address.split(':');
      c = new Redis({ host, port: Number(port), ...this.login, lazyConnect: false, connectTimeout: 1000, commandTimeout: 1000, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => 200 });
      c.on('error', () => {});
      this.conns.set(address, c);
    }
    return c;
  }

  ownerOf(key: string): string | undefined {
    return this.owners[keySlot(key)];
  }

  moved(key: string, address: string): void {
    this.owners[keySlot(key)] = address;
    this.known.add(address);
  }

  async refresh(): Promise<void> {
    for (const address of this.known) {
      try {
        const reply = (await this.conn(address).call('CLUSTER', 'SLOTS')) as [number, number, [string, number, ...unknown[]], ...unknown[]][];
        const next: string[] = new Array(16384);
        for (const [start, end, primary, ...replicas] of reply) {
          const owner = `${primary[0]}:${primary[1]}`;
          this.known.add(owner);
          for (const r of replicas as [string, number][]) this.known.add(`${r[0]}:${r[1]}`);
          for (let s = start; s <= end; s++) next[s] = owner;
        }
        this.owners = next;
        return;
      } catch {
        // try the next member
      }
    }
  }

  close(): void {
    for (const c of this.conns.values()) c.disconnect();
  }
}

const errorWord = (err: unknown) => {
  const m = (err as Error).message ?? String(err);
  if (/timed out|timeout/i.test(m)) return 'timeout';
  if (/closed|ECONNRESET|EPIPE|ECONNREFUSED|EHOSTUNREACH|not connected|Stream isn't writeable|offline queue/i.test(m)) return 'connection';
  return m.split(' ')[0]!;
};

/**
 * One client's loop: RPUSH its next value to a key, then (kind `wait`) WAIT 1 on the same connection. Each
 * finished operation goes to `record`, timed in ms since `t0` (a wall-clock time: a client in another process
 * on this machine shares the clock).
 */
export async function appendLoop(o: {
  router: SlotRouter; client: number; kind: 'plain' | 'wait'; keys: readonly string[]; t0: number; until: () => boolean; record: (op: AppendOp) => void;
}): Promise<void> {
  for (let seq = 1; !o.until(); seq++) {
    const key = o.keys[(seq * 7 + o.client) % o.keys.length]!;
    const value = o.client * 10_000_000 + seq;
    const start = Date.now() - o.t0;
    let address = o.router.ownerOf(key);
    let status: AppendOp['status'] = 'unknown';
    let error: string | undefined;
    for (let attempt = 0; attempt < 2; attempt++) {
      if (!address) { status = 'failed'; error = 'no-owner'; break; }
      const c = o.router.conn(address);
      try {
        await c.rpush(key, String(value));
        if (o.kind === 'wait') {
          const n = Number(await c.call('WAIT', '1', '500'));
          if (n < 1) { status = 'unknown'; error = 'wait-0'; break; }
        }
        status = 'ok';
        error = undefined;
        break;
      } catch (err) {
        const word = errorWord(err);
        error = word;
        const moved = /^(MOVED|ASK) \d+ (\S+)/.exec((err as Error).message ?? '');
        if (moved && word === 'MOVED') { o.router.moved(key, moved[2]!); address = moved[2]; continue; }
        // Refused before applying: failed. Anything else (timeout, dropped connection): it may have happened.
        status = REFUSALS.includes(word) ? 'failed' : 'unknown';
        break;
      }
    }
    o.record({ client: o.client, key, value, kind: o.kind, status, start, end: Date.now() - o.t0, ...(error ? { error } : {}) });
    if (status !== 'ok') await new Promise((r) => setTimeout(r, 20));
  }
}
