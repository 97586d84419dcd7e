/**
 * Turning TLS on or off on a running Valkey 8 cluster without a restart: what each instance is told, in order.
 *
 * Valkey 8 (like Redis 7.2) gossips both client ports on the cluster bus and answers CLUSTER SLOTS / SHARDS / NODES
 * and MOVED / ASK with the port of the asking connection's kind, so for a while an instance can serve plain text on
 * one port and TLS on another and every cluster-aware client is sent to a port it can speak. Redis 7.0 gossips one
 * port only: there, clients of the other kind would be redirected to the wrong port.
 *
 * Two stages, each applied to every instance, replicas before primaries:
 * - `serve-both`: the second protocol is served on `secondPort` beside the first on `port`. Replication follows:
 *   a replica told `tls-replication yes|no` reconnects with the new protocol when its primary announces the new
 *   port (a partial resync: no data is copied again). The bus port is pinned (`cluster-announce-bus-port`) so it never
 *   follows a client port. Each port set at runtime is also announced explicitly (`cluster-announce-port`,
 *   `cluster-announce-tls-port`): Valkey 8.0.1 gossips a port changed by CONFIG SET to the other nodes but keeps the
 *   old one (0) in its own CLUSTER SLOTS / SHARDS answers until an announce setting changes (measured).
 * - `finish`: the old protocol is closed, its open connections are cut, and the new protocol moves to `port`
 *   (clients of the new kind on `secondPort` keep their connection; new ones are sent to `port` by the cluster).
 * - `withdraw` (instead of `finish`): serve-both undone. Replication goes back to the old protocol, the second port
 *   closes and its open connections are cut; replicas reconnect on their primary's `port` once it stops announcing
 *   the second one (measured: a partial resync).
 *
 * A cluster's `tls` setting maps onto layouts (`planTlsChange` below): `preferred` is one of the two layouts serving
 * both, reached by serve-both and left by finish (the new protocol alone) or withdraw (the old one alone).
 *
 * The cluster bus keeps the protocol it was started with: `tls-cluster` is read when the bus listener opens (a
 * restart), and a bus whose nodes disagree cannot gossip (a node set to `tls-cluster yes` at runtime is marked
 * disconnected by the others: measured). A cluster created without TLS keeps a plain-text bus after TLS is turned on
 * in place; one created with TLS keeps a TLS bus after it is turned off.
 */
import type { TlsClientAuth } from '../domain';
import { clientAuthSettings, TLS_FILES, type TlsFiles } from './tls-settings';

export type TlsDirection = 'on' | 'off';
/** serve-both: the second protocol beside the first; finish: the first one closed; withdraw: serve-both undone. */
export type TlsSwitchStage = 'serve-both' | 'finish' | 'withdraw';
export type Setting = readonly [string, string];

/** One instance as the switch sees it: the port clients use (before and after) and a free one for the stage. */
export interface TlsSwitchMember {
  host: string;
  port: number;
  secondPort: number;
  role: 'primary' | 'replica';
}

/** One step on one instance: settings to set, or the clients on a local address to cut. */
export type TlsSwitchAct =
  | { kind: 'config'; settings: readonly Setting[] }
  | { kind: 'kill-clients-on'; address: string };

/** Which protocol an admin connection to a member speaks, and on which port, to carry out a stage. */
export interface StageConnection { tls: boolean; port: number }

export const busPort = (m: Pick<TlsSwitchMember, 'port'>): number => m.port + 10000;

/** How Strata reaches a member while it carries out `stage`: a port that stays open throughout. */
export function stageConnection(direction: TlsDirection, stage: TlsSwitchStage, m: TlsSwitchMember): StageConnection {
  // serve-both: the old protocol on `port`. finish: the new one on `secondPort`, which closes last (only once `port` serves it).
  // withdraw: the old protocol on `port` too (only the second port closes).
  if (stage === 'serve-both' || stage === 'withdraw') return { tls: direction === 'off', port: m.port };
  return { tls: direction === 'on', port: m.secondPort };
}

/** Replicas first: a primary's announced port change is what makes its replicas reconnect with the new protocol. */
export function switchOrder<T extends Pick<TlsSwitchMember, 'role'>>(members: readonly T[]): T[] {
  return [...members.filter((m) => m.role === 'replica'), ...members.filter((m) => m.role === 'primary')];
}

