/**
 * A cluster created with `tls: "required"` serves TLS only: on the client
 * port, on replication and on the cluster bus, with certificates from its
 * own CA. One stack, one cluster, several checks in order: it becomes ready,
 * plain text gets nothing (client port and bus port), a client with the CA
 * writes and reads on every shard through the endpoint's rediss:// URI, a
 * client without the CA is refused, and a failover, a 3 -> 4 reshard and
 * the loss of a node keep every acknowledged key; a backup (streamed over
 * TLS) restores into a new TLS cluster; the slow log and a key scan read
 * every instance over TLS; a database user reads (and is refused a write)
 * over TLS; a configuration change rotates every instance's certificate
 * without a restart. That cluster requires client certificates (mTLS): a
 * client with only the CA is refused at the handshake, one with a
 * certificate issued through the API reads and writes, and every path of
 * Strata's own above (formation, failover, backup, diagnostics, benchmark,
 * reshard, rebuild) presents its own. A second cluster has its certificates
 * renewed before they expire (the control plane restarted with a renewal
 * window wider than their validity), without a restart or a lost write, and
 * then starts requiring client certificates in place, without a restart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import tls from 'node:tls';
import { X509Certificate } from 'node:crypto';
import { Cluster, Redis } from 'ioredis';
import type { BackupResponse, Benchmark, ClientCertificate, ClientCertificateList, ClientCertificateWithKey, DatabaseUserList, DatabaseUserWithPassword, KeyScan, SlowLog, Topology } from '@strata/api';
import type { Stack } from '@strata/local';
import { plainPing } from '@strata/engine/testing';
import { testStack } from './helpers/test-stack';
import type { TestApi } from './helpers/api-client';
import { countPresent, DurableWriter, enginePid, loadKeys } from './helpers/workload';
import { phaseClock } from './helpers/phase-clock';
import { settledPrimaries } from './helpers/redis-client';
import { createClusterCa, issueClientCertificate as issueClientCertificateFrom } from '../src/crypto/cluster-ca';

let stack: Stack;
let api: TestApi;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ stack, api, cleanup } = await testStack('127.0.123', { nodes: 3, extraEnv: { STRATA_NODE_OFFLINE_AFTER_MS: '2000', STRATA_NODE_DOWN_AFTER_MS: '6000', STRATA_REBALANCE_AFTER_MS: '1000' } }));
});
afterAll(async () => cleanup?.());

const KEYS = 3000;

type ClientPem = { cert: string; key: string };

/** A Redis Cluster client from the connection URI and the CA (and a client certificate), as an application configured for TLS. */
function tlsClient(uri: string, ca: string, client?: ClientPem): Cluster {
  const u = new URL(uri);
  expect(u.protocol).toBe('rediss:');
  const c = new Cluster([{ host: u.hostname, port: Number(u.port) }], {
    redisOptions: { username: decodeURIComponent(u.username), password: decodeURIComponent(u.password), tls: { ca, ...client }, connectTimeout: 1000, commandTimeout: 3000 },
    slotsRefreshTimeout: 1000,
    retryDelayOnFailover: 20,
    retryDelayOnClusterDown: 50,
    retryDelayOnTryAgain: 20,
  });
  c.on('error', () => {});
  return c;
}


/** Completes a TLS handshake with host:port verified against `ca`; resolves with the peer certificate's SANs. */
function handshake(host: string, port: number, ca?: string): Promise<string> {
  return peerCertificate(host, port, ca).then((c) => c.subjectAltName ?? '');
}

function peerCertificate(host: string, port: number, ca?: string): Promise<X509Certificate> {
  return new Promise((resolve, reject) => {
    const s = tls.connect({ host, port, ...(ca ? { ca } : {}) });
    // A handshake that neither completes nor fails is an error too, named, rather than a test that hangs.
    const t = setTimeout(() => { s.destroy(); reject(new Error(`TLS handshake with ${host}:${port} did not finish within 10 s`)); }, 10_000);
    s.once('secureConnect', () => { clearTimeout(t); resolve(s.getPeerX509Certificate()!); s.destroy(); });
    s.once('error', (err) => { clearTimeout(t); s.destroy(); reject(err); });
  });
}

/**
 * What a client with the CA but no certificate gets from an instance that requires one: the server's alert (TLS 1.3 completes the
 * client's side of the handshake first, then the server refuses it), and no reply to a PING.
 */
function withoutCertificate(host: string, port: number, ca: string): Promise<{ reply: string; error: string }> {
  return handshakeAndPing(host, port, { ca });
}

/** A TLS connection with these options sends PING: the reply (empty when refused) and the error, if any. */
function handshakeAndPing(host: string, port: number, opts: { ca: string; cert?: string; key?: string }): Promise<{ reply: string; error: string }> {
  return new Promise((resolve) => {
    const s = tls.connect({ host, port, ...opts });
    let reply = '';
    let error = '';
    const done = () => { clearTimeout(t); s.destroy(); resolve({ reply, error }); };
    const t = setTimeout(done, 1000);
    s.on('secureConnect', () => s.write('PING\r\n'));
    s.on('data', (d) => { reply += d.toString('latin1'); });
    s.on('error', (err) => { error = err.message; done(); });
    s.on('close', done);
  });
}

