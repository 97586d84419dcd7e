import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { Redis } from 'ioredis';
import * as metrics from '@strata/engine/metrics';
import { observeWith } from '@strata/engine/redis-admin';
import { bucketIndex, keyCount, parseCommandStats, parseInfoFields, replicaOffsets } from '@strata/engine/metrics';
import { scanInfo } from './info-scan';
import { InstanceSampler, infoSection } from './instance-sampler';

vi.mock('@strata/engine/metrics', async (importOriginal) => {
  const real = await importOriginal<typeof import('@strata/engine/metrics')>();
  return { ...real, parseLatencyHistogramReply: vi.fn(real.parseLatencyHistogramReply) };
});

const INFO = readFileSync(path.join(import.meta.dirname, 'testdata/info-primary.txt'), 'utf8');

describe('scanInfo', () => {
  it('reads what the engine\'s full INFO parser reads, from a real reply', () => {
    const f = parseInfoFields(INFO);
    const num = (k: string) => Number(f.get(k) ?? 0);
    const s = scanInfo(INFO);
    expect(s).toMatchObject({
      runId: f.get('run_id'), role: 'primary', clients: num('connected_clients'), usedMemory: num('used_memory'), maxMemory: num('maxmemory'),
      keys: keyCount(f), evicted: num('evicted_keys'), expired: num('expired_keys'), hits: num('keyspace_hits'), misses: num('keyspace_misses'),
      netIn: num('total_net_input_bytes'), netOut: num('total_net_output_bytes'), replicas: replicaOffsets(f),
    });
    expect(s.keys).toBe(2);
    expect(s.replicas).toEqual([{ host: '127.0.0.1', port: 7394, lagBytes: 42 }]);
    expect(s.cpuSeconds).toBeCloseTo(num('used_cpu_sys') + num('used_cpu_user'), 9);
    expect(s.commands).toEqual(parseCommandStats(f));
    expect(s.commands.get('set')).toEqual({ calls: 2, usec: 10 });
  });

  it('keeps the figures of a commandstats line that did not change, and reads a replica\'s role', () => {
    const first = scanInfo(INFO);
    const moved = INFO.replace('cmdstat_get:calls=1,usec=4,', 'cmdstat_get:calls=3,usec=9,').replace('role:master', 'role:slave');
    const second = scanInfo(moved, first);
    expect(second.commands.get('set')).toBe(first.commands.get('set'));
    expect(second.commands.get('get')).toEqual({ calls: 3, usec: 9 });
    expect(second.role).toBe('replica');
  });
});

describe('infoSection', () => {
  it('cuts one section out of a multi-section INFO reply, as INFO <section> answers it', () => {
    const r = infoSection(INFO, 'Replication');
    expect(r.startsWith('# Replication\r\nrole:master\r\n')).toBe(true);
    expect(r.endsWith('\r\n')).toBe(true);
    expect(r).toContain('master_repl_offset:100');
    expect(r).not.toContain('# CPU');
    expect(parseInfoFields(r).get('slave0')).toBe(parseInfoFields(INFO).get('slave0'));
    expect(infoSection(INFO, 'Commandstats')).toContain('cmdstat_get'); // the last section
    expect(infoSection(INFO, 'Nothing')).toBe('');
  });
});

/**
 * A redis-server as the sampler sees it: commandstats and per-command
 * latency histograms (cumulative, power-of-two bounds), which count the
 * sampler's own commands after each one runs, as Redis does.
 */
class FakeRedis {
  runId = 'run-a';
  stats = new Map<string, { calls: number; usec: number }>();
  /** Per command: latency in µs -> calls. */
  latencies = new Map<string, Map<number, number>>();
  sent: string[][] = [];

  run(command: string, n: number, latencyUs: number): void {
    const s = this.stats.get(command) ?? { calls: 0, usec: 0 };
    s.calls += n;
    s.usec += n * latencyUs;
    this.stats.set(command, s);
    const h = this.latencies.get(command) ?? new Map<number, number>();
    h.set(latencyUs, (h.get(latencyUs) ?? 0) + n);
    this.latencies.set(command, h);
  }

  restart(): void {
    this.runId = 'run-b';
    this.stats.clear();
    this.latencies.clear();
  }

