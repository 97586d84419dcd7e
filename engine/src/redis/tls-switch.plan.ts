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
 *
 * The cluster bus keeps the protocol it was started with: `tls-cluster` is read when the bus listener opens (a
 * restart), and a bus whose nodes disagree cannot gossip (a node set to `tls-cluster yes` at runtime is marked
 * disconnected by the others: measured). A cluster created without TLS keeps a plain-text bus after TLS is turned on
 * in place; one created with TLS keeps a TLS bus after it is turned off.
 */
import type { TlsClientAuth } from '../domain';
import { clientAuthSettings, TLS_FILES, type TlsFiles } from './tls-settings';

export type TlsDirection = 'on' | 'off';
export type TlsSwitchStage = 'serve-both' | 'finish';
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
  if (stage === 'serve-both') return { tls: direction === 'off', port: m.port };
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
