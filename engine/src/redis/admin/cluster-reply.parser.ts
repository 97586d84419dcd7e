/**
 * Pure parsers for the replies formCluster and observeInstance read:
 * CLUSTER NODES, CLUSTER SLOTS and INFO-style "key:value" text.
 */
import type { SlotRange } from '../../domain';
import { SLOT_COUNT } from '../slots.planner';

export interface ClusterNodeEntry {
  id: string;
  host: string;
  port: number;
  flags: string[];
  myself: boolean;
  role: 'primary' | 'replica' | 'unknown';
  /** For a replica: the id of its primary. */
  primaryId: string | null;
  configEpoch: number;
  linkState: string;
  slots: SlotRange[];
}

/** Parses CLUSTER NODES: `<id> <ip:port@cport[,hostname]> <flags> <primary> <ping> <pong> <epoch> <link> <slot>...`. */
export function parseClusterNodes(text: string): ClusterNodeEntry[] {
  const entries: ClusterNodeEntry[] = [];
  for (const line of text.split('\n')) {
    const fields = line.trim().split(' ');
    if (fields.length < 8) continue;
    const [id, address, flagText, primary, , , epoch, linkState, ...slotFields] = fields as [string, string, string, string, string, string, string, string, ...string[]];
    const hostPort = address.split(',')[0]!.split('@')[0]!;
    const colon = hostPort.lastIndexOf(':');
    const flags = flagText.split(',');
    entries.push({
      id,
      host: hostPort.slice(0, colon),
      port: Number(hostPort.slice(colon + 1)),
      flags,
      myself: flags.includes('myself'),
      role: flags.includes('master') ? 'primary' : flags.includes('slave') ? 'replica' : 'unknown',
      primaryId: primary === '-' ? null : primary,
      configEpoch: Number(epoch),
      linkState,
      slots: slotFields.filter((s) => !s.startsWith('[')).map(parseSlotField),
    });
  }
  return entries;
}

function parseSlotField(field: string): SlotRange {
  const [start, end] = field.split('-');
  return { start: Number(start), end: Number(end ?? start) };
}

/**
 * Each slot's owner among primaries' own claims (their `myself` lines): where two claim a slot (gossip in flight,
 * a stale primary back with its old claims) the higher config epoch wins, as Redis settles it; on a tie, the
 * first listed. Null where nobody claims the slot.
 */
export function slotOwners<T>(claims: { of: T; slots: SlotRange[]; configEpoch: number }[]): (T | null)[] {
  const owner = new Array<T | null>(SLOT_COUNT).fill(null);
  const epochOf = new Array<number>(SLOT_COUNT).fill(-1);
  for (const c of claims) {
    for (const r of c.slots) for (let s = r.start; s <= r.end; s++) {
      if (c.configEpoch > epochOf[s]!) { owner[s] = c.of; epochOf[s] = c.configEpoch; }
    }
  }
  return owner;
}

/** Parses INFO / CLUSTER INFO text into a key -> value map. */
export function parseInfo(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    if (!line || line.startsWith('#')) continue;
    const colon = line.indexOf(':');
    if (colon > 0) out[line.slice(0, colon)] = line.slice(colon + 1).trim();
  }
  return out;
}

export interface SlotOwner extends SlotRange {
  ownerId: string;
}

/** Parses CLUSTER SLOTS: [[start, end, [ip, port, id, ...], ...replicas], ...]. */
export function parseClusterSlots(reply: unknown): SlotOwner[] {
  if (!Array.isArray(reply)) throw new Error('CLUSTER SLOTS reply is not an array');
  return reply.map((entry: unknown) => {
    const [start, end, primary] = entry as [number, number, [string, number, string]];
    return { start: Number(start), end: Number(end), ownerId: String(primary[2]) };
  });
}

/** Sorts ranges and merges adjacent ones with the same owner, so equal ownership compares equal. */
export function normalizeSlotOwners(owners: SlotOwner[]): SlotOwner[] {
  const sorted = [...owners].sort((a, b) => a.start - b.start);
  const out: SlotOwner[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && last.ownerId === r.ownerId && last.end + 1 === r.start) last.end = r.end;
    else out.push({ ...r });
  }
  return out;
}

/** Slots of `wanted` not covered by `have`, as ranges. */
export function subtractRanges(wanted: SlotRange[], have: SlotRange[]): SlotRange[] {
  const missing: SlotRange[] = [];
  for (const w of wanted) {
    let start = w.start;
    for (const h of [...have].sort((a, b) => a.start - b.start)) {
      if (h.end < start || h.start > w.end) continue;
      if (h.start > start) missing.push({ start, end: h.start - 1 });
      start = Math.max(start, h.end + 1);
      if (start > w.end) break;
    }
    if (start <= w.end) missing.push({ start, end: w.end });
  }
  return missing;
}

/**
 * Open slots on one node, from its own CLUSTER NODES line:
 * `[slot->-peer]` (migrating to peer) and `[slot-<-peer]` (importing from peer).
 */
/** How many slots the ranges cover. */
export function countSlots(ranges: readonly SlotRange[]): number {
  return ranges.reduce((n, r) => n + r.end - r.start + 1, 0);
}

export function parseOpenSlots(nodesText: string, myId: string): { slot: number; state: 'importing' | 'migrating'; peerId: string }[] {
  const line = nodesText.split('\n').find((l) => l.startsWith(`${myId} `));
  if (!line) return [];
  const out: { slot: number; state: 'importing' | 'migrating'; peerId: string }[] = [];
  for (const f of line.trim().split(' ').slice(8)) {
    const m = /^\[(\d+)-([<>])-([0-9a-f]+)\]$/.exec(f);
    if (m) out.push({ slot: Number(m[1]), state: m[2] === '>' ? 'migrating' : 'importing', peerId: m[3]! });
  }
  return out;
}
