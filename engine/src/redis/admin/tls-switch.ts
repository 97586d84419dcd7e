/**
 * Carries out one stage of an in-place TLS switch on a running Valkey 8 cluster (the acts come from
 * `tls-switch.plan.ts`): every member in turn, replicas first, over a connection that stays open through the stage,
 * then waits until every replica's link to its primary is up again on the port of the new protocol.
 */
import type { Redis } from 'ioredis';
import type { TlsClientAuth } from '../../domain';
import type { TlsFiles } from '../tls-settings';
import { stageConnection, switchOrder, tlsSwitchActs, type TlsDirection, type TlsSwitchMember, type TlsSwitchStage } from '../tls-switch.plan';
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
  return o.stage === 'serve-both' ? primary.secondPort : primary.port;
}

export async function runTlsSwitchStage(o: TlsSwitchOptions): Promise<void> {
  const clients = new Map<TlsSwitchMember, Redis>();
  try {
    for (const m of switchOrder(o.members)) {
      const c = await connectFor(o, m);
      clients.set(m, c);
      for (const act of tlsSwitchActs(o.direction, o.stage, m, { files: o.files, clientAuth: o.clientAuth })) {
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