/** What one member is told in one stage, in order. */
export function tlsSwitchActs(direction: TlsDirection, stage: TlsSwitchStage, m: TlsSwitchMember, opts: { files?: TlsFiles; clientAuth?: TlsClientAuth } = {}): TlsSwitchAct[] {
  const files = opts.files ?? TLS_FILES;
  const replication: Setting = ['tls-replication', direction === 'on' ? 'yes' : 'no'];
  if (direction === 'on' && stage === 'serve-both') {
    return [
      { kind: 'config', settings: [['tls-cert-file', files.certFile], ['tls-key-file', files.keyFile], ['tls-ca-cert-file', files.caFile], ...clientAuthSettings(opts.clientAuth ?? 'none'), ['cluster-announce-bus-port', String(busPort(m))]] },
      // A replica first speaks TLS to its primary once the primary announces its TLS port (below, primaries after replicas).
      { kind: 'config', settings: [replication] },
      { kind: 'config', settings: [['tls-port', String(m.secondPort)], ['cluster-announce-tls-port', String(m.secondPort)]] },
    ];
  }
  if (stage === 'withdraw') {
    // Replication back to the old protocol first (replicas before primaries): a replica reconnects on the port once its
    // primary stops announcing the second one; then the second port closes and its open connections are cut.
    const old: Setting = ['tls-replication', direction === 'on' ? 'no' : 'yes'];
    return [
      { kind: 'config', settings: [old] },
      { kind: 'config', settings: direction === 'on' ? [['tls-port', '0'], ['cluster-announce-tls-port', '0']] : [['port', '0'], ['cluster-announce-port', '0']] },
      { kind: 'kill-clients-on', address: `${m.host}:${m.secondPort}` },
    ];
  }
  if (direction === 'on') {
    return [
      { kind: 'config', settings: [['port', '0'], ['cluster-announce-port', '0']] },
      { kind: 'kill-clients-on', address: `${m.host}:${m.port}` },
      { kind: 'config', settings: [['tls-port', String(m.port)], ['cluster-announce-tls-port', String(m.port)]] },
    ];
  }
  if (stage === 'serve-both') {
    return [
      { kind: 'config', settings: [['cluster-announce-bus-port', String(busPort(m))]] },
      { kind: 'config', settings: [replication] },
      { kind: 'config', settings: [['port', String(m.secondPort)], ['cluster-announce-port', String(m.secondPort)]] },
    ];
  }
  return [
    { kind: 'config', settings: [['tls-port', '0'], ['cluster-announce-tls-port', '0']] },
    { kind: 'kill-clients-on', address: `${m.host}:${m.port}` },
    { kind: 'config', settings: [['port', String(m.port)], ['cluster-announce-port', String(m.port)]] },
  ];
}

/** The port a replica's primary serves replication on once `stage` is done. */
export function replicationPortAfter(stage: TlsSwitchStage, primary: Pick<TlsSwitchMember, 'port' | 'secondPort'>): number {
  return stage === 'serve-both' ? primary.secondPort : primary.port;
}

/**
 * What a cluster's instances serve, the protocol on their own port first: `plain` (TLS off), `plain+tls` (plain text
 * on the port, TLS on a second port), `tls+plain` (TLS on the port, plain text on a second port), `tls` (TLS only).
 * The two middle ones are the `preferred` stage: both served, so clients move before the old protocol closes.
 */
export type TlsLayout = 'plain' | 'plain+tls' | 'tls+plain' | 'tls';
export const TLS_LAYOUTS = ['plain', 'plain+tls', 'tls+plain', 'tls'] as const satisfies readonly TlsLayout[];

/** What a cluster's `tls` setting asks for. */
export type TlsTarget = 'off' | 'preferred' | 'required';

export interface TlsStageRef { direction: TlsDirection; stage: TlsSwitchStage }

