/**
 * Pure convergence check for formCluster: compares what every node reports
 * with the plan and lists what is not there yet, with the action (if any)
 * that moves it forward.
 */
import type { SlotRange } from '../../domain';
import { normalizeSlotOwners, type ClusterNodeEntry, type SlotOwner } from './cluster-reply.parser';

export interface PlannedMember {
  /** host:port */
  address: string;
  host: string;
  port: number;
  id: string;
}

export interface ResolvedShard {
  slots: SlotRange[];
  primary: PlannedMember;
  replicas: PlannedMember[];
}

export type NodeSnapshot =
  | {
      member: PlannedMember;
      nodes: ClusterNodeEntry[];
      clusterInfo: Record<string, string>;
      replication: Record<string, string>;
      slotOwners: SlotOwner[];
    }
  | { member: PlannedMember; error: string };

export type ConvergenceAction =
  | { kind: 'meet'; from: PlannedMember; to: PlannedMember }
  | { kind: 'replicate'; replica: PlannedMember; primary: PlannedMember };

export interface ConvergenceReport {
  problems: string[];
  actions: ConvergenceAction[];
}

const PENDING_FLAGS = ['handshake', 'noaddr'];

export function checkConvergence(shards: ResolvedShard[], snapshots: NodeSnapshot[]): ConvergenceReport {
  const members = shards.flatMap((s) => [s.primary, ...s.replicas]);
  const primaryOf = new Map<string, PlannedMember>();
  for (const s of shards) for (const r of s.replicas) primaryOf.set(r.id, s.primary);
  const expectedOwners = normalizeSlotOwners(shards.flatMap((s) => s.slots.map((r) => ({ ...r, ownerId: s.primary.id }))));

  const problems: string[] = [];
  const actions: ConvergenceAction[] = [];
  for (const snap of snapshots) {
    const at = snap.member.address;
    if ('error' in snap) {
      problems.push(`${at} unreachable (${snap.error})`);
      continue;
    }
    // (d) every node knows every member, past the handshake.
    const known = new Map(snap.nodes.filter((n) => !n.flags.some((f) => PENDING_FLAGS.includes(f))).map((n) => [n.id, n]));
    const unknown = members.filter((m) => !known.has(m.id));
    if (unknown.length > 0) {
      problems.push(`${at} knows ${members.length - unknown.length}/${members.length} nodes (missing ${unknown.map((m) => m.address).join(', ')})`);
      for (const m of unknown) {
        const inHandshake = snap.nodes.some((n) => n.host === m.host && n.port === m.port);
        if (!inHandshake) actions.push({ kind: 'meet', from: snap.member, to: m });
      }
    }
    const strangers = [...known.keys()].filter((id) => !members.some((m) => m.id === id));
    if (strangers.length > 0) problems.push(`${at} knows ${strangers.length} node(s) outside the plan: ${strangers.join(', ')}`);

    // (e) replicas follow their primary with a live link.
    const primary = primaryOf.get(snap.member.id);
    const myself = snap.nodes.find((n) => n.myself);
    if (primary) {
      if (myself?.role !== 'replica' || myself.primaryId !== primary.id) {
        problems.push(`${at} does not replicate ${primary.address} yet`);
        if (known.has(primary.id)) actions.push({ kind: 'replicate', replica: snap.member, primary });
      } else if (snap.replication.master_link_status !== 'up') {
        problems.push(`${at} master_link_status is ${snap.replication.master_link_status ?? 'unknown'}`);
      }
    }

    // (f) healthy state and the planned slot owners, as clients will see them.
    if (snap.clusterInfo.cluster_state !== 'ok') problems.push(`${at} cluster_state is ${snap.clusterInfo.cluster_state ?? 'unknown'}`);
    const slotDiff = firstSlotDifference(expectedOwners, normalizeSlotOwners(snap.slotOwners));
    if (slotDiff !== null) problems.push(`${at} slot owners differ from the plan from slot ${slotDiff}`);
  }
  return { problems, actions };
}

/** First slot whose owner differs between two normalized owner lists, or null when equal. */
export function firstSlotDifference(expected: SlotOwner[], actual: SlotOwner[]): number | null {
  const ownerAt = (list: SlotOwner[], slot: number) => list.find((r) => r.start <= slot && slot <= r.end)?.ownerId;
  const boundaries = [...new Set([...expected, ...actual].flatMap((r) => [r.start, r.end + 1]))].sort((a, b) => a - b);
  for (const slot of [0, ...boundaries]) {
    if (slot > 16383) continue;
    if (ownerAt(expected, slot) !== ownerAt(actual, slot)) return slot;
  }
  return null;
}
