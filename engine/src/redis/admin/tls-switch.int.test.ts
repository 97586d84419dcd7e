/**
 * TLS turned on and off in place on a running Valkey 8 cluster (1 primary + 1 replica, real valkey-server): a plain
 * client works before; during the stage both protocols are served and each kind of cluster client is told its own
 * ports; afterwards a TLS client with the CA works and plain text gets nothing; then back off the same way. Writers
 * acknowledged by a replica (WAIT 1) run through every step, moving from one protocol to the other during the stage
 * as an application would: no acknowledged write is lost, and the replica's link follows each switch. Serving both
 * is also withdrawn in each direction (back to what was served before, the second port closed).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import tls from 'node:tls';
import { Cluster, Redis } from 'ioredis';
import { loopbackAddress } from '@strata/local';
import { planSlots } from '../slots.planner';
import type { TlsSwitchMember } from '../tls-switch.plan';
import { formCluster } from './form-cluster';
import { connectAdmin } from './admin-connection';
import { runTlsSwitchStage } from './tls-switch';
import { startRedisFleet, TEST_CREDENTIALS as creds, type RedisFleet } from './testing/redis-fleet.fixture';
import { plainPing } from './testing/plain-ping';

const HOST = loopbackAddress('127.0.6.1');
const [P, R] = [7300, 7301];
const members: TlsSwitchMember[] = [
  { host: HOST, port: P, secondPort: 7400, role: 'primary' },
  { host: HOST, port: R, secondPort: 7401, role: 'replica' },
];
const internal = { username: creds.internalUser, password: creds.internalPassword };
let fleet: RedisFleet | undefined;
let ca = '';
let files: { certFile: string; keyFile: string; caFile: string };
const open: { disconnect(): void }[] = [];

/** A CA and one certificate for the host (openssl), as the control plane would hand them to the agent. */
function makeCertificates(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  run('req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '2', '-subj', '/CN=test-ca');
  run('req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', 'instance.key', '-out', 'instance.csr', '-subj', '/CN=instance');
  writeFileSync(join(dir, 'ext'), `subjectAltName=IP:${HOST}\nextendedKeyUsage=serverAuth,clientAuth\n`);
  run('x509', '-req', '-in', 'instance.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'instance.crt', '-days', '2', '-extfile', 'ext');
  files = { certFile: join(dir, 'instance.crt'), keyFile: join(dir, 'instance.key'), caFile: join(dir, 'ca.crt') };
  ca = readFileSync(files.caFile, 'utf8');
}

function client(port: number, withTls: boolean): Cluster {
  const c = new Cluster([{ host: HOST, port }], {
    redisOptions: { username: creds.customerUser, password: creds.customerPassword, connectTimeout: 1000, commandTimeout: 3000, ...(withTls ? { tls: { ca } } : {}) },
    slotsRefreshTimeout: 1000, retryDelayOnFailover: 20, retryDelayOnClusterDown: 50, retryDelayOnTryAgain: 20,
  });
  c.on('error', () => {});
  open.push(c);
  return c;
}

/** SET + WAIT 1 in a loop: keys a replica acknowledged. */
class Writer {
  readonly acked: string[] = [];
  errors = 0;
  private stopped = false;
  private loop?: Promise<void>;
  constructor(private readonly c: Cluster, private readonly prefix: string) {}
  start(): this {
    this.loop = (async () => {
      for (let i = 0; !this.stopped; i++) {
        try {
          const res = await this.c.pipeline().set(`${this.prefix}:${i}`, `v${i}`).call('WAIT', '1', '1000').exec();
          if (!res?.[0]?.[0] && Number(res?.[1]?.[1]) >= 1) this.acked.push(`${this.prefix}:${i}`);
        } catch {
          this.errors++;
          await new Promise((r) => setTimeout(r, 10));
        }
        await new Promise((r) => setTimeout(r, 3));
      }
    })();
    return this;
  }
  /** Stops once at least `atLeast` writes were acknowledged (up to 20 s more), so a loaded machine still writes enough to judge. */
  async stop(atLeast = 21): Promise<this> {
    const until = Date.now() + 20_000;
    while (this.acked.length < atLeast && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    this.stopped = true;
    await this.loop;
    return this;
  }
}


/** A TLS handshake verified by the CA: true when it completes, false when refused or unanswered (a plain-text port) within 1 s. */
function tlsHandshake(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = tls.connect({ host: HOST, port, ca });
    const done = (ok: boolean) => { clearTimeout(t); s.destroy(); resolve(ok); };
    const t = setTimeout(() => done(false), 1000);
    s.once('secureConnect', () => done(true));
    s.once('error', () => done(false));
  });
}

/** The primary's port in CLUSTER SLOTS as a client of this kind is told. */
async function slotsPort(port: number, withTls: boolean): Promise<number> {
  const r = new Redis({ host: HOST, port, username: creds.customerUser, password: creds.customerPassword, lazyConnect: true, maxRetriesPerRequest: 0, ...(withTls ? { tls: { ca } } : {}) });
  await r.connect();
  try {
    const slots = (await r.call('CLUSTER', 'SLOTS')) as [number, number, [string, number, string]][];
    return slots[0]![2][1];
  } finally {
    r.disconnect();
  }
}

/** The replica's primary port and link, by an admin connection on `port`. */
async function replicaLink(port: number, withTls: boolean): Promise<string> {
  const r = await connectAdmin({ host: HOST, port, ...internal, ...(withTls ? { tls: { ca } } : {}) }, 2000);
  try {
    const info = String(await r.info('replication'));
    return `${/master_port:(\d+)/.exec(info)?.[1]} ${/master_link_status:(\w+)/.exec(info)?.[1]}`;
  } finally {
    r.disconnect();
  }
}

async function missing(c: Cluster, keys: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const k of keys) if ((await c.get(k)) === null) out.push(k);
  return out;
}

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));
const stage = (direction: 'on' | 'off', s: 'serve-both' | 'finish' | 'withdraw') => runTlsSwitchStage({ direction, stage: s, members, ...internal, tls: { ca }, files });

