/**
 * TLS turned on and off in place on a running valkey-8 cluster through the API (PATCH tls), under writers whose
 * writes count only once a replica acknowledged them (WAIT 1). One 3x1 cluster holding keys:
 * off -> preferred: both served, the connection details give the plain URI and a TLS one with the CA; the writer
 * moves to the TLS URI while a plain client still works; a replica killed meanwhile comes back serving both;
 * preferred -> required (the control plane killed -9 mid-stage and started again): plain text gets nothing on the
 * instances' ports, the TLS client keeps writing;
 * required -> off: plain text again (a writer moves back while both are served), TLS refused, the second ports
 * released. No acknowledged write lost, every loaded key kept, one event per stage, the cluster ready after each.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import tls from 'node:tls';
import { execFileSync } from 'node:child_process';
import { Cluster, Redis } from 'ioredis';
import type { Connection } from '@strata/api';
import type { Stack } from '@strata/local';
import { plainPing } from '@strata/engine/testing';
import { testStack } from './helpers/test-stack';
import type { TestApi } from './helpers/api-client';
import { appClient, countPresent, DurableWriter, loadKeys } from './helpers/workload';

let stack: Stack;
let api: TestApi;
let cleanup: () => Promise<void>;
const open: Cluster[] = [];

beforeAll(async () => {
  ({ stack, api, cleanup } = await testStack('127.0.139', { nodes: 2 }));
});
afterAll(async () => {
  for (const c of open) c.disconnect();
  await cleanup?.();
});

const KEYS = 2000;

function plainClient(uri: string): Cluster {
  expect(new URL(uri).protocol).toBe('redis:');
  const c = appClient(uri);
  open.push(c);
  return c;
}

/** A Redis Cluster client from a rediss:// URI and the CA, as an application configured for TLS. */
function tlsClient(uri: string, ca: string): Cluster {
  const u = new URL(uri);
  expect(u.protocol).toBe('rediss:');
  const c = new Cluster([{ host: u.hostname, port: Number(u.port) }], {
    redisOptions: { username: decodeURIComponent(u.username), password: decodeURIComponent(u.password), tls: { ca }, connectTimeout: 1000, commandTimeout: 3000 },
    slotsRefreshTimeout: 1000, retryDelayOnFailover: 20, retryDelayOnClusterDown: 50, retryDelayOnTryAgain: 20,
  });
  c.on('error', () => {});
  open.push(c);
  return c;
}

/** A TLS handshake verified by the CA: true when it completes, false when refused or unanswered within 1 s. */
function tlsHandshake(address: string, ca: string): Promise<boolean> {
  const [host, port] = [address.slice(0, address.lastIndexOf(':')), Number(address.slice(address.lastIndexOf(':') + 1))];
  return new Promise((resolve) => {
    const s = tls.connect({ host, port, ca });
    const done = (ok: boolean) => { clearTimeout(t); s.destroy(); resolve(ok); };
    const t = setTimeout(() => done(false), 1000);
    s.once('secureConnect', () => done(true));
    s.once('error', () => done(false));
  });
}