/** What a client presenting a certificate from a CA of its own (not the cluster's) gets: no reply to a PING. */
async function withForeignCertificate(host: string, port: number, ca: string): Promise<{ reply: string; error: string }> {
  const foreignCa = await createClusterCa('elsewhere');
  const foreign = await issueClientCertificateFrom(foreignCa, 'intruder', { validityMs: 86_400_000 });
  return handshakeAndPing(host, port, { ca, cert: foreign.certificate, key: foreign.privateKey });
}

/** A client certificate issued through the API, and the list that records it (never its key) once every instance trusts it. */
async function issueClientCertificate(id: string, name: string): Promise<ClientPem & { id: string }> {
  const issued = await api.call<ClientCertificateWithKey>('POST', `/v1/clusters/${id}/client-certificates`, { name, validityDays: 30 });
  expect(issued.status, JSON.stringify(issued.body)).toBe(201);
  const cert = new X509Certificate(issued.body.certificate);
  expect(cert.subject).toContain(`CN=${name}`);
  expect(cert.serialNumber).toBe(issued.body.clientCertificate.serialNumber);
  expect(issued.body.clientCertificate).toMatchObject({ revokedAt: null, revocable: true });
  const listed = await clientCertificateApplied(id, issued.body.clientCertificate.id);
  expect({ ...listed, applied: false }).toEqual(issued.body.clientCertificate);
  return { id: listed.id, cert: issued.body.certificate, key: issued.body.privateKey };
}

/** The certificate as listed once every running instance has loaded the cluster's trust (it trusts it, or, revoked, no longer does). */
async function clientCertificateApplied(clusterId: string, certificateId: string): Promise<ClientCertificate> {
  return api.pollUntil(async () => {
    const list = (await api.call<ClientCertificateList>('GET', `/v1/clusters/${clusterId}/client-certificates`)).body;
    expect(JSON.stringify(list)).not.toContain('PRIVATE KEY');
    const c = list.items.find((x) => x.id === certificateId);
    return c?.applied ? c : undefined;
  }, 20_000, () => 'the client trust was not applied on every instance');
}

const split = (address: string) => ({ host: address.slice(0, address.lastIndexOf(':')), port: Number(address.slice(address.lastIndexOf(':') + 1)) });
const primaryOf = (t: Topology, shard: number) => t.shards[shard]!.instances.find((i) => i.role === 'primary')!;

