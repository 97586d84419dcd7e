/** Parsers for INFO sections used by the metrics sampler (pure code). */

/** `key:value` lines of INFO (any sections) into a map; section headers and blanks skipped. */
export function parseInfoFields(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split('\n')) {
    const l = line.trim();
    if (!l || l.startsWith('#')) continue;
    const colon = l.indexOf(':');
    if (colon > 0) out.set(l.slice(0, colon), l.slice(colon + 1));
  }
  return out;
}

/** `a=1,b=2` (commandstats, keyspace and slave lines) into a map. */
export function parseKv(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of text.split(',')) {
    const eq = part.indexOf('=');
    if (eq > 0) out.set(part.slice(0, eq), part.slice(eq + 1));
  }
  return out;
}

export interface CommandStat {
  calls: number;
  usec: number;
}

/** `cmdstat_<name>:calls=…,usec=…` lines into per-command totals (names lower-case, `a|b` for subcommands). */
export function parseCommandStats(fields: Map<string, string>): Map<string, CommandStat> {
  const out = new Map<string, CommandStat>();
  for (const [key, value] of fields) {
    if (!key.startsWith('cmdstat_')) continue;
    const kv = parseKv(value);
    out.set(key.slice('cmdstat_'.length).toLowerCase(), { calls: Number(kv.get('calls') ?? 0), usec: Number(kv.get('usec') ?? 0) });
  }
  return out;
}

/** Sum of `keys=` over every `dbN:` keyspace line. */
export function keyCount(fields: Map<string, string>): number {
  let n = 0;
  for (const [key, value] of fields) if (/^db\d+$/.test(key)) n += Number(parseKv(value).get('keys') ?? 0);
  return n;
}

export interface ReplicaOffset {
  host: string;
  port: number;
  lagBytes: number;
}

/** On a primary: each connected replica's offset lag behind master_repl_offset, in bytes. */
export function replicaOffsets(fields: Map<string, string>): ReplicaOffset[] {
  const master = Number(fields.get('master_repl_offset') ?? 0);
  const out: ReplicaOffset[] = [];
  for (const [key, value] of fields) {
    if (!/^slave\d+$/.test(key)) continue;
    const kv = parseKv(value);
    out.push({ host: kv.get('ip') ?? '', port: Number(kv.get('port') ?? 0), lagBytes: Math.max(0, master - Number(kv.get('offset') ?? 0)) });
  }
  return out;
}

export type CommandClass = 'read' | 'write' | 'other';

/**
 * Class of a command from its COMMAND INFO flags: `write` wins, then
 * `readonly`; everything else (PING, INFO, CLUSTER, AUTH …) is other.
 * Container commands' subcommands (`client|setname`) are always other.
 */
export function classFromFlags(flags: readonly string[]): CommandClass {
  if (flags.includes('write')) return 'write';
  if (flags.includes('readonly')) return 'read';
  return 'other';
}
