/**
 * What an import's source is, asked over one plain RESP connection before
 * anything is stored: reachable, a Redis, the credentials accepted; its
 * version and, for a Redis Cluster, every primary with its slots (each
 * becomes one of the import's shards). Failures say which of these it was.
 */
import net from 'node:net';
import type { SlotRange } from '../domain';

export interface ProbeTarget {
  host: string;
  port: number;
  username?: string;
  password?: string;
  timeoutMs?: number;
}

export type ProbeFailure = 'unreachable' | 'not_redis' | 'auth';

export class ProbeError extends Error {
  constructor(readonly reason: ProbeFailure, message: string) {
    super(message);
  }
}

export interface ProbedSource {
  version: string;
  /** One per primary: a standalone server is one shard owning every slot. */
  shards: { host: string; port: number; slots: SlotRange[] }[];
  usedMemoryBytes: number;
  /** Keys per database holding any (INFO keyspace of the server reached; a cluster node has database 0 only). */
  databases: Map<number, number>;
}

const command = (...args: string[]) => Buffer.from(`*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`);

/** Reads simple RESP replies (+, -, :, $) one at a time. */
class RespReader {
  private buf = Buffer.alloc(0);
  private waiting: (() => void) | null = null;
  private error: Error | null = null;

  constructor(private readonly socket: net.Socket) {
    socket.on('data', (c: Buffer) => { this.buf = Buffer.concat([this.buf, c]); this.waiting?.(); });
    socket.on('error', (err) => { this.error = err; this.waiting?.(); });
    socket.on('close', () => { this.error ??= new Error('connection closed'); this.waiting?.(); });
  }

  async reply(): Promise<{ ok: true; value: string } | { ok: false; value: string }> {
    for (;;) {
      const r = this.parse();
      if (r) return r;
      if (this.error) throw this.error;
      await new Promise<void>((resolve) => { this.waiting = resolve; });
      this.waiting = null;
    }
  }

  private parse(): { ok: boolean; value: string } | null {
    if (!this.buf.length) return null;
    const type = String.fromCharCode(this.buf[0]!);
    if (!'+-:$'.includes(type)) throw new ProbeError('not_redis', `the server did not answer in the Redis protocol (it sent ${JSON.stringify(this.buf.subarray(0, 20).toString('latin1'))})`);
    const eol = this.buf.indexOf('\r\n');
    if (eol < 0) return null;
    const head = this.buf.toString('utf8', 1, eol);
    if (type !== '$') {
      this.buf = this.buf.subarray(eol + 2);
      return { ok: type !== '-', value: head };
    }
    const len = Number(head);
    if (len < 0) { this.buf = this.buf.subarray(eol + 2); return { ok: true, value: '' }; }
    if (this.buf.length < eol + 2 + len + 2) return null;
    const value = this.buf.toString('utf8', eol + 2, eol + 2 + len);
    this.buf = this.buf.subarray(eol + 2 + len + 2);
    return { ok: true, value };
  }
}

const field = (info: string, name: string) => new RegExp(`^${name}:(.*)$`, 'm').exec(info)?.[1]?.trim();

export async function probeRedis(t: ProbeTarget): Promise<ProbedSource> {
  const timeoutMs = t.timeoutMs ?? 5000;
  const socket = net.connect({ host: t.host, port: t.port });
  const where = `${t.host}:${t.port}`;
  const timer = setTimeout(() => socket.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', (err) => reject(new ProbeError('unreachable', `${where} cannot be reached: ${err.message}`)));
    });
    const rd = new RespReader(socket);
    const ask = async (...args: string[]) => {
      socket.write(command(...args));
      try {
        return await rd.reply();
      } catch (err) {
        if (err instanceof ProbeError) throw err;
        throw new ProbeError('not_redis', `${where} did not answer ${args[0]} in the Redis protocol: ${(err as Error).message}`);
      }
    };
    if (t.password) {
      const auth = t.username ? await ask('AUTH', t.username, t.password) : await ask('AUTH', t.password);
      if (!auth.ok) throw new ProbeError('auth', `${where} refused the credentials: ${auth.value}`);
    }
    const info = await ask('INFO');
    if (!info.ok) {
      if (/NOAUTH|NOPERM|WRONGPASS/.test(info.value)) throw new ProbeError('auth', `${where} needs credentials that allow INFO and SYNC: ${info.value}`);
      throw new ProbeError('not_redis', `${where} refused INFO: ${info.value}`);
    }
    const version = field(info.value, 'redis_version');
    if (!version) throw new ProbeError('not_redis', `${where} answered INFO without a redis_version`);
    const usedMemoryBytes = Number(field(info.value, 'used_memory') ?? 0);
    const databases = new Map([...info.value.matchAll(/^db(\d+):keys=(\d+)/gm)].map((m) => [Number(m[1]), Number(m[2])]));
    if (field(info.value, 'cluster_enabled') !== '1') return { version, usedMemoryBytes, databases, shards: [{ host: t.host, port: t.port, slots: [{ start: 0, end: 16383 }] }] };
    const nodes = await ask('CLUSTER', 'NODES');
    if (!nodes.ok) throw new ProbeError(/NOPERM/.test(nodes.value) ? 'auth' : 'not_redis', `${where} refused CLUSTER NODES: ${nodes.value}`);
    const shards = nodes.value.split('\n').flatMap((line) => {
      const f = line.trim().split(' ');
      if (f.length < 8 || !f[2]!.split(',').includes('master') || f[2]!.includes('fail')) return [];
      const hostPort = f[1]!.split(',')[0]!.split('@')[0]!;
      const colon = hostPort.lastIndexOf(':');
      const slots = f.slice(8).filter((s) => !s.startsWith('[')).map((s) => {
        const [a, b] = s.split('-');
        return { start: Number(a), end: Number(b ?? a) };
      });
      // A primary's address as it announces itself; an empty host means the one we reached.
      return slots.length ? [{ host: hostPort.slice(0, colon) || t.host, port: Number(hostPort.slice(colon + 1)), slots }] : [];
    });
    if (!shards.length) throw new ProbeError('not_redis', `${where} is a Redis Cluster node, but no primary owns slots`);
    return { version, usedMemoryBytes, databases, shards: shards.sort((a, b) => a.slots[0]!.start - b.slots[0]!.start) };
  } finally {
    clearTimeout(timer);
    socket.destroy();
  }
}