  private exec(args: string[]): unknown {
    this.sent.push(args);
    const [cmd, sub, ...rest] = args.map((a) => a.toLowerCase());
    let reply: unknown;
    if (cmd === 'info') {
      const lines = ['# Server', `run_id:${this.runId}`, '# Clients', 'connected_clients:3', '# Replication', 'role:master', 'master_repl_offset:0', '# Commandstats'];
      for (const [name, s] of this.stats) lines.push(`cmdstat_${name}:calls=${s.calls},usec=${s.usec},usec_per_call=${(s.usec / s.calls).toFixed(2)},rejected_calls=0,failed_calls=0`);
      reply = `${lines.join('\r\n')}\r\n`;
    } else if (cmd === 'latency' && sub === 'histogram') {
      const names = rest.length ? rest : [...this.latencies.keys()];
      reply = names.filter((n) => this.latencies.has(n)).flatMap((n) => {
        const h = [...this.latencies.get(n)!].sort((a, b) => a[0] - b[0]);
        let cum = 0;
        const flat = h.flatMap(([us, c]) => [2 ** bucketIndex(us), (cum += c)]);
        return [n, ['calls', this.stats.get(n)!.calls, 'histogram_usec', flat]];
      });
    } else if (cmd === 'cluster' && sub === 'myid') {
      reply = 'a1';
    } else if (cmd === 'cluster' && sub === 'info') {
      reply = 'cluster_state:ok\r\ncluster_known_nodes:2\r\ncluster_slots_assigned:16384\r\n';
    } else if (cmd === 'cluster' && sub === 'nodes') {
      reply = 'a1 127.0.5.1:7100@17100 myself,master - 0 0 3 connected 0-16383\nb2 127.0.5.2:7101@17101 slave a1 0 1700000000000 3 connected\n';
    } else if (cmd === 'command' && sub === 'info') {
      reply = rest.map((n) => [n, -1, n === 'get' ? ['readonly', 'fast'] : n === 'set' ? ['write', 'denyoom'] : ['fast']]);
    } else throw new Error(`unexpected ${args.join(' ')}`);
    // Redis counts a command once it has run.
    const counted = cmd === 'info' ? 'info' : `${cmd}|${sub}`;
    const s = this.stats.get(counted) ?? { calls: 0, usec: 0 };
    this.stats.set(counted, { calls: s.calls + 1, usec: s.usec + 1 });
    return reply;
  }

  client(): Redis {
    const self = this;
    return {
      call: async (...args: string[]) => self.exec(args),
      pipeline() {
        const queued: string[][] = [];
        const p = {
          call: (...args: string[]) => (queued.push(args), p),
          exec: async () => queued.map((a) => [null, self.exec(a)]),
        };
        return p;
      },
    } as unknown as Redis;
  }
}