describe('a TLS cluster', () => {
  it('serves TLS only, requiring client certificates; a client with its CA and an issued certificate reads and writes every shard; failover, 3 -> 4 and a node loss keep every acknowledged key; backups, diagnostics and database users work over TLS', async () => {
    const phase = phaseClock('TLS scenario');
    const created = await api.createCluster({ name: 'secure', shards: 3, replicasPerShard: 1, memoryMbPerShard: 64, tls: 'required', tlsClientAuth: 'required' });
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    expect(created.body.cluster.spec.tls).toBe('required');
    expect(created.body.cluster.spec.tlsClientAuth).toBe('required');
    const id = created.body.cluster.id;
    const started = Date.now();
    const topology = await api.waitForHealthy(id, 90_000);
    console.log(`TLS cluster 3x1 healthy in ${Date.now() - started} ms`);
    phase('created');

    // Connection details: rediss:// on the endpoint, the CA in PEM, the same CA downloadable.
    const conn = (await api.connection(id)).body;
    expect(conn.tls).toBe('required');
    expect(conn.tlsClientAuth).toBe('required');
    expect(conn.uri.startsWith(`rediss://`)).toBe(true);
    expect(new URL(conn.uri).hostname).toBe(stack.endpointHost);
    const ca = conn.caCertificate!;
    expect(new X509Certificate(ca).ca).toBe(true);
    const download = await fetch(`${api.url}/v1/clusters/${id}/ca.pem`, { headers: { authorization: `Bearer ${api.token}` } });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toContain('application/x-pem-file');
    expect(download.headers.get('content-disposition')).toBe('attachment; filename="ca.pem"');
    expect(await download.text()).toBe(ca);
    const client = await issueClientCertificate(id, 'orders-app');
    phase('client certificate issued');

    // Every instance: plain text on its port and on its bus port gets no reply; TLS verified by the CA names its node's address and the endpoint.
    for (const inst of topology.shards.flatMap((s) => s.instances)) {
      const { host, port } = split(inst.address);
      expect(await plainPing(host, port)).not.toMatch(/^[+-]/);
      expect(await plainPing(host, port + 10000)).toBe('');
      const sans = await handshake(host, port, ca);
      expect(sans).toContain(`IP Address:${host}`);
      expect(sans).toContain(`IP Address:${stack.endpointHost}`);
      // The cluster bus speaks TLS too (a handshake with the CA completes there).
      await handshake(host, port + 10000, ca);
      // Without the cluster's CA, the certificate is not trusted.
      await expect(handshake(host, port)).rejects.toThrow(/self[- ]signed|unable to (get|verify)/i);
      // With the CA but no client certificate, the instance refuses the handshake: no reply.
      const refused = await withoutCertificate(host, port, ca);
      expect(refused.reply).toBe('');
      expect(refused.error).toMatch(/certificate required|alert/i);
    }
    // An application with only the CA gets nothing done, through the endpoint either.
    const caOnly = new Redis({
      host: stack.endpointHost, port: Number(new URL(conn.uri).port), username: conn.username, password: conn.password, tls: { ca },
      lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 1000,
    });
    caOnly.on('error', () => {});
    // Refused at the handshake, or (seen under load) left with a connection the endpoint closed that ioredis never
    // settles: either way no PING is answered within 5 s.
    const noReply = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no reply within 5 s')), 5000));
    await expect(Promise.race([caOnly.connect().then(() => caOnly.ping()), noReply])).rejects.toThrow();
    caOnly.disconnect();
    phase('handshakes checked on every instance');

    // Through the endpoint (TLS passes through it) with the CA: every shard written and read; replicas acknowledge over TLS replication.
    const app = tlsClient(conn.uri, ca, client);
    await loadKeys(app, 'k', KEYS, 1);
    expect(await countPresent(app, 'k', KEYS)).toBe(KEYS);
    for (const node of app.nodes('master')) expect(Number(await node.dbsize())).toBeGreaterThan(KEYS / 6);
    // The customer user over a standalone TLS connection to a replica: it holds its share (replication over TLS, the only port).
    const replica = topology.shards[0]!.instances.find((i) => i.role === 'replica')!;
    const r = new Redis({ ...split(replica.address), username: conn.username, password: conn.password, tls: { ca, ...client }, lazyConnect: true, maxRetriesPerRequest: 0 });
    await r.connect();
    expect(Number(await r.dbsize())).toBeGreaterThan(KEYS / 6);
    expect(await r.info('replication')).toMatch(/master_link_status:up/);
    r.disconnect();
    phase('keys loaded');

    // kill -9 of a primary with a writer running: the replica takes over over TLS, nothing acknowledged lost.
    const writer = new DurableWriter(tlsClient(conn.uri, ca, client), 'w', 1).start();
    await new Promise((res) => setTimeout(res, 300));
    const victim = primaryOf(topology, 1);
    process.kill(enginePid(victim.address), 'SIGKILL');
    await api.waitForEvent(id, 'failover', (e) => e.shard === 1);
    await api.waitForHealthy(id, 90_000);
    await new Promise((res) => setTimeout(res, 300));
    await writer.stop();
    expect(writer.acked.length).toBeGreaterThan(10);
    expect(await writer.lost(app)).toEqual([]);
    expect(await countPresent(app, 'k', KEYS)).toBe(KEYS);
    console.log(`failover over TLS: ${writer.acked.length} acknowledged writes, longest gap ${writer.longestGapMs} ms`);
    phase('failover');
    // The old primary, back as a replica, becomes primary again (a switchover over TLS, once the cluster has been healthy
    // for STRATA_REBALANCE_AFTER_MS): every later phase starts from the placement as created.
    await api.pollUntil(async () => {
      const t = await api.waitForHealthy(id, 60_000);
      return t.shards.every((sh) => sh.instances.every((i) => i.role === i.preferredRole)) ? t : undefined;
    }, 60_000, () => 'the primaries did not move back to where they were placed');
    phase('primaries moved back');

    // A backup over TLS (the snapshot streamed over the replication protocol on a TLS connection), restored into a new TLS cluster with its own CA.
    const backupStarted = await api.call<BackupResponse>('POST', `/v1/clusters/${id}/backups`, {});
    expect(backupStarted.status, JSON.stringify(backupStarted.body)).toBe(202);
    const backup = await api.pollUntil(async () => {
      const b = (await api.call<BackupResponse>('GET', `/v1/backups/${backupStarted.body.backup.id}`)).body.backup;
      if (b.status === 'failed') throw new Error(`backup failed: ${JSON.stringify(b.error)}`);
      return b.status === 'completed' ? b : undefined;
    }, 60_000, () => 'the backup did not complete');
    const restored = await api.createCluster({ name: 'secure-restored', shards: 3, replicasPerShard: 0, memoryMbPerShard: 64, tls: 'required', restoreFrom: { backupId: backup.id } });
    expect(restored.status, JSON.stringify(restored.body)).toBe(202);
    await api.waitForHealthy(restored.body.cluster.id, 90_000);
    const rconn = (await api.connection(restored.body.cluster.id)).body;
    expect(rconn.caCertificate).not.toBe(ca);
    const rclient = tlsClient(rconn.uri, rconn.caCertificate!);
    expect(await countPresent(rclient, 'k', KEYS)).toBe(KEYS);
    rclient.disconnect();
    await api.deleteCluster(restored.body.cluster.id);
    await api.waitForGone(restored.body.cluster.id);
    phase('backup restored into a new cluster');

    // Diagnostics over TLS: a slow command shows in the merged slow log of every instance; a key scan reads every shard.
    await app.eval('local i = 0 while i < 4000000 do i = i + 1 end return i', 1, 'slow:key');
    const slow = await api.call<SlowLog>('GET', `/v1/clusters/${id}/diagnostics/slowlog`);
    expect(slow.status).toBe(200);
    expect(slow.body.sources.length).toBe(6);
    expect(slow.body.sources.every((s) => s.ok), JSON.stringify(slow.body.sources)).toBe(true);
    expect(slow.body.entries.filter((e) => e.command === 'EVAL')).toHaveLength(1);
    const scanStarted = await api.call<KeyScan>('POST', `/v1/clusters/${id}/diagnostics/key-scans`, { topN: 3 });
    expect(scanStarted.status, JSON.stringify(scanStarted.body)).toBe(202);
    const scan = await api.pollUntil(async () => {
      const s = (await api.call<KeyScan>('GET', `/v1/clusters/${id}/diagnostics/key-scans/${scanStarted.body.id}`)).body;
      return s.status === 'running' ? undefined : s;
    }, 60_000, () => 'the key scan did not finish');
    expect(scan.status, JSON.stringify(scan.shards.map((s) => s.detail))).toBe('completed');
    expect(scan.shards.reduce((n, s) => n + s.result!.keysScanned, 0)).toBeGreaterThanOrEqual(KEYS);
    phase('diagnostics');

    // A database user over TLS: created through the API, applied on every instance, reads with the cluster's CA, refused a write.
    const user = await api.call<DatabaseUserWithPassword>('POST', `/v1/clusters/${id}/users`, { name: 'reader', preset: 'read-only' });
    expect(user.status, JSON.stringify(user.body)).toBe(201);
    await api.pollUntil(async () => {
      const list = (await api.call<DatabaseUserList>('GET', `/v1/clusters/${id}/users`)).body;
      return list.items.every((u) => u.applied) ? list : undefined;
    }, 20_000, () => 'the user was not applied on every instance');
    const readerUri = conn.uri.replace(/^rediss:\/\/[^@]*@/, `rediss://reader:${user.body.password}@`);
    const reader = tlsClient(readerUri, ca, client);
    expect(await reader.get('k:1')).not.toBeNull();
    await expect(reader.set('k:1', 'x')).rejects.toThrow(/NOPERM/);
    reader.disconnect();
    phase('database user');

    // A benchmark over TLS: the js worker threads run it (the native worker speaks plain text only) and say so.
    const bench = await api.call<Benchmark>('POST', `/v1/clusters/${id}/benchmarks`, {
      workload: 'ycsb-c', recordCount: 2000, durationSec: 2, warmupSec: 0, connections: 4, workers: 1, seed: 3,
    });
    expect(bench.status, JSON.stringify(bench.body)).toBe(202);
    const ran = await api.pollUntil(async () => {
      const b = (await api.call<Benchmark>('GET', `/v1/benchmarks/${bench.body.id}`)).body;
      return ['succeeded', 'failed', 'cancelled'].includes(b.state) ? b : undefined;
    }, 60_000, () => 'the benchmark did not finish');
    expect(ran.state, JSON.stringify(ran)).toBe('succeeded');
    const read = ran.result!.ops.find((o) => o.op === 'read')!;
    expect(read.count).toBeGreaterThan(100);
    expect(read.errors).toBe(0);
    expect(read.misses).toBe(0);
    expect(ran.result!.workers[0]).toMatchObject({ engine: 'js', engineNote: expect.stringContaining('TLS') });
    console.log(`ycsb-c over TLS (js workers): ${Math.round(ran.result!.opsPerSec)} ops/s`);
    phase('benchmark');

    // A configuration change hands every instance a fresh certificate, which it serves without a restart.
    const current = (await api.waitForHealthy(id, 60_000)).shards.flatMap((sh) => sh.instances);
    const before = new Map(await Promise.all(current.map(async (i) => [i.address, {
      serial: (await peerCertificate(split(i.address).host, split(i.address).port, ca)).serialNumber, pid: enginePid(i.address),
    }] as const)));
    const change = await api.updateCluster(id, { evictionPolicy: 'allkeys-lru' });
    expect(change.status, JSON.stringify(change.body)).toBe(202);
    const changed = await api.pollUntil(async () => {
      const op = (await api.operation(change.body.operation.id)).body;
      return ['succeeded', 'failed', 'cancelled'].includes(op.state) ? op : undefined;
    }, 60_000, () => 'the configuration change did not finish');
    expect(changed.state, JSON.stringify(changed)).toBe('succeeded');
    for (const [address, was] of before) {
      const { host: h, port: p } = split(address);
      expect((await peerCertificate(h, p, ca)).serialNumber, address).not.toBe(was.serial);
      expect(enginePid(address), address).toBe(was.pid);
    }
    phase('certificates rotated by a configuration change');

    // 3 -> 4 shards: slots move between TLS instances (MIGRATE over tls-cluster, bulk restores over TLS).
    const up = await api.updateCluster(id, { shards: 4 });
    expect(up.status, JSON.stringify(up.body)).toBe(202);
    const four = await api.pollUntil(async () => {
      const op = (await api.operation(up.body.operation.id)).body;
      return ['succeeded', 'failed', 'cancelled'].includes(op.state) ? op : undefined;
    }, 120_000, () => '3 -> 4 did not finish');
    expect(four.state, JSON.stringify(four)).toBe('succeeded');
    const after = await api.waitForHealthy(id, 90_000);
    expect(after.shards).toHaveLength(4);
    const fresh = tlsClient(conn.uri, ca, client);
    expect(await countPresent(fresh, 'k', KEYS)).toBe(KEYS);
    expect(await writer.lost(fresh)).toEqual([]);
    // The client routes to exactly the 4 primaries the API reports (once its slot map settles), and the new one serves TLS only.
    expect(await settledPrimaries(fresh, () => api.primaryAddresses(id))).toHaveLength(4);
    const { host, port } = split(primaryOf(after, 3).address);
    expect(await plainPing(host, port)).not.toMatch(/^[+-]/);
    phase('3 -> 4 shards');

    // A node goes silent (its agent killed, its engines still serving): its replicas are rebuilt on the other nodes, each with a
    // certificate for its new node; a primary there still serves, so it stays primary until the node is back.
    const nodes = (await api.nodes()).body.items;
    const replicas = after.shards.flatMap((s) => s.instances).filter((i) => i.role === 'replica');
    const silent = stack.agents.findIndex((a) => replicas.some((i) => i.nodeId === nodes.find((n) => n.name === a.name)!.id));
    const node = nodes.find((n) => n.name === stack.agents[silent]!.name)!;
    const lost = replicas.filter((i) => i.nodeId === node.id);
    expect(lost.length).toBeGreaterThan(0);
    await stack.stopAgent(silent, 'SIGKILL');
    for (const l of lost) await api.waitForEvent(id, 'replica-rebuilt', (e) => e.lost.instanceId === l.id, 60_000);
    phase('node silent: replica-rebuilt events');
    // The copies' instances serving (the event tells the rebuild began).
    const rebuilt = await api.pollUntil(async () => {
      const all = (await api.topology(id)).body.shards.flatMap((s) => s.instances);
      const fresh = all.filter((i) => !after.shards.some((s) => s.instances.some((x) => x.id === i.id)));
      return fresh.length === lost.length && fresh.every((i) => i.health === 'healthy') ? fresh : undefined;
    }, 60_000, () => 'the rebuilt replicas are not healthy');
    phase('rebuilt replicas healthy');
    for (const inst of rebuilt) {
      const at = split(inst.address);
      expect(await plainPing(at.host, at.port)).not.toMatch(/^[+-]/);
      expect(await handshake(at.host, at.port, ca)).toContain(`IP Address:${at.host}`);
    }
    expect(await countPresent(fresh, 'k', KEYS)).toBe(KEYS);
    await stack.startAgent(silent);
    await api.waitForHealthy(id, 60_000);
    phase('node back, cluster healthy');

    fresh.disconnect();
    app.disconnect();
    writer['client'].disconnect();
    // One long scenario (a create, a failover, a backup restored into another cluster, a reshard, a node lost and rebuilt):
    // about 40 s alone, 75-120 s beside the rest of npm test on two cores; each phase logs its time.
  }, 420_000);

  it('renews certificates before they expire without a restart: a client with only the CA keeps working, one event per instance, the expiry gauge moves', async () => {
    const created = await api.createCluster({ name: 'rotating', shards: 1, replicasPerShard: 1, memoryMbPerShard: 32, tls: 'required' });
    expect(created.status, JSON.stringify(created.body)).toBe(202);
    const id = created.body.cluster.id;
    const instances = (await api.waitForHealthy(id, 90_000)).shards.flatMap((sh) => sh.instances);
    const conn = (await api.connection(id)).body;
    const ca = conn.caCertificate!;
    const served = (address: string) => peerCertificate(split(address).host, split(address).port, ca);
    const before = new Map(await Promise.all(instances.map(async (i) => [i.address, { cert: await served(i.address), pid: enginePid(i.address) }] as const)));
    const metricsToken = readFileSync(path.join(stack.dir, 'metrics-token'), 'utf8').trim();
    const gauge = () => api.pollUntil(async () => {
      const text = await (await fetch(`${stack.url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })).text();
      const m = new RegExp(`^strata_cluster_tls_certificate_expiry_timestamp_seconds\\{cluster="rotating",cluster_id="${id}"\\} (\\d+)$`, 'm').exec(text);
      return m ? Number(m[1]) : undefined;
    }, 10_000, () => 'no certificate expiry gauge for the cluster');
    const earliest = Math.min(...[...before.values()].map((b) => Date.parse(b.cert.validTo) / 1000));
    expect(await gauge()).toBe(earliest);

    // A writer whose connections were opened before the rotation, with nothing but the CA.
    const writer = new DurableWriter(tlsClient(conn.uri, ca), 'rot', 1).start();
    await new Promise((res) => setTimeout(res, 300));
    // A 400-day window: every certificate issued so far (397 days) is due, exactly once (a fresh one is valid for 800 days).
    await stack.stopControlPlane();
    await stack.startControlPlane({ STRATA_TLS_RENEW_BEFORE_DAYS: '400' });
    const events = await Promise.all(instances.map((i) => api.waitForEvent(id, 'certificate-rotated', (e) => e.instance.instanceId === i.id, 60_000)));
    await new Promise((res) => setTimeout(res, 300));
    await writer.stop();
    expect(writer.errors).toBe(0);
    expect(writer.acked.length).toBeGreaterThan(10);

    for (const [address, was] of before) {
      const now = await served(address);
      expect(now.serialNumber, address).not.toBe(was.cert.serialNumber);
      expect(Date.parse(now.validTo) - Date.parse(was.cert.validTo), address).toBeGreaterThan(300 * 86_400_000);
      expect(enginePid(address), address).toBe(was.pid);
      const event = events.find((e) => e.instance.address === address)!;
      expect(Date.parse(event.previousExpiresAt)).toBe(Date.parse(was.cert.validTo));
      expect(Date.parse(event.expiresAt)).toBe(Date.parse(now.validTo));
    }
    expect(await gauge()).toBe(Math.min(...events.map((e) => Date.parse(e.expiresAt) / 1000)));
    // The agents' own connections (opened before the reload) still observe every instance.
    await api.waitForHealthy(id, 30_000);
    // A client connecting now (the new certificates) with only the CA reads every acknowledged write.
    const fresh = tlsClient(conn.uri, ca);
    expect(await writer.lost(fresh)).toEqual([]);
    // Renewed once: a few passes later there is still one event per instance.
    await new Promise((res) => setTimeout(res, 2000));
    const rotated = (await api.events(id, '?limit=200')).body.items.filter((e) => e.type === 'certificate-rotated');
    expect(rotated).toHaveLength(instances.length);
    console.log(`certificate rotation: ${instances.length} instances renewed without a restart; writer ${writer.acked.length} acknowledged writes, longest gap ${writer.longestGapMs} ms`);

    // Client certificates optional, then required, in place: no restart. Optional: a new client with only the CA and one with an
    // issued certificate both get in. Required: open connections stay, a new one with only the CA is refused, one with an issued
    // certificate reads every acknowledged write; Strata's own new connections present theirs.
    const client = await issueClientCertificate(id, 'rotating-app');
    const setClientAuth = async (mode: 'optional' | 'required') => {
      const change = await api.updateCluster(id, { tlsClientAuth: mode });
      expect(change.status, JSON.stringify(change.body)).toBe(202);
      const changed = await api.pollUntil(async () => {
        const op = (await api.operation(change.body.operation.id)).body;
        return ['succeeded', 'failed', 'cancelled'].includes(op.state) ? op : undefined;
      }, 60_000, () => `the client certificate change to ${mode} did not finish`);
      expect(changed.state, JSON.stringify(changed)).toBe('succeeded');
      expect((await api.connection(id)).body.tlsClientAuth).toBe(mode);
    };
    await setClientAuth('optional');
    const caOnlyOptional = tlsClient(conn.uri, ca);
    const withCertOptional = tlsClient(conn.uri, ca, client);
    expect(await writer.lost(caOnlyOptional)).toEqual([]);
    await withCertOptional.set('during-optional', '1');
    expect(await caOnlyOptional.get('during-optional')).toBe('1');
    for (const i of instances) {
      expect(enginePid(i.address), i.address).toBe(before.get(i.address)!.pid);
      // Optional still verifies what is presented: a certificate from another CA is refused at the handshake.
      const stranger = await withForeignCertificate(split(i.address).host, split(i.address).port, ca);
      expect(stranger.reply, i.address).toBe('');
    }
    caOnlyOptional.disconnect();
    withCertOptional.disconnect();
    await setClientAuth('required');
    for (const i of instances) {
      expect(enginePid(i.address), i.address).toBe(before.get(i.address)!.pid);
      expect((await withoutCertificate(split(i.address).host, split(i.address).port, ca)).reply, i.address).toBe('');
    }
    expect(await fresh.get(writer.acked[0]!)).not.toBeNull();
    const mutual = tlsClient(conn.uri, ca, client);
    expect(await writer.lost(mutual)).toEqual([]);
    await mutual.set('after-mtls', '1');

    // Revocation: a second certificate works, then is revoked while a writer with the first one runs. Within seconds every
    // instance refuses it at the handshake (its issuer dropped from their trust, no restart); the first one still connects,
    // and the writer loses nothing.
    const doomed = await issueClientCertificate(id, 'rotating-doomed');
    const before2 = tlsClient(conn.uri, ca, doomed);
    await before2.set('doomed-was-here', '1');
    before2.disconnect();
    const validWriter = new DurableWriter(tlsClient(conn.uri, ca, client), 'valid', 1).start();
    await new Promise((res) => setTimeout(res, 300));
    const revokeStarted = Date.now();
    const revoked = await api.call<ClientCertificate>('POST', `/v1/clusters/${id}/client-certificates/${doomed.id}/revoke`);
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
    expect(revoked.body.revokedAt).not.toBeNull();
    const listedRevoked = await clientCertificateApplied(id, doomed.id);
    const revokedInMs = Date.now() - revokeStarted;
    expect(listedRevoked.revokedAt).toBe(revoked.body.revokedAt);
    for (const i of instances) {
      const at = split(i.address);
      const refusedRevoked = await handshakeAndPing(at.host, at.port, { ca, cert: doomed.cert, key: doomed.key });
      expect(refusedRevoked.reply, i.address).toBe('');
      const kept = await handshakeAndPing(at.host, at.port, { ca, cert: client.cert, key: client.key });
      expect(kept.reply, i.address).toMatch(/^-NOAUTH/);
      expect(enginePid(i.address), i.address).toBe(before.get(i.address)!.pid);
    }
    const keptClient = tlsClient(conn.uri, ca, client);
    expect(await keptClient.get('doomed-was-here')).toBe('1');
    await new Promise((res) => setTimeout(res, 300));
    await validWriter.stop();
    expect(validWriter.errors).toBe(0);
    expect(validWriter.acked.length).toBeGreaterThan(10);
    expect(await validWriter.lost(keptClient)).toEqual([]);
    const revokedEvent = await api.waitForEvent(id, 'client-certificate-revoked', (e) => e.certificateId === doomed.id);
    expect(revokedEvent.serialNumber).toBe(listedRevoked.serialNumber);
    // Revoking again changes nothing; an unknown certificate is a 404.
    const again = await api.call<ClientCertificate>('POST', `/v1/clusters/${id}/client-certificates/${doomed.id}/revoke`);
    expect(again.status).toBe(200);
    expect(again.body.revokedAt).toBe(revoked.body.revokedAt);
    const unknown = await api.call<{ code: string }>('POST', `/v1/clusters/${id}/client-certificates/00000000-0000-4000-8000-000000000000/revoke`);
    expect(unknown.status).toBe(404);
    console.log(`client certificate revoked and refused by every instance ${revokedInMs} ms after the call; writer with a kept certificate ${validWriter.acked.length} acknowledged writes, longest gap ${validWriter.longestGapMs} ms`);
    keptClient.disconnect();
    validWriter['client'].disconnect();

    // CA rotation in place, with a writer whose connections trust only the old CA: the new CA is trusted beside the old one, every
    // instance serves a certificate from it (chained to the old one meanwhile), the old one is retired; no restart, no write lost.
    // Afterwards only a client with the new CA gets in; client certificates issued before keep working.
    const rotationWriter = new DurableWriter(tlsClient(conn.uri, ca, client), 'rotca', 1).start();
    await new Promise((res) => setTimeout(res, 300));
    const rotation = await api.call<{ operation: { id: string } }>('POST', `/v1/clusters/${id}/tls/rotate-ca`, { retireAfterSeconds: 0 });
    expect(rotation.status, JSON.stringify(rotation.body)).toBe(202);
    const bundle = (await api.connection(id)).body.caCertificate!;
    expect(bundle.match(/BEGIN CERTIFICATE/g)).toHaveLength(2);
    expect(bundle).toContain(ca);
    const rotatedOp = await api.pollUntil(async () => {
      const op = (await api.operation(rotation.body.operation.id)).body;
      return ['succeeded', 'failed', 'cancelled'].includes(op.state) ? op : undefined;
    }, 60_000, () => 'the CA rotation did not finish');
    expect(rotatedOp.state, JSON.stringify(rotatedOp)).toBe('succeeded');
    expect(rotatedOp.steps.map((s) => s.state)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded']);
    const newCa = (await api.connection(id)).body.caCertificate!;
    expect(newCa.match(/BEGIN CERTIFICATE/g)).toHaveLength(1);
    expect(newCa).not.toBe(ca);
    expect(bundle).toContain(newCa);
    const downloaded = await (await fetch(`${api.url}/v1/clusters/${id}/ca.pem`, { headers: { authorization: `Bearer ${api.token}` } })).text();
    expect(downloaded).toBe(newCa);
    for (const i of instances) {
      const at = split(i.address);
      expect((await peerCertificate(at.host, at.port, newCa)).checkIssued(new X509Certificate(newCa)), i.address).toBe(true);
      await expect(handshake(at.host, at.port, ca), i.address).rejects.toThrow(/unable to (get|verify)|self[- ]signed/i);
      expect(enginePid(i.address), i.address).toBe(before.get(i.address)!.pid);
    }
    await new Promise((res) => setTimeout(res, 300));
    await rotationWriter.stop();
    expect(rotationWriter.errors).toBe(0);
    expect(rotationWriter.acked.length).toBeGreaterThan(10);
    const afterRotation = tlsClient(conn.uri, newCa, client);
    expect(await rotationWriter.lost(afterRotation)).toEqual([]);
    expect(await writer.lost(afterRotation)).toEqual([]);
    // Strata's own new connections verify the new CA and present a certificate the instances still trust.
    const slowAfter = await api.call<SlowLog>('GET', `/v1/clusters/${id}/diagnostics/slowlog`);
    expect(slowAfter.body.sources.every((x) => x.ok), JSON.stringify(slowAfter.body.sources)).toBe(true);
    await api.waitForHealthy(id, 30_000);
    console.log(`CA rotated in ${Date.parse(rotatedOp.finishedAt!) - Date.parse(rotatedOp.createdAt)} ms without a restart; writer trusting the old CA ${rotationWriter.acked.length} acknowledged writes, longest gap ${rotationWriter.longestGapMs} ms`);
    afterRotation.disconnect();
    rotationWriter['client'].disconnect();

    // A rotation that keeps the old CA trusted for an hour does not stop healing meanwhile: the primary of this one-shard
    // cluster (Redis cannot fail it over alone: no other primary votes) killed while the rotation waits is replaced by
    // its replica, and a writer with the new CA keeps every acknowledged write.
    const patient = await api.call<{ operation: { id: string } }>('POST', `/v1/clusters/${id}/tls/rotate-ca`, { retireAfterSeconds: 3600 });
    expect(patient.status, JSON.stringify(patient.body)).toBe(202);
    await api.pollUntil(async () => {
      const op = (await api.operation(patient.body.operation.id)).body;
      return op.steps[2]?.state === 'running' ? op : undefined;
    }, 60_000, () => 'the second rotation did not reach its wait for retiring the old CA');
    const waitingCa = (await api.connection(id)).body.caCertificate!;
    const healWriter = new DurableWriter(tlsClient(conn.uri, waitingCa, client), 'rotheal', 1).start();
    await new Promise((res) => setTimeout(res, 300));
    const primary = (await api.topology(id)).body.shards[0]!.instances.find((i) => i.role === 'primary')!;
    process.kill(enginePid(primary.address), 'SIGKILL');
    const failover = await api.waitForEvent(id, 'failover', (e) => e.oldPrimary.address === primary.address, 30_000);
    expect((await api.operation(patient.body.operation.id)).body.state).toBe('running');
    await api.waitForHealthy(id, 60_000);
    await new Promise((res) => setTimeout(res, 300));
    await healWriter.stop();
    expect(healWriter.acked.length).toBeGreaterThan(10);
    const reader = tlsClient(conn.uri, waitingCa, client);
    expect(await healWriter.lost(reader)).toEqual([]);
    reader.disconnect();
    console.log(`primary killed while a rotation waited to retire the old CA: ${failover.cause} failover to ${failover.newPrimary.address}; writer ${healWriter.acked.length} acknowledged, longest gap ${healWriter.longestGapMs} ms`);
    healWriter['client'].disconnect();
    // Strata's own new connections (the slow log opens one per instance) present the certificate the control plane issued.
    const slow = await api.call<SlowLog>('GET', `/v1/clusters/${id}/diagnostics/slowlog`);
    expect(slow.body.sources.every((x) => x.ok), JSON.stringify(slow.body.sources)).toBe(true);
    await api.waitForHealthy(id, 30_000);
    mutual.disconnect();
    fresh.disconnect();
    writer['client'].disconnect();
  });

  it('a cluster without TLS has no CA to download', async () => {
    const created = await api.createCluster({ name: 'plain', shards: 1, replicasPerShard: 0, memoryMbPerShard: 16 });
    expect(created.body.cluster.spec.tls).toBe('off');
    const res = await api.call<{ code: string }>('GET', `/v1/clusters/${created.body.cluster.id}/ca.pem`);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('tls_off');
    const conn = (await api.connection(created.body.cluster.id)).body;
    expect(conn.uri.startsWith('redis://')).toBe(true);
    expect(conn.caCertificate).toBeNull();
    const bad = await api.createCluster({ name: 'bad-tls', shards: 1, replicasPerShard: 0, tls: 'sometimes' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('tls');
    // No CA, no client certificates: 422 naming tls; requiring them without TLS is refused naming tlsClientAuth.
    const cert = await api.call<{ code: string; errors: { field: string }[] }>('POST', `/v1/clusters/${created.body.cluster.id}/client-certificates`, { name: 'app' });
    expect(cert.status).toBe(422);
    expect(cert.body.code).toBe('tls_off');
    expect(cert.body.errors.map((e) => e.field)).toEqual(['tls']);
    const mtlsWithoutTls = await api.createCluster({ name: 'bad-mtls', shards: 1, replicasPerShard: 0, tlsClientAuth: 'required' });
    expect(mtlsWithoutTls.status).toBe(400);
    expect(JSON.stringify(mtlsWithoutTls.body)).toContain('"field":"tlsClientAuth"');
    await api.waitForHealthy(created.body.cluster.id, 60_000);
    const patch = await api.updateCluster(created.body.cluster.id, { tlsClientAuth: 'required' });
    expect(patch.status).toBe(400);
    expect(JSON.stringify(patch.body)).toContain('"field":"tlsClientAuth"');
    const badName = await api.call<{ errors: { field: string }[] }>('POST', `/v1/clusters/${created.body.cluster.id}/client-certificates`, { name: 'has space' });
    expect(badName.status).toBe(400);
    expect(badName.body.errors.map((e) => e.field)).toContain('name');
  });
});