/** Each stage moves from one layout to another; no other move exists. */
const MOVES: readonly { from: TlsLayout; to: TlsLayout; step: TlsStageRef }[] = [
  { from: 'plain', to: 'plain+tls', step: { direction: 'on', stage: 'serve-both' } },
  { from: 'plain+tls', to: 'tls', step: { direction: 'on', stage: 'finish' } },
  { from: 'plain+tls', to: 'plain', step: { direction: 'on', stage: 'withdraw' } },
  { from: 'tls', to: 'tls+plain', step: { direction: 'off', stage: 'serve-both' } },
  { from: 'tls+plain', to: 'plain', step: { direction: 'off', stage: 'finish' } },
  { from: 'tls+plain', to: 'tls', step: { direction: 'off', stage: 'withdraw' } },
];

/** The layout an instance has after `step`, from `from` (null: the step does not apply there). */
export function layoutAfter(from: TlsLayout, step: TlsStageRef): TlsLayout | null {
  return MOVES.find((m) => m.from === from && m.step.direction === step.direction && m.step.stage === step.stage)?.to ?? null;
}

/** The setting a layout satisfies. */
export function tlsTargetOf(layout: TlsLayout): TlsTarget {
  return layout === 'plain' ? 'off' : layout === 'tls' ? 'required' : 'preferred';
}

/** Both protocols are served: instances need a second port. */
export const servesBoth = (layout: TlsLayout): boolean => layout === 'plain+tls' || layout === 'tls+plain';

/**
 * The protocol the second ports served before is what the own ports serve after (`plain+tls` -> `tls`,
 * `tls+plain` -> `plain`): clients of the second ports find it on the own ports. Not when the second protocol is
 * withdrawn (back to what was served before).
 */
export const secondProtocolMovesHome = (before: TlsLayout, after: TlsLayout): boolean =>
  (before === 'plain+tls' && after === 'tls') || (before === 'tls+plain' && after === 'plain');
/** TLS is served on some port. */
export const servesTls = (layout: TlsLayout): boolean => layout !== 'plain';

/**
 * The stages (in order) that take a cluster serving `from` to what `to` asks, with the layout after each: `preferred`
 * keeps the protocol served now on the instances' ports and adds the other on a second port; `off` and `required`
 * pass through both being served (never a moment where a client of the old protocol has nowhere to go before it was
 * offered the new one). Empty when `from` already satisfies `to`.
 */
export function planTlsChange(from: TlsLayout, to: TlsTarget): { step: TlsStageRef; after: TlsLayout }[] {
  const goal: TlsLayout = to === 'off' ? 'plain' : to === 'required' ? 'tls' : from === 'tls' ? 'tls+plain' : from === 'plain' ? 'plain+tls' : from;
  const out: { step: TlsStageRef; after: TlsLayout }[] = [];
  let at = from;
  while (at !== goal) {
    // From a single protocol, the only move is serving both; from both, the move that ends at the goal.
    const move = MOVES.find((m) => m.from === at && m.to === goal) ?? MOVES.find((m) => m.from === at && servesBoth(m.to))!;
    out.push({ step: move.step, after: move.to });
    at = move.to;
  }
  return out;
}

/** A stage's name as an operation step shows it: serve-both-tls, finish-tls, withdraw-plain, ... (the protocol it concerns). */
export function stageName(s: TlsStageRef): string {
  const added = s.direction === 'on' ? 'tls' : 'plain';
  const old = s.direction === 'on' ? 'plain' : 'tls';
  return s.stage === 'serve-both' ? `serve-${added}-beside-${old}` : s.stage === 'finish' ? `close-${old}` : `close-second-${added}`;
}

/** What the instance's ports serve in a layout (0: closed), and whether replication and the bus speak TLS. */
export function layoutPorts(layout: TlsLayout, port: number, secondPort: number | null): { plainPort: number; tlsPort: number; tlsReplication: boolean } {
  const second = secondPort ?? 0;
  if (servesBoth(layout) && !second) throw new Error(`layout ${layout} needs a second port`);
  switch (layout) {
    case 'plain': return { plainPort: port, tlsPort: 0, tlsReplication: false };
    case 'plain+tls': return { plainPort: port, tlsPort: second, tlsReplication: true };
    case 'tls+plain': return { plainPort: second, tlsPort: port, tlsReplication: false };
    case 'tls': return { plainPort: 0, tlsPort: port, tlsReplication: true };
  }
}