/** The pid of the valkey-server serving host:port (its process title names the address). */
function valkeyPid(address: string): number {
  const out = execFileSync('pgrep', ['-f', `valkey-server ${address}`], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
  expect(out, `one valkey-server on ${address}`).toHaveLength(1);
  return Number(out[0]);
}

/**
 * host:port of every instance as CLUSTER SLOTS tells a client through `uri`: with `ca`, over TLS (their TLS ports);
 * without, in plain text (their plain ports).
 */
async function slotsAddresses(uri: string, ca?: string): Promise<string[]> {
  const u = new URL(uri);
  const r = new Redis({
    host: u.hostname, port: Number(u.port), username: decodeURIComponent(u.username), password: decodeURIComponent(u.password),
    ...(ca ? { tls: { ca } } : {}), lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null,
  });
  r.on('error', () => {}); // connect() rejects with it
  await r.connect();
  try {
    const slots = (await r.call('CLUSTER', 'SLOTS')) as [number, number, ...[string, number, string][]][];
    return [...new Set(slots.flatMap(([, , ...nodes]) => nodes.map(([host, port]) => `${host}:${port}`)))];
  } finally {
    r.disconnect();
  }
}

const split = (a: string) => ({ host: a.slice(0, a.lastIndexOf(':')), port: Number(a.slice(a.lastIndexOf(':') + 1)) });
const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('TLS switched in place on a valkey-8 cluster through the API', () => {
  it('off -> preferred -> required -> off under WAIT 1 writers: clients move while both are served, nothing acknowledged is lost', async () => {
    const created = await api.createCluster({ name: 'tlsop', shards: 3, replicasPerShard: 1, memoryMbPerShard: 32, engineVersion: 'valkey-8' });
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    const id = created.body.cluster.id;
    await api.waitForHealthy(id, 60_000);
    const conn0 = (await api.connection(id)).body;
    expect(conn0).toMatchObject({ tls: 'off', tlsServed: 'plain', tlsUri: null, caCertificate: null });
    const app = plainClient(conn0.uri);
    await loadKeys(app, 'k', KEYS, 1);
    const primaries = conn0.seeds;

    // Bad input: preferred at create, tls with another change, both refused naming the field.
    const atCreate = await api.createCluster({ name: 'tlsop-pref', shards: 1, replicasPerShard: 0, engineVersion: 'valkey-8', tls: 'preferred' });
    expect(atCreate.status).toBe(400);
    expect(atCreate.body).toMatchObject({ errors: [{ field: 'tls' }] });
    const mixed = await api.updateCluster(id, { tls: 'required', evictionPolicy: 'allkeys-lru' });
    expect(mixed.status).toBe(400);
    expect(mixed.body).toMatchObject({ errors: [{ field: 'tls' }] });

    const plainWriter = new DurableWriter(app, 'a', 1, 4).start();
    await settle(300);

    // off -> preferred: a dry run plans one stage; the change is an operation, and a second change meanwhile is 409.
    const dry = await api.updateCluster(id, { tls: 'preferred' }, true);
    expect(dry.status).toBe(200);
    expect(dry.body.plan.steps.map((s) => s.name)).toEqual(['serve-tls-beside-plain']);
    const toPreferred = await api.updateCluster(id, { tls: 'preferred' });
    expect(toPreferred.status, JSON.stringify(toPreferred.body)).toBe(202);
    expect(toPreferred.body.operation.kind).toBe('tls-switch');
    expect((await api.updateCluster(id, { tls: 'required' })).status).toBe(409);
    const op1 = await api.waitForOperation(toPreferred.body.operation.id, 60_000);
    expect(op1.state, JSON.stringify(op1)).toBe('succeeded');
    const both: Connection = (await api.connection(id)).body;
    expect(both).toMatchObject({ tls: 'preferred', tlsServed: 'plain+tls' });
    expect(both.uri).toBe(conn0.uri);
    expect(both.tlsUri).toMatch(/^rediss:\/\//);
    const ca = both.caCertificate!;
    expect(ca).toContain('BEGIN CERTIFICATE');
    // TLS has a stable endpoint of its own while both are served: on the endpoint host, beside the plain one's port.
    const plainAt = new URL(both.uri);
    const secondEndpoint = new URL(both.tlsUri!);
    expect(plainAt.hostname).toBe(stack.endpointHost);
    expect(secondEndpoint.hostname).toBe(stack.endpointHost);
    expect(secondEndpoint.port).not.toBe(plainAt.port);
    await expect.poll(() => tlsHandshake(secondEndpoint.host, ca), { timeout: 10_000, interval: 250 }).toBe(true);
    // The primaries' ports still speak plain text; TLS is served beside them.
    for (const a of primaries) expect(await plainPing(split(a).host, split(a).port)).toMatch(/^-NOAUTH|^\+PONG/);
    expect(await tlsHandshake(new URL(both.tlsUri!).host, ca)).toBe(true);

    // A replica killed (-9) while both are served comes back serving both (the layout its agent keeps), in sync.
    const replica = (await api.topology(id)).body.shards[0]!.instances.find((i) => i.role === 'replica')!;
    process.kill(valkeyPid(replica.address), 'SIGKILL');
    await settle(500);
    await api.waitForHealthy(id, 30_000);
    expect(await plainPing(split(replica.address).host, split(replica.address).port)).toMatch(/^-NOAUTH|^\+PONG/);
    // Every instance, the restarted one too, is told to a TLS client with a port that completes a TLS handshake.
    // (The cluster's gossip tells the others of the restarted replica within a node timeout or so: asked until then.)
    let tlsNodes: string[] = [];
    await expect.poll(async () => (tlsNodes = await slotsAddresses(both.tlsUri!, ca)).length, { timeout: 20_000, interval: 250 }).toBe(6);
    for (const a of tlsNodes) expect(await tlsHandshake(a, ca), a).toBe(true);

    // The application moves to TLS; a plain client still reads.
    const tlsApp = tlsClient(both.tlsUri!, ca);
    const tlsWriter = new DurableWriter(tlsApp, 'b', 1, 4).start();
    expect(await countPresent(plainClient(both.uri), 'k', KEYS)).toBe(KEYS);
    await settle(300);
    await plainWriter.stop();

    // preferred -> required, the control plane killed (-9) mid-stage and started again: the switch resumes where the
    // records say. Then plain text gets nothing on the instances' ports; the TLS client goes on.
    const toRequired = await api.updateCluster(id, { tls: 'required' });
    expect(toRequired.status, JSON.stringify(toRequired.body)).toBe(202);
    const midway = await api.pollUntil(async () => {
      const op = (await api.operation(toRequired.body.operation.id)).body;
      return op.progress > 0 || ['succeeded', 'failed'].includes(op.state) ? op : undefined;
    }, 30_000, () => 'the switch to required never got under way', { steady: true });
    await stack.stopControlPlane('SIGKILL');
    await stack.startControlPlane();
    const op2 = await api.waitForOperation(toRequired.body.operation.id, 60_000);
    expect(op2.state, JSON.stringify(op2)).toBe('succeeded');
    const tlsOnly = (await api.connection(id)).body;
    expect(tlsOnly).toMatchObject({ tls: 'required', tlsServed: 'tls' });
    expect(tlsOnly.uri).toMatch(/^rediss:\/\//);
    expect(tlsOnly.tlsUri).toBe(tlsOnly.uri);
    // One protocol left: TLS is on the cluster's own endpoint. The second endpoint is no longer in the connection
    // details, but lingers, forwarding to the instances' own ports (now TLS): a client that knew it still gets in.
    expect(new URL(tlsOnly.uri).host).toBe(plainAt.host);
    expect(JSON.stringify(tlsOnly)).not.toContain(`:${secondEndpoint.port}`);
    // (Agents read the endpoint list every second: until then it still forwards to the closed second ports.)
    await expect.poll(() => slotsAddresses(both.tlsUri!, ca).catch((err: Error) => err.message), { timeout: 10_000, interval: 250 })
      .toEqual(expect.arrayContaining(primaries));
    for (const a of primaries) {
      expect(await plainPing(split(a).host, split(a).port)).toBe('');
      expect(await tlsHandshake(a, ca)).toBe(true);
    }
    await settle(300);
    const ackedBeforeOff = tlsWriter.acked.length;
    expect(ackedBeforeOff).toBeGreaterThan(20);
    await api.waitForHealthy(id, 30_000);

    // required -> off: both served on the way (plain text on the second ports); a plain writer starts then, TLS closes.
    const toOff = await api.updateCluster(id, { tls: 'off' });
    expect(toOff.status, JSON.stringify(toOff.body)).toBe(202);
    expect(toOff.body.plan.steps.map((s) => s.name)).toEqual(['serve-plain-beside-tls', 'close-tls']);
    const during = await api.pollUntil(async () => {
      const c = (await api.connection(id)).body;
      return c.tlsServed === 'tls+plain' || c.tlsServed === 'plain' ? c : undefined;
    }, 60_000, () => 'plain text never served again', { steady: true });
    const backApp = plainClient(during.uri);
    const backWriter = new DurableWriter(backApp, 'c', 1, 4).start();
    const op3 = await api.waitForOperation(toOff.body.operation.id, 60_000);
    expect(op3.state, JSON.stringify(op3)).toBe('succeeded');
    await tlsWriter.stop();
    // The second endpoint (plain text on the second ports while both were served) lingers, now forwarding to the own
    // ports: a client that knew only it connects through it and is told the own ports.
    await expect.poll(() => slotsAddresses(during.uri).catch((err: Error) => err.message), { timeout: 10_000, interval: 250 })
      .toEqual(expect.arrayContaining(primaries));
    // The writer that came in through it during the switch usually goes on after it (it reconnects through the
    // lingering endpoint); it is given a while, and nothing it had acknowledged may be lost either way.
    const backAtOff = backWriter.acked.length;
    for (const until = Date.now() + 10_000; backWriter.acked.length <= backAtOff + 20 && Date.now() < until;) await settle(200);
    const backAfterOff = backWriter.acked.length - backAtOff;
    await backWriter.stop();
    const off = (await api.connection(id)).body;
    expect(off).toMatchObject({ tls: 'off', tlsServed: 'plain', tlsUri: null, caCertificate: null });
    for (const a of primaries) {
      expect(await plainPing(split(a).host, split(a).port)).toMatch(/^-NOAUTH|^\+PONG/);
      expect(await tlsHandshake(a, ca)).toBe(false);
    }
    await api.waitForHealthy(id, 30_000);
    // The application on the final plain URI writes.
    const afterWriter = new DurableWriter(plainClient(off.uri), 'd', 1, 4).start();
    await expect.poll(() => afterWriter.acked.length, { timeout: 20_000, interval: 200 }).toBeGreaterThan(20);
    await afterWriter.stop();

    // Nothing acknowledged lost, every loaded key kept.
    const reader = plainClient(off.uri);
    expect(plainWriter.acked.length).toBeGreaterThan(20);
    expect(await plainWriter.lost(reader)).toEqual([]);
    expect(await tlsWriter.lost(reader)).toEqual([]);
    expect(await backWriter.lost(reader)).toEqual([]);
    expect(await afterWriter.lost(reader)).toEqual([]);
    expect(await countPresent(reader, 'k', KEYS)).toBe(KEYS);
    // One event per stage, in order.
    const events = (await api.events(id, '?limit=200')).body.items.filter((e) => e.type === 'tls-switched').reverse();
    expect(events.map((e) => (e.type === 'tls-switched' ? `${e.stage}>${e.served}` : ''))).toEqual([
      'serve-tls-beside-plain>plain+tls', 'close-plain>tls', 'serve-plain-beside-tls>tls+plain', 'close-tls>plain',
    ]);
    console.log(`TLS switch through the API: acknowledged ${plainWriter.acked.length} plain + ${tlsWriter.acked.length} TLS + ${backWriter.acked.length} plain through the second endpoint (${backAfterOff} after the switch to off) + ${afterWriter.acked.length} plain after it `
      + `(errors ${plainWriter.errors} + ${tlsWriter.errors} + ${backWriter.errors}), none lost; control plane killed at ${midway.state} ${midway.progress}; stages took ${[op1, op2, op3].map((o) => Date.parse(o.finishedAt!) - Date.parse(o.createdAt)).join(' / ')} ms; `
      + `first errors of the writer started during the switch to off: ${backWriter.firstErrors.join(' | ') || 'none'}`);
  }, 240_000);
});
