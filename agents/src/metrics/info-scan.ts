/**
 * The INFO fields the metrics sampler uses, read in one pass over the reply
 * (pure code). Every other line is skipped without being split or copied,
 * and a commandstats line identical to the previous reading's is not parsed
 * again: an idle command's line does not change, and most commands are idle
 * most of the time.
 */
import type { RawSnapshot } from '@strata/engine/metrics';

/** Sections INFO is asked for (`server` for run_id, the rest for the figures). */
export const INFO_SECTIONS = ['server', 'clients', 'memory', 'stats', 'replication', 'cpu', 'keyspace', 'commandstats'] as const;

/** The INFO part of an engine reading (the engine's RawSnapshot without time and latency), plus what the next scan reuses. */
export type ScannedInfo = Omit<RawSnapshot, 'atMs' | 'latency'> & {
  /** Each command's commandstats value as it was read, to skip parsing it when it did not change. */
  rawCommands: Map<string, string>;
};

const num = (text: string, from: number, to: number): number => {
  const n = Number(text.slice(from, to));
  return Number.isFinite(n) ? n : 0;
};

/** Is the line at `pos`, whose key is `keyLength` long, the field `key`? (Not a closure per line: this runs ~170 times a reading.) */
const is = (text: string, pos: number, keyLength: number, key: string): boolean => keyLength === key.length && text.startsWith(key, pos);

/** The value of `key=` in a `a=1,b=2` list, or ''. */
function kv(list: string, key: string): string {
  let start: number;
  if (list.startsWith(`${key}=`)) start = key.length + 1;
  else {
    const i = list.indexOf(`,${key}=`);
    if (i < 0) return '';
    start = i + key.length + 2;
  }
  const end = list.indexOf(',', start);
  return list.slice(start, end < 0 ? list.length : end);
}

/**
 * Reads an INFO reply (the sections of {@link INFO_SECTIONS}). `previous` is
 * the same instance's previous reading: a commandstats line that did not
 * change keeps its parsed figures (the same object).
 */
export function scanInfo(text: string, previous?: ScannedInfo): ScannedInfo {
  const out: ScannedInfo = {
    runId: '', role: 'primary', clients: 0, usedMemory: 0, maxMemory: 0, keys: 0, evicted: 0, expired: 0, hits: 0, misses: 0, netIn: 0, netOut: 0,
    cpuSeconds: 0, replicas: [], commands: new Map(), rawCommands: new Map(),
  };
  const slaves: { host: string; port: number; offset: number }[] = [];
  let masterOffset = 0;
  const n = text.length;
  let pos = 0;
  while (pos < n) {
    let end = text.indexOf('\n', pos);
    if (end < 0) end = n;
    const lineEnd = end > pos && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
    const colon = text.indexOf(':', pos);
    if (colon > pos && colon < lineEnd && text.charCodeAt(pos) !== 35 /* # */) {
      const keyLength = colon - pos;
      switch (text.charCodeAt(pos)) {
        case 99: // c
          if (text.startsWith('cmdstat_', pos)) {
            const name = text.slice(pos + 8, colon).toLowerCase();
            const raw = text.slice(colon + 1, lineEnd);
            const before = previous?.rawCommands.get(name) === raw ? previous.commands.get(name) : undefined;
            out.rawCommands.set(name, raw);
            out.commands.set(name, before ?? { calls: Number(kv(raw, 'calls')) || 0, usec: Number(kv(raw, 'usec')) || 0 });
          } else if (is(text, pos, keyLength, 'connected_clients')) out.clients = num(text, colon + 1, lineEnd);
          break;
        case 100: // d
          if (keyLength > 2 && text.charCodeAt(pos + 1) === 98 /* b */ && /^\d+$/.test(text.slice(pos + 2, colon))) {
            out.keys += Number(kv(text.slice(colon + 1, lineEnd), 'keys')) || 0;
          }
          break;
        case 101: // e
          if (is(text, pos, keyLength, 'evicted_keys')) out.evicted = num(text, colon + 1, lineEnd);
          else if (is(text, pos, keyLength, 'expired_keys')) out.expired = num(text, colon + 1, lineEnd);
          break;
        case 107: // k
          if (is(text, pos, keyLength, 'keyspace_hits')) out.hits = num(text, colon + 1, lineEnd);
          else if (is(text, pos, keyLength, 'keyspace_misses')) out.misses = num(text, colon + 1, lineEnd);
          break;
        case 109: // m
          if (is(text, pos, keyLength, 'maxmemory')) out.maxMemory = num(text, colon + 1, lineEnd);
          else if (is(text, pos, keyLength, 'master_repl_offset')) masterOffset = num(text, colon + 1, lineEnd);
          break;
        case 114: // r
          if (is(text, pos, keyLength, 'run_id')) out.runId = text.slice(colon + 1, lineEnd);
          else if (is(text, pos, keyLength, 'role')) out.role = text.startsWith('slave', colon + 1) ? 'replica' : 'primary';
          break;
        case 115: // s
          if (keyLength > 5 && text.startsWith('slave', pos) && /^\d+$/.test(text.slice(pos + 5, colon))) {
            const list = text.slice(colon + 1, lineEnd);
            slaves.push({ host: kv(list, 'ip'), port: Number(kv(list, 'port')) || 0, offset: Number(kv(list, 'offset')) || 0 });
          }
          break;
        case 116: // t
          if (is(text, pos, keyLength, 'total_net_input_bytes')) out.netIn = num(text, colon + 1, lineEnd);
          else if (is(text, pos, keyLength, 'total_net_output_bytes')) out.netOut = num(text, colon + 1, lineEnd);
          break;
        case 117: // u
          if (is(text, pos, keyLength, 'used_memory')) out.usedMemory = num(text, colon + 1, lineEnd);
          else if (is(text, pos, keyLength, 'used_cpu_sys') || is(text, pos, keyLength, 'used_cpu_user')) out.cpuSeconds += num(text, colon + 1, lineEnd);
          break;
      }
    }
    pos = end + 1;
  }
  // master_repl_offset comes after the replica lines.
  out.replicas = slaves.map((s) => ({ host: s.host, port: s.port, lagBytes: Math.max(0, masterOffset - s.offset) }));
  return out;
}