describe('InstanceSampler', () => {
  const parsed = vi.mocked(metrics.parseLatencyHistogramReply);
  const setup = () => {
    const redis = new FakeRedis();
    const client = redis.client();
    return { redis, sampler: new InstanceSampler({ instanceId: 'i', clusterId: 'c' }, async () => client) };
  };
  const total = (b: number[]) => b.reduce((s, n) => s + n, 0);

  it('on an instance that never served a read or write: INFO only, and its own commands are not counted', async () => {
    const { redis, sampler } = setup();
    redis.run('ping', 5, 1);
    expect(await sampler.sample(1000)).toBeNull();
    redis.run('ping', 2, 1);
    const s = await sampler.sample(2000);
    expect(s).toMatchObject({ reads: 0, writes: 0, others: 2, clients: 3, restarted: false });
    expect(total(s!.latency)).toBe(0);
    // The first reading asked COMMAND INFO for the names it did not know; no LATENCY HISTOGRAM at all.
    expect(redis.sent.filter((a) => a[0] === 'LATENCY')).toHaveLength(0);
    const third = await sampler.sample(3000);
    expect(third).toMatchObject({ reads: 0, writes: 0, others: 0 });
  });

  it('a read or write command seen for the first time has its histogram read at once', async () => {
    const { redis, sampler } = setup();
    await sampler.sample(1000);
    redis.run('get', 100, 3); // (2, 4] µs
    redis.run('set', 10, 100); // (64, 128] µs
    const s = (await sampler.sample(2000))!;
    expect(s).toMatchObject({ reads: 100, writes: 10, others: 0 });
    expect(s.latency[2]).toBe(100);
    expect(s.latency[7]).toBe(10);
    // From now on the histograms come with INFO, in the same round trip.
    redis.sent = [];
    redis.run('get', 7, 3);
    const t = (await sampler.sample(3000))!;
    expect(redis.sent.map((a) => a.slice(0, 2).join(' '))).toEqual(['INFO server', 'LATENCY HISTOGRAM']);
    expect(redis.sent[1]).toEqual(['LATENCY', 'HISTOGRAM', 'get', 'set']);
    expect(t).toMatchObject({ reads: 7, writes: 0, others: 0 });
    expect(t.latency[2]).toBe(7);
    expect(total(t.latency)).toBe(7);
  });

  it('skips parsing histograms whose calls did not move, and the next deltas are still exact', async () => {
    const { redis, sampler } = setup();
    redis.run('get', 1000, 3);
    redis.run('set', 1000, 3);
    await sampler.sample(1000);
    await sampler.sample(2000);
    parsed.mockClear();
    // A quiet second: nothing moved, nothing parsed.
    const quiet = (await sampler.sample(3000))!;
    expect(parsed).not.toHaveBeenCalled();
    expect(quiet).toMatchObject({ reads: 0, writes: 0 });
    expect(total(quiet.latency)).toBe(0);
    // Slow gets after quiet seconds: only `get` is parsed, and the delta holds just the new calls.
    redis.run('get', 50, 1000); // (512, 1024] µs
    const slow = (await sampler.sample(4000))!;
    expect(parsed).toHaveBeenCalledTimes(1);
    expect(parsed.mock.calls[0]![0]).toEqual(expect.arrayContaining(['get']));
    expect(slow).toMatchObject({ reads: 50, writes: 0 });
    expect(slow.latency[10]).toBe(50);
    expect(total(slow.latency)).toBe(50);
    const p = metrics.percentiles(slow.latency);
    expect(p.p50!).toBeGreaterThan(512);
  });

  it('with observe, the same round trip reads the cluster view the status report needs, and those commands are the sampler\'s own', async () => {
    const redis = new FakeRedis();
    const client = redis.client();
    const sampler = new InstanceSampler({ instanceId: 'i', clusterId: 'c' }, async () => client, { observe: true });
    redis.run('ping', 1, 1);
    await sampler.sample(1000);
    await sampler.sample(2000);
    redis.sent = [];
    redis.run('ping', 4, 1);
    const s = (await sampler.sample(3000))!;
    expect(redis.sent.map((a) => a.slice(0, 2).join(' '))).toEqual(['INFO server', 'CLUSTER MYID', 'CLUSTER INFO', 'CLUSTER NODES']);
    expect(s).toMatchObject({ reads: 0, writes: 0, others: 4 });
    const live = await observeWith(client);
    // The same view, each stamped with its own read time.
    expect(sampler.lastView?.view).toEqual({ ...live, sampledAt: expect.any(Number) });
    expect(sampler.lastView!.view!.sampledAt).toBeLessThanOrEqual(live!.sampledAt!);
    expect(sampler.lastView?.view).toMatchObject({ myId: 'a1', role: 'primary', state: 'ok', slotsOwned: 16384, configEpoch: 3 });
  });

  it('a restarted engine (new run_id) counts from zero: no negative rates, the new histograms are the delta', async () => {
    const { redis, sampler } = setup();
    redis.run('get', 1_000_000, 3);
    await sampler.sample(1000);
    await sampler.sample(2000);
    redis.restart();
    redis.run('get', 120, 3);
    const s = (await sampler.sample(3000))!;
    expect(s).toMatchObject({ restarted: true, reads: 120 });
    expect(s.latency[2]).toBe(120);
    expect(total(s.latency)).toBe(120);
    redis.run('get', 5, 3);
    const t = (await sampler.sample(4000))!;
    expect(t).toMatchObject({ restarted: false, reads: 5 });
    expect(total(t.latency)).toBe(5);
  });
});
