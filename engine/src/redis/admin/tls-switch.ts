/**
 * Carries out one stage of an in-place TLS switch on a running Valkey 8 cluster (the acts come from
 * `tls-switch.plan.ts`): every member in turn, replicas first, over a connection that stays open through the stage,
 * then waits until every replica's link to its primary is up again on the port of the new protocol.
 */
import type { Redis } from 'ioredis';
import type { TlsClientAuth } from '../../domain';
import type { TlsFiles } from '../tls-settings';
import { replicationPortAfter, stageConnection, switchOrder, tlsSwitchActs, type TlsDirection, type TlsSwitchAct, type TlsSwitchMember, type TlsSwitchStage } from '../tls-switch.plan';
import { connectAdmin, errorMessage, type TlsLogin } from './admin-connection';

export interface TlsSwitchOptions {
  direction: TlsDirection;
  stage: TlsSwitchStage;
  members: readonly TlsSwitchMember[];
  /** The internal user. */
  username: string;
  password: string;
  /** How to speak TLS to the members (the cluster's CA, the client certificate Strata presents). */
  tls: TlsLogin;
  files?: TlsFiles;
  clientAuth?: TlsClientAuth;
  /** For the replicas' links to come back; default 20 s. */
  timeoutMs?: number;
}

const POLL_MS = 50;

async function connectFor(o: TlsSwitchOptions, m: TlsSwitchMember): Promise<Redis> {
  const via = stageConnection(o.direction, o.stage, m);
  return connectAdmin({ host: m.host, port: via.port, username: o.username, password: o.password, ...(via.tls ? { tls: o.tls } : {}) }, 5000);
}

/** The port a replica's primary serves the protocol replication speaks once this stage is done. */
function replicationPort(o: TlsSwitchOptions, primary: TlsSwitchMember): number {
  return replicationPortAfter(o.stage, primary);
}

/** Carries out acts on one member over `c`, naming the member and the act in any error. */
export async function applyTlsSwitchActs(c: Redis, m: TlsSwitchMember, acts: readonly TlsSwitchAct[]): Promise<void> {
  for (const act of acts) {
    try {
      if (act.kind === 'config') await c.call('CONFIG', 'SET', ...act.settings.flat());
      else await c.call('CLIENT', 'KILL', 'LADDR', act.address, 'SKIPME', 'yes').catch((err: unknown) => {
        // No client on that address: nothing to cut.
        if (!/No such client/i.test(errorMessage(err))) throw err;
      });
    } catch (err) {
      throw new Error(`${m.host}:${m.port}: ${act.kind === 'config' ? `CONFIG SET ${act.settings.map(([k, v]) => `${k} ${v}`).join(' ')}` : `CLIENT KILL LADDR ${act.address}`}: ${errorMessage(err)}`);
    }
  }
}

export async function runTlsSwitchStage(o: TlsSwitchOptions): Promise<void> {
  const clients = new Map<TlsSwitchMember, Redis>();
  try {
    for (const m of switchOrder(o.members)) {
      const c = await connectFor(o, m);
      clients.set(m, c);
      await applyTlsSwitchActs(c, m, tlsSwitchActs(o.direction, o.stage, m, { files: o.files, clientAuth: o.clientAuth }));
    }
    await awaitReplicationLinks(o, clients);
  } finally {
    for (const c of clients.values()) c.disconnect();
  }
}

/** Every replica linked to a primary on that primary's port of the new protocol (up, not syncing). */
async function awaitReplicationLinks(o: TlsSwitchOptions, clients: Map<TlsSwitchMember, Redis>): Promise<void> {
  const wanted = new Set(o.members.filter((m) => m.role === 'primary').map((p) => `${p.host}:${replicationPort(o, p)}`));
  const deadline = Date.now() + (o.timeoutMs ?? 20_000);
  for (const m of o.members.filter((x) => x.role === 'replica')) {
    let last = '';
    for (;;) {
      const info = String(await clients.get(m)!.info('replication'));
      const field = (k: string) => new RegExp(`^${k}:(.*)$`, 'm').exec(info)?.[1]?.trim() ?? '';
      last = `${field('master_host')}:${field('master_port')} ${field('master_link_status')}`;
      if (wanted.has(`${field('master_host')}:${field('master_port')}`) && field('master_link_status') === 'up') break;
      if (Date.now() > deadline) throw new Error(`replica ${m.host}:${m.port} did not link to its primary's new port in time (now ${last})`);
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }
}

export interface TlsSwitchMemberOptions {
  direction: TlsDirection;
  stage: TlsSwitchStage;
  member: TlsSwitchMember;
  username: string;
  password: string;
  tls: TlsLogin;
  files?: TlsFiles;
  clientAuth?: TlsClientAuth;
  /** A primary: how many replicas must be linked to it on the new protocol's port before the stage is done there. */
  replicas?: number;
  timeoutMs?: number;
}

/**
 * One member's part of a stage, run by the agent on the member's host (the control plane orders members: replicas
 * first). Idempotent: a member that already carried out the stage (its stage connection may be closed by then) is
 * recognised by its settings and left as it is. A primary then waits until its replicas are linked on the port of
 * the protocol replication speaks after the stage.
 */
export async function runTlsSwitchMember(o: TlsSwitchMemberOptions): Promise<{ applied: boolean }> {
  const m = o.member;
  const via = stageConnection(o.direction, o.stage, m);
  const login = { host: m.host, username: o.username, password: o.password };
  let c: Redis;
  let applied = true;
  try {
    c = await connectAdmin({ ...login, port: via.port, ...(via.tls ? { tls: o.tls } : {}) }, 5000);
  } catch (first) {
    // The stage's connection is gone when the stage already closed it: the member is then on the other protocol on `port`.
    const other = o.stage === 'finish' ? { port: m.port, tls: o.direction === 'on' } : null;
    if (!other) throw first;
    c = await connectAdmin({ ...login, port: other.port, ...(other.tls ? { tls: o.tls } : {}) }, 5000).catch(() => { throw first; });
    applied = false;
  }
  try {
    if (applied) await applyTlsSwitchActs(c, m, tlsSwitchActs(o.direction, o.stage, m, { files: o.files, clientAuth: o.clientAuth }));
    if (m.role === 'primary' && o.replicas) await awaitReplicasOn(c, m, replicationPortAfter(o.stage, m), o.replicas, o.timeoutMs ?? 20_000);
    return { applied };
  } finally {
    c.disconnect();
  }
}

/** A primary's replicas linked on `port` (CLIENT LIST of replica connections, by the local port they came in on). */
async function awaitReplicasOn(c: Redis, m: TlsSwitchMember, port: number, replicas: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const list = String(await c.call('CLIENT', 'LIST', 'TYPE', 'replica'));
    const linked = list.split('\n').filter((l) => new RegExp(`\\bladdr=\\S+:${port}\\b`).test(l)).length;
    if (linked >= replicas) return;
    if (Date.now() > deadline) throw new Error(`primary ${m.host}:${m.port}: ${linked} of ${replicas} replicas linked on port ${port} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}