describe('TLS switched in place on Valkey 8 (1x1)', () => {
  beforeAll(async () => {
    fleet = await startRedisFleet(members.map(({ host, port }) => ({ host, port })), { redisServer: 'valkey-server' });
    makeCertificates(join(fleet.root, 'tls'));
    await formCluster({
      shards: [{ slots: planSlots(1), primary: { instanceId: '00000000-0000-4000-8000-000000000001', host: HOST, port: P }, replicas: [{ instanceId: '00000000-0000-4000-8000-000000000002', host: HOST, port: R }] }],
      ...internal,
    });
  });
  afterAll(async () => {
    for (const c of open) c.disconnect();
    await fleet?.stop();
  });

  it('on: plain before, both during (each client told its own ports), TLS only after; then off the same way; no acknowledged write lost', async () => {
    const t0 = Date.now();
    // Before: plain text on P; no TLS anywhere.
    expect(await plainPing(HOST, P)).toMatch(/^-NOAUTH|^\+PONG/);
    expect(await tlsHandshake(P)).toBe(false);
    const plainWriter = new Writer(client(P, false), 'a').start();
    await settle(200);

    await stage('on', 'serve-both');
    const both = Date.now();
    // Both served: plain on P, TLS on the second port; each kind of client is sent to its own ports; replication over TLS.
    expect(await slotsPort(P, false)).toBe(P);
    expect(await slotsPort(7400, true)).toBe(7400);
    expect(await tlsHandshake(7400)).toBe(true);
    expect(await replicaLink(R, false)).toBe('7400 up');
    // The application moves to TLS during the stage.
    const tlsWriter = new Writer(client(7400, true), 'b').start();
    await settle(300);
    await plainWriter.stop();

    await stage('on', 'finish');
    const done = Date.now();
    // After: TLS on P with the CA; plain text gets nothing, the stage's port is closed; replication over TLS on P.
    expect(await tlsHandshake(P)).toBe(true);
    expect(await plainPing(HOST, P)).toBe('');
    expect(await tlsHandshake(7400)).toBe(false);
    expect(await slotsPort(P, true)).toBe(P);
    expect(await replicaLink(R, true)).toBe(`${P} up`);
    await settle(300);
    await tlsWriter.stop();
    const reader = client(P, true);
    expect(plainWriter.acked.length).toBeGreaterThan(20);
    expect(tlsWriter.acked.length).toBeGreaterThan(20);
    expect(await missing(reader, [...plainWriter.acked, ...tlsWriter.acked])).toEqual([]);
    console.log(`TLS on: serve-both ${both - t0 - 200} ms, finish ${done - both - 300} ms; acknowledged ${plainWriter.acked.length} plain + ${tlsWriter.acked.length} TLS writes (errors ${plainWriter.errors} + ${tlsWriter.errors}), none lost`);

    // And back off: TLS writer through serve-both, a plain one from the stage through finish.
    const tlsWriter2 = new Writer(client(P, true), 'c').start();
    await settle(200);
    await stage('off', 'serve-both');
    expect(await slotsPort(7400, false)).toBe(7400);
    expect(await slotsPort(P, true)).toBe(P);
    expect(await replicaLink(R, true)).toBe('7400 up');
    const plainWriter2 = new Writer(client(7400, false), 'd').start();
    await settle(300);
    await tlsWriter2.stop();
    await stage('off', 'finish');
    expect(await plainPing(HOST, P)).toMatch(/^-NOAUTH|^\+PONG/);
    expect(await tlsHandshake(P)).toBe(false);
    expect(await plainPing(HOST, 7400)).toBe('');
    expect(await slotsPort(P, false)).toBe(P);
    expect(await replicaLink(R, false)).toBe(`${P} up`);
    await settle(300);
    await plainWriter2.stop();
    const plainReader = client(P, false);
    expect(tlsWriter2.acked.length).toBeGreaterThan(20);
    expect(plainWriter2.acked.length).toBeGreaterThan(20);
    expect(await missing(plainReader, [...plainWriter.acked, ...tlsWriter.acked, ...tlsWriter2.acked, ...plainWriter2.acked])).toEqual([]);
    // The replica never copied the data again: every switch resumed replication (partial resync).
    const primary = await connectAdmin({ host: HOST, port: P, ...internal }, 2000);
    const stats = String(await primary.info('stats'));
    primary.disconnect();
    expect(/sync_full:(\d+)/.exec(stats)?.[1]).toBe('1');
    expect(Number(/sync_partial_ok:(\d+)/.exec(stats)?.[1])).toBeGreaterThanOrEqual(4);
  });

  it('withdraw: serving both undone in each direction (preferred back to what was served), replication following, no acknowledged write lost', async () => {
    // Plain text now (the test above ended there). On, then withdrawn: plain text only again, the second port closed.
    const w1 = new Writer(client(P, false), 'e').start();
    await stage('on', 'serve-both');
    expect(await replicaLink(R, false)).toBe('7400 up');
    await stage('on', 'withdraw');
    expect(await tlsHandshake(7400)).toBe(false);
    expect(await tlsHandshake(P)).toBe(false);
    expect(await plainPing(HOST, P)).toMatch(/^-NOAUTH|^\+PONG/);
    expect(await replicaLink(R, false)).toBe(`${P} up`);
    await settle(300);
    await w1.stop();
    // TLS only, then plain text beside it, withdrawn: TLS only again.
    await stage('on', 'serve-both');
    await stage('on', 'finish');
    const w2 = new Writer(client(P, true), 'f').start();
    await stage('off', 'serve-both');
    expect(await replicaLink(R, true)).toBe('7400 up');
    await stage('off', 'withdraw');
    expect(await plainPing(HOST, 7400)).toBe('');
    expect(await plainPing(HOST, P)).toBe('');
    expect(await tlsHandshake(P)).toBe(true);
    expect(await replicaLink(R, true)).toBe(`${P} up`);
    await settle(300);
    await w2.stop();
    expect(w1.acked.length).toBeGreaterThan(20);
    expect(w2.acked.length).toBeGreaterThan(20);
    expect(await missing(client(P, true), [...w1.acked, ...w2.acked])).toEqual([]);
    // Back to plain text for whoever runs next.
    await stage('off', 'serve-both');
    await stage('off', 'finish');
  });
});
