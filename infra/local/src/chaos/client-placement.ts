/**
 * Where a chaos run's appending clients run, and what each of them lost.
 * Pure: placement in, placement out; a history in, per-client figures out.
 *
 * - `client`: every client in the checker's own process, on this machine
 *   (its own namespace, beside the bridge: like the client host's namespace
 *   it reaches every host, also a host cut off by `minority`).
 * - `spread`: clients in pairs (one plain, one with `WAIT 1`) on this
 *   machine and on every node host, in that order, so each side of a split has
 *   clients: a client on a host cut off by `minority` reaches only that
 *   host's engines and keeps writing to its old primary, as an application
 *   beside it would.
 */
import { lostAppends, type AppendOp } from './history';

export type ClientHosts = 'client' | 'spread';
export const CLIENT_HOSTS: Record<ClientHosts, string> = {
  client: 'every client in this process, on this machine (it reaches every host)',
  spread: 'clients in pairs (plain, WAIT 1) on this machine and on every node host: each side of a split has clients',
};

/** `client` (this machine, the checker's process) or a node host's label, `n1`, `n2`, ... (host index + 1, as in its namespace's name). */
export type ClientHost = string;
export const CLIENT_HOST: ClientHost = 'client';
export const nodeHostLabel = (index: number): ClientHost => `n${index + 1}`;
/** The host index of a node host's label (null: this machine). */
export function nodeHostIndex(host: ClientHost): number | null {
  const m = /^n(\d+)$/.exec(host);
  return m ? Number(m[1]) - 1 : null;
}

export interface PlacedClient {
  /** 1-based. */
  client: number;
  kind: 'plain' | 'wait';
  host: ClientHost;
}

/** Every second client acknowledges with `WAIT 1` (clients 2, 4, ...). */
export const clientKind = (client: number): 'plain' | 'wait' => (client % 2 === 0 ? 'wait' : 'plain');

/** The clients a run starts when none are asked for: 4 on this machine, or a pair on this machine and on every node host. */
export function defaultClientCount(placement: ClientHosts, nodeHosts: number): number {
  return placement === 'spread' ? 2 * (nodeHosts + 1) : 4;
}

export function placeClients(o: { placement: ClientHosts; nodeHosts: number; count?: number }): PlacedClient[] {
  const count = o.count ?? defaultClientCount(o.placement, o.nodeHosts);
  if (!(Number.isInteger(count) && count >= 1)) throw new Error(`clients: expected a positive integer, got ${count}`);
  const hosts = o.placement === 'spread' ? [CLIENT_HOST, ...Array.from({ length: o.nodeHosts }, (_, i) => nodeHostLabel(i))] : [CLIENT_HOST];
  return Array.from({ length: count }, (_, i) => ({ client: i + 1, kind: clientKind(i + 1), host: hosts[Math.floor(i / 2) % hosts.length]! }));
}

/** Which side of a fault a client's host is on: the faulted host itself, another node host, or this machine. */
export type ClientSide = 'fault host' | 'other hosts' | 'this machine';
export const CLIENT_SIDES: readonly ClientSide[] = ['fault host', 'other hosts', 'this machine'];
export function sideOf(host: ClientHost, faultHost: ClientHost | null): ClientSide {
  return host === CLIENT_HOST ? 'this machine' : host === faultHost ? 'fault host' : 'other hosts';
}

export interface ClientFigures extends PlacedClient {
  side: ClientSide;
  ops: number;
  acknowledged: number;
  /** Acknowledged appends of this client missing from the final lists. */
  lost: number;
  failed: number;
  unknown: number;
}

/** Per client: where it ran, which side of the fault that was, what it did and what of it was lost. */
export function figuresByClient(o: {
  clients: readonly PlacedClient[]; ops: readonly AppendOp[]; finalLists: ReadonlyMap<string, readonly number[]>; faultHost: ClientHost | null;
}): ClientFigures[] {
  const lost = new Set(lostAppends(o.ops, o.finalLists));
  return o.clients.map((c) => {
    const mine = o.ops.filter((op) => op.client === c.client);
    return {
      ...c, side: sideOf(c.host, o.faultHost), ops: mine.length,
      acknowledged: mine.filter((op) => op.status === 'ok').length,
      lost: mine.filter((op) => lost.has(op)).length,
      failed: mine.filter((op) => op.status === 'failed').length,
      unknown: mine.filter((op) => op.status === 'unknown').length,
    };
  });
}

export interface SideFigures { clients: number; acknowledged: { plain: number; wait: number }; lost: { plain: number; wait: number } }

/** Per side of the fault: clients, acknowledged and lost appends by kind (sides without clients are left out). */
export function figuresBySide(clients: readonly ClientFigures[]): Partial<Record<ClientSide, SideFigures>> {
  const out: Partial<Record<ClientSide, SideFigures>> = {};
  for (const c of clients) {
    const s = (out[c.side] ??= { clients: 0, acknowledged: { plain: 0, wait: 0 }, lost: { plain: 0, wait: 0 } });
    s.clients++;
    s.acknowledged[c.kind] += c.acknowledged;
    s.lost[c.kind] += c.lost;
  }
  return out;
}
