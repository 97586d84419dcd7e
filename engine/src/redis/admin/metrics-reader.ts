/**
 * Reads one raw metrics snapshot from a running instance over a long-lived
 * admin connection: INFO (the sections the sampler needs, one command) and
 * LATENCY HISTOGRAM, pipelined. Command classes come from COMMAND INFO flags,
 * asked once per new command name and cached.
 */
import type { Redis } from 'ioredis';
import {
  classFromFlags, keyCount, parseCommandStats, parseInfoFields, parseLatencyHistogramReply,
  replicaOffsets, type CommandClass, type RawSnapshot,
} from '../metrics';

/** Commands one reading sends, as commandstats names them (taken out of the instance's "other" count). */
export const SAMPLER_COMMANDS: ReadonlyMap<string, number> = new Map([['info', 1], ['latency|histogram', 1]]);

const INFO_SECTIONS = ['server', 'clients', 'memory', 'stats', 'replication', 'cpu', 'keyspace', 'commandstats'];

export async function readSnapshot(client: Redis): Promise<RawSnapshot> {
  const replies = await client.pipeline().call('INFO', ...INFO_SECTIONS).call('LATENCY', 'HISTOGRAM').exec();
  if (!replies) throw new Error('no reply');
  for (const [err] of replies) if (err) throw err;
  const f = parseInfoFields(String(replies[0]![1]));
  const latency = new Map<string, number[]>();
  for (const [name, h] of parseLatencyHistogramReply(replies[1]![1])) latency.set(name, h.buckets);
  const num = (k: string) => Number(f.get(k) ?? 0) || 0;
  return {
    atMs: Date.now(),
    runId: f.get('run_id') ?? '',
    role: f.get('role') === 'slave' ? 'replica' : 'primary',
    commands: parseCommandStats(f),
    latency,
    clients: num('connected_clients'),
    usedMemory: num('used_memory'),
    maxMemory: num('maxmemory'),
    keys: keyCount(f),
    evicted: num('evicted_keys'),
    expired: num('expired_keys'),
    hits: num('keyspace_hits'),
    misses: num('keyspace_misses'),
    netIn: num('total_net_input_bytes'),
    netOut: num('total_net_output_bytes'),
    cpuSeconds: num('used_cpu_sys') + num('used_cpu_user'),
    replicas: replicaOffsets(f),
  };
}

/** Classifies command names by their COMMAND INFO flags; unknown names are asked for in one call. */
export class CommandClassifier {
  private readonly classes = new Map<string, CommandClass>();

  classOf = (name: string): CommandClass => this.classes.get(name) ?? 'other';

  /** Learns the classes of names not seen before (subcommands `a|b` are always "other"). */
  async learn(client: Redis, names: Iterable<string>): Promise<void> {
    const unknown = [...names].filter((n) => !this.classes.has(n));
    for (const n of unknown.filter((x) => x.includes('|'))) this.classes.set(n, 'other');
    const plain = unknown.filter((n) => !n.includes('|'));
    if (!plain.length) return;
    const reply = (await client.call('COMMAND', 'INFO', ...plain)) as unknown[];
    plain.forEach((name, i) => {
      const entry = reply[i];
      const flags = Array.isArray(entry) && Array.isArray(entry[2]) ? (entry[2] as unknown[]).map(String) : [];
      this.classes.set(name, classFromFlags(flags));
    });
  }
}
