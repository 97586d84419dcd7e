/**
 * Nodes as hosts: every node in its own network namespace on a private bridge, the control plane
 * reached only over it. A cluster forms across the hosts and serves a client; a host cut off the
 * network (link down) while a client writes loses its primaries to Redis's own failover on the
 * majority side, and no write acknowledged by a replica (WAIT 1) before the cut is lost; with write
 * fencing, a primary cut off from its replica refuses writes within the fencing lag; the clusters'
 * endpoint is a floating address (VRRP) that outlives the host holding it, for a client on the
 * client host that has only the URI; the stop removes every namespace and link it made.
 */
import { execFileSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster as RedisCluster, Redis } from 'ioredis';
import type { Cluster, Connection, ClusterEventList } from '@strata/api';
import { loopbackPrefix, startStack, type Stack } from '../src';
import { existingNamespaces, floatingAddressHolders, hostSubnet, runOnClientHost, setHostLink, spawnOnClientHost } from '../src/host-network';
import { REPO_ROOT } from '../src/process';
import { keepalivedProcessesUnder } from '../src/leftovers';
import { inject } from '../src/nemesis';
import { runChaos } from '../src/chaos/run';

const dir = mkdtempSync(path.join(os.tmpdir(), 'strata-hosts-'));
const { tag, subnet } = hostSubnet(loopbackPrefix('127.0.65'));
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ endWithLauncher: true,
    dir, addressPrefix: '127.0.65', port: 0, fastPostgres: true, nodes: 3, network: 'netns',
    // A silent node is offline after 2 s and down after 4 s: faults longer than that show what the control plane does.
    extraEnv: { STRATA_NODE_OFFLINE_AFTER_MS: '2000', STRATA_NODE_DOWN_AFTER_MS: '4000' },
  });
}, 90_000);
afterAll(async () => {
  await stack?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function api<T>(method: string, p: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`${stack.url}${p}`, {
    method, headers: { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as T };
}
const listening = (ns?: string) => execFileSync(ns ? 'ip' : 'ss', ns ? ['netns', 'exec', ns, 'ss', '-ltnH'] : ['-ltnH'], { encoding: 'utf8' });

describe('nodes in network namespaces', () => {
  it('runs each node on its own address, reached only over the bridge, and serves a cluster across them', async () => {
    expect(stack.url.startsWith(`http://${subnet}.1:`)).toBe(true);
    const net = stack.hostNetwork!;
    expect(net.hosts.map((h) => h.address)).toEqual([`${subnet}.11`, `${subnet}.12`, `${subnet}.13`]);
    const created = await api<{ cluster: Cluster }>('POST', '/v1/clusters', { name: 'hosts', shards: 3, replicasPerShard: 1, memoryMbPerShard: 32 });
    expect(created.status).toBe(202);
    const id = created.body.cluster.id;
    await expect.poll(async () => (await api<Cluster>('GET', `/v1/clusters/${id}`)).body.status.phase, { timeout: 60_000, interval: 300 }).toBe('ready');
    // Each host's engines listen inside its own namespace, on its own address; the root namespace does not see them.
    for (const h of net.hosts) expect(listening(h.ns)).toContain(`${h.address}:`);
    expect(listening()).not.toContain(`${subnet}.11:`);

    const conn = (await api<Connection>('GET', `/v1/clusters/${id}/connection`)).body;
    const u = new URL(conn.uri);
    expect(u.hostname.startsWith(`${subnet}.`)).toBe(true);
    const client = new RedisCluster([{ host: u.hostname, port: Number(u.port) }], {
      redisOptions: { username: decodeURIComponent(u.username), password: decodeURIComponent(u.password), connectTimeout: 1000, commandTimeout: 2000 },
      clusterRetryStrategy: (n) => (n > 60 ? null : 200),
      // A host cut off closes no connection: without a periodic refresh ioredis would keep sending to the old primary.
      slotsRefreshInterval: 1000,
    });
    try {
      // Keys acknowledged by a replica (WAIT 1 on the key's primary) before the fault.
      const keys = Array.from({ length: 300 }, (_, i) => `k:${i}`);
      for (const k of keys) await client.set(k, k);
      // WAIT on each primary's connection (the one its SETs went over): its replica has every one of them.
      for (const n of client.nodes('master')) expect(await n.call('WAIT', '1', '5000')).toBe(1);

      // Cut off the host of one primary while a writer runs.
      const victimAddress = client.nodes('master')[0]!.options.host!;
      const victim = net.hosts.findIndex((h) => h.address === victimAddress);
      expect(victim).toBeGreaterThanOrEqual(0);
      let writing = true;
      let acked = 0;
      const writer = (async () => {
        for (let i = 0; writing; i++) {
          try {
            await client.set(`w:${i}`, String(i));
            acked++;
          } catch { /* the cut shard is unavailable for a moment */ }
        }
      })();
      await new Promise((r) => setTimeout(r, 300));
      setHostLink(net, victim, false);
      let lastError = '';
      try {
        // Redis's own failover promotes the replicas of the cut host's primaries; every key is readable again.
        await expect.poll(async () => {
          try {
            const values = await Promise.all(keys.map((k) => client.get(k)));
            return values.filter((v, i) => v === keys[i]).length;
          } catch (err) {
            lastError = (err as Error).message;
            return -1;
          }
        }, { timeout: 30_000, interval: 500 }).toBe(keys.length);
        await expect.poll(async () => (await api<ClusterEventList>('GET', `/v1/clusters/${id}/events?limit=50`)).body.items.some((e) => e.type === 'failover'),
          { timeout: 20_000, interval: 500 }).toBe(true);
      } catch (err) {
        const topo = await api<unknown>('GET', `/v1/clusters/${id}/topology`);
        throw new Error(`${(err as Error).message}; last read error: ${lastError}; topology: ${JSON.stringify(topo.body).slice(0, 3000)}`);
      } finally {
        writing = false;
        await writer;
        setHostLink(net, victim, true);
      }
      expect(acked).toBeGreaterThan(0);
    } finally {
      client.disconnect();
    }
  }, 120_000);

  it('a host cut from the control plane keeps serving: no promotion, no failed write, no loss', async () => {
    const net = stack.hostNetwork!;
    const created = await api<{ cluster: Cluster }>('POST', '/v1/clusters', { name: 'cut-cp', shards: 3, replicasPerShard: 1, memoryMbPerShard: 32 });
    const id = created.body.cluster.id;
    await expect.poll(async () => (await api<Cluster>('GET', `/v1/clusters/${id}`)).body.status.phase, { timeout: 60_000, interval: 300 }).toBe('ready');
    const conn = (await api<Connection>('GET', `/v1/clusters/${id}/connection`)).body;
    const u = new URL(conn.uri);
    const client = new RedisCluster([{ host: u.hostname, port: Number(u.port) }], {
      redisOptions: { username: decodeURIComponent(u.username), password: decodeURIComponent(u.password), connectTimeout: 1000, commandTimeout: 2000 },
      clusterRetryStrategy: (n) => (n > 60 ? null : 200),
    });
    try {
      const victimAddress = client.nodes('master')[0]?.options.host ?? (await client.set('probe', '1'), client.nodes('master')[0]!.options.host!);
      const victim = net.hosts.findIndex((h) => h.address === victimAddress);
      const before = (await api<ClusterEventList>('GET', `/v1/clusters/${id}/events?limit=100`)).body.items.length;
      let written = 0;
      let failed = 0;
      const fault = inject(net, { fault: 'cut-control-plane', host: victim, seconds: 10, controlPlanePort: Number(new URL(stack.url).port) });
      const until = Date.now() + 10_000;
      while (Date.now() < until) {
        try {
          await client.set(`cut:${written}`, String(written));
          written++;
        } catch {
          failed++;
        }
      }
      await fault.healed;
      expect(failed).toBe(0);
      let found = 0;
      for (let i = 0; i < written; i += 200) {
        const batch = await Promise.all(Array.from({ length: Math.min(200, written - i) }, (_, j) => client.get(`cut:${i + j}`)));
        found += batch.filter((v, j) => v === String(i + j)).length;
      }
      expect(found).toBe(written);
      const events = (await api<ClusterEventList>('GET', `/v1/clusters/${id}/events?limit=100`)).body.items;
      const during = events.slice(0, events.length - before);
      // The node was declared down (4 s here) and a replica it held may be rebuilt elsewhere, but its primary, which
      // kept serving, was not failed over.
      expect(during.some((e) => e.type === 'node-down')).toBe(true);
      expect(during.filter((e) => e.type === 'failover')).toEqual([]);
    } finally {
      client.disconnect();
    }
  }, 120_000);

  it('write fencing: a one-shard primary cut off from its replica, with a client still writing to it, refuses writes within the fencing lag; nothing acknowledged with WAIT 1 is lost', async () => {
    const net = stack.hostNetwork!;
    // One shard: its primary is the whole majority, so Redis alone would keep acknowledging writes for as long as the split lasts.
    const refused = await api<{ code: string; errors: { field: string }[] }>('POST', '/v1/clusters', { name: 'fenced-0', shards: 1, replicasPerShard: 0, memoryMbPerShard: 32, fencing: 'on' });
    expect(refused.status).toBe(400);
    expect(refused.body.errors.map((e) => e.field)).toEqual(['fencing']);
    const created = await api<{ cluster: Cluster }>('POST', '/v1/clusters', { name: 'fenced', shards: 1, replicasPerShard: 1, memoryMbPerShard: 32, fencing: 'on' });
    expect(created.status).toBe(202);
    const id = created.body.cluster.id;
    await expect.poll(async () => (await api<Cluster>('GET', `/v1/clusters/${id}`)).body.status.phase, { timeout: 60_000, interval: 300 }).toBe('ready');
    const cluster = (await api<Cluster>('GET', `/v1/clusters/${id}`)).body;
    expect(cluster.spec.fencing).toBe('on');
    const conn = (await api<Connection>('GET', `/v1/clusters/${id}/connection`)).body;
    const u = new URL(conn.uri);
    const topo = (await api<{ shards: { instances: { address: string; role: string }[] }[] }>('GET', `/v1/clusters/${id}/topology`)).body;
    const primary = topo.shards[0]!.instances.find((i) => i.role === 'primary')!.address;
    const [host, port] = primary.split(':');
    // A client on this machine, talking to the primary directly: the minority fault leaves it reachable from here.
    const client = new Redis({ host, port: Number(port), username: decodeURIComponent(u.username), password: decodeURIComponent(u.password), connectTimeout: 1000, commandTimeout: 3000, maxRetriesPerRequest: 0 });
    client.on('error', () => {});
    const victim = net.hosts.findIndex((h) => h.address === host);
    let admin: Redis | undefined;
    try {
      const durable: string[] = [];
      for (let i = 0; i < 200; i++) {
        await client.set(`d:${i}`, String(i));
        if (Number(await client.call('WAIT', '1', '1000')) === 1) durable.push(`d:${i}`);
      }
      expect(durable).toHaveLength(200);
      const fault = inject(net, { fault: 'minority', host: victim, seconds: 9 });
      const cutAt = fault.startedAt;
      const okAt: number[] = [];
      const errors = new Set<string>();
      let waitAcked = 0;
      for (let i = 0; Date.now() - cutAt < 8000; i++) {
        try {
          await client.set(`p:${i}`, String(i));
          okAt.push(Date.now() - cutAt);
          if (Number(await client.call('WAIT', '1', '200')) === 1) waitAcked++;
        } catch (err) {
          errors.add((err as Error).message.split(' ')[0]!);
          await new Promise((r) => setTimeout(r, 20));
        }
      }
      fault.heal();
      // Refused, not acknowledged, from at most the fencing lag (2 s) plus Redis's once-a-second check on.
      expect(errors).toContain('NOREPLICAS');
      expect(Math.max(...okAt)).toBeLessThan(4000);
      expect(okAt.filter((t) => t > 4000)).toEqual([]);
      // Its replica was cut off too: no write made during the cut was acknowledged with WAIT 1.
      expect(waitAcked).toBe(0);
      // Healed: writes are accepted again, and every key acknowledged with WAIT 1 before is there.
      await expect.poll(async () => client.set('after', '1').then(() => true, () => false), { timeout: 20_000, interval: 300 }).toBe(true);
      const values = await Promise.all(durable.map((k) => client.get(k)));
      expect(values.filter((v, i) => v === String(i))).toHaveLength(durable.length);
      // Turned off in place: the engines follow at once (no restart).
      const off = await api<{ operation: { id: string } }>('PATCH', `/v1/clusters/${id}`, { fencing: 'off' });
      expect(off.status).toBe(202);
      const records = stack.agents.flatMap((a) => JSON.parse(readFileSync(`${a.dir}/instances.json`, 'utf8')) as { spec: { clusterId: string }; credentials: { internalUser: string; internalPassword: string } }[]);
      const creds = records.find((r) => r.spec.clusterId === id)!.credentials;
      admin = new Redis({ host, port: Number(port), username: creds.internalUser, password: creds.internalPassword, connectTimeout: 1000, maxRetriesPerRequest: 0 });
      admin.on('error', () => {});
      await expect.poll(async () => ((await admin!.call('CONFIG', 'GET', 'min-replicas-to-write')) as string[])[1], { timeout: 30_000, interval: 300 }).toBe('0');
    } finally {
      client.disconnect();
      admin?.disconnect();
    }
  }, 120_000);

  it('a chaos run: a primary paused (SIGSTOP) past the node timeout is failed over; nothing acknowledged with WAIT 1 is lost, nothing unexpected or duplicated', async () => {
    const r = await runChaos(stack, { fault: 'pause', mode: 'default', seconds: 4, clients: 2, name: 'chaos-pause' });
    expect(r.ops).toBeGreaterThan(100);
    expect(r.acknowledged.wait).toBeGreaterThan(0);
    expect(r.failovers).toBeGreaterThanOrEqual(1);
    expect(r.readyAfterHealMs).not.toBeNull();
    expect(r.lost.wait).toBe(0);
    expect(r.unexpected).toBe(0);
    expect(r.duplicates).toBe(0);
    // The checker saw the stall: each client waits up to its 1 s command timeout on the paused primary before it
    // appends elsewhere, so with two clients no write is acknowledged for most of a second (a few ms without a fault).
    expect(r.longestGapMs).toBeGreaterThan(500);
  }, 150_000);

  it('the URI outlives the host that holds the endpoint address: a client on the client host, with only the URI, reads back every acknowledged key', async () => {
    const net = stack.hostNetwork!;
    // The client host has the bridge only: one link besides lo, one route (the subnet).
    expect(runOnClientHost(net, 'ip', ['-br', 'link']).trim().split('\n').map((l) => l.split(/[\s@]/)[0]).sort()).toEqual(['eth0', 'lo']);
    expect(runOnClientHost(net, 'ip', ['-4', 'route']).trim()).toBe(`${subnet}.0/24 dev eth0 proto kernel scope link src ${net.client.address}`);
    const created = await api<{ cluster: Cluster }>('POST', '/v1/clusters', { name: 'floating', shards: 3, replicasPerShard: 1, memoryMbPerShard: 32, fencing: 'off' });
    expect(created.status).toBe(202);
    const id = created.body.cluster.id;
    await expect.poll(async () => (await api<Cluster>('GET', `/v1/clusters/${id}`)).body.status.phase, { timeout: 60_000, interval: 300 }).toBe('ready');
    const conn = (await api<Connection>('GET', `/v1/clusters/${id}/connection`)).body;
    expect(new URL(conn.uri).hostname).toBe(net.floatingAddress);
    // One host holds the address, and its agent alone reports serving the endpoint.
    expect(floatingAddressHolders(net)).toHaveLength(1);
    const holder = floatingAddressHolders(net)[0]!;
    await expect.poll(async () => (await api<Connection>('GET', `/v1/clusters/${id}/connection`)).body.endpoint?.servedBy, { timeout: 10_000, interval: 300 })
      .toEqual([stack.agents[holder]!.name]);

    const client = ['--import', 'tsx', 'infra/local/test/fixtures/uri-client.ts'];
    // Its own deadline (45 s) ends it with the reason before this one does.
    const written = JSON.parse(runOnClientHost(net, process.execPath, [...client, 'write', conn.uri, '300', '45000'], { timeoutMs: 60_000, cwd: REPO_ROOT })) as { acked: number };
    expect(written.acked).toBe(300);

    const probe = spawnOnClientHost(net, process.execPath, [...client, 'probe', conn.uri, '300', '30000'], { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
    const lines = createInterface({ input: probe.stdout! });
    const output: string[] = [];
    const exited = new Promise<number | null>((resolve) => probe.once('exit', resolve));
    let during: number[] = [];
    try {
      await new Promise<void>((resolve, reject) => {
        lines.on('line', (l) => { output.push(l); if (l === 'PROBE_READY') resolve(); });
        void exited.then(() => reject(new Error(`the probe exited: ${output.join('\n')}`)));
      });
      setHostLink(net, holder, false);
      probe.stdin!.write('go\n');
      const code = await exited;
      const result = JSON.parse(output.at(-1)!) as { endpointMs: number | null; allKeysMs: number | null; lastError: string };
      console.log(`[floating endpoint] host ${holder + 1} (holding ${net.floatingAddress}) cut: first command through the URI after ${result.endpointMs} ms, `
        + `every acknowledged key read back after ${result.allKeysMs} ms`);
      expect(code, result.lastError).toBe(0);
      // keepalived moves the address after about three missed adverts (0.5 s each); Redis fails the cut primary over.
      expect(result.endpointMs).toBeLessThan(5000);
      expect(result.allKeysMs).toBeLessThan(20_000);
      during = floatingAddressHolders(net);
      expect(during).toHaveLength(1);
      expect(during[0]).not.toBe(holder);
    } finally {
      if (probe.exitCode === null) probe.kill('SIGKILL');
      setHostLink(net, holder, true);
    }
    // Healed: the returning host does not take the address back (no preemption): after longer than a takeover
    // (about 1.6 s), exactly the same one host holds it.
    await new Promise((r) => setTimeout(r, 2000));
    expect(floatingAddressHolders(net)).toEqual(during);
  }, 180_000);

  it('a stop ends every keepalived and removes every namespace and the bridge', async () => {
    expect(existingNamespaces(tag)).toHaveLength(4);
    // keepalived and its VRRP child per host.
    expect(keepalivedProcessesUnder(path.join(dir, 'nodes'))).toHaveLength(6);
    await stack.stop();
    expect(keepalivedProcessesUnder(path.join(dir, 'nodes'))).toEqual([]);
    expect(existingNamespaces(tag)).toEqual([]);
    expect(() => execFileSync('ip', ['link', 'show', `stb${tag}`], { stdio: 'pipe' })).toThrow();
  }, 60_000);
});
