import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import pino from 'pino';
import { ObservedClusterView, type AgentStatusReport, type ObservedInstance } from '@strata/api';
import { StatusReporter, inFlux } from './status-reporter';
import { carriedMetricsSink } from './metrics/carried-metrics-sink';

/** A node with no instances: every report it builds is steady (nothing in flux). */
function reporter(reportStatus: (r: AgentStatusReport) => Promise<void>) {
  const client = { reportStatus } as unknown as ConstructorParameters<typeof StatusReporter>[0]['client'];
  return new StatusReporter({
    client,
    registry: { all: () => [] } as never,
    supervisor: {} as never,
    connections: {} as never,
    address: '127.0.0.1', memoryMb: 1024, log: pino({ level: 'silent' }),
  });
}

describe('StatusReporter: the steady report rides on the metrics push', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('a push carries the report, and the reporter then stays quiet while pushes come every second', async () => {
    const own: AgentStatusReport[] = [];
    const r = reporter(async (rep) => void own.push(rep));
    r.start();
    await vi.advanceTimersByTimeAsync(10);
    expect(own).toHaveLength(1); // the first report goes on its own

    const carried: (AgentStatusReport | undefined)[] = [];
    for (let s = 0; s < 5; s++) {
      await r.carry(async (status) => void carried.push(status));
      await vi.advanceTimersByTimeAsync(1000);
    }
    expect(carried).toHaveLength(5);
    expect(carried.every((c) => c?.memoryMb === 1024)).toBe(true);
    expect(own).toHaveLength(1);

    // Pushes stop: the reporter reports on its own again, 1.5 s after the last carried report.
    await vi.advanceTimersByTimeAsync(600);
    expect(own).toHaveLength(2);
    r.stop();
  });

  it('after a change (poke) the reporter sends its own fast reports and a push goes without one', async () => {
    const own: AgentStatusReport[] = [];
    const r = reporter(async (rep) => void own.push(rep));
    r.start();
    await vi.advanceTimersByTimeAsync(10);
    r.poke();
    await vi.advanceTimersByTimeAsync(10);
    const carried: (AgentStatusReport | undefined)[] = [];
    await r.carry(async (status) => void carried.push(status));
    expect(carried).toEqual([undefined]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(own.length).toBeGreaterThanOrEqual(8); // every 100 ms for the 5 s after a change
    r.stop();
  });

  it('a change during a carried push is reported on its own right after it, never before it', async () => {
    const order: string[] = [];
    const r = reporter(async () => void order.push('own'));
    r.start();
    await vi.advanceTimersByTimeAsync(10);
    order.length = 0;
    let release!: () => void;
    const push = r.carry(async () => {
      order.push('carried');
      r.poke(); // something changed while the push was on its way
      await new Promise<void>((res) => (release = res));
    });
    await vi.advanceTimersByTimeAsync(500);
    expect(order).toEqual(['carried']); // nothing overtakes the carried report
    release();
    await push;
    await vi.advanceTimersByTimeAsync(150);
    expect(order.slice(0, 2)).toEqual(['carried', 'own']);
    r.stop();
  });

  it('a failed push is the report\'s failure too: the reporter sends its own a second later', async () => {
    const own: AgentStatusReport[] = [];
    const r = reporter(async (rep) => void own.push(rep));
    r.start();
    await vi.advanceTimersByTimeAsync(10);
    await expect(r.carry(async () => { throw new Error('control plane unreachable'); })).rejects.toThrow('unreachable');
    await vi.advanceTimersByTimeAsync(1010);
    expect(own).toHaveLength(2);
    r.stop();
  });

  it('a control plane that refuses the carried report gets the samples alone, and the status on its own route from then on', async () => {
    const own: AgentStatusReport[] = [];
    const r = reporter(async (rep) => void own.push(rep));
    r.start();
    await vi.advanceTimersByTimeAsync(10);
    const pushed: { status: boolean }[] = [];
    const client = {
      pushMetrics: async (batch: { status?: unknown }) => {
        pushed.push({ status: batch.status !== undefined });
        if (batch.status) throw Object.assign(new Error('POST /v1/agent/metrics: 400 status: unknown field'), { status: 400 });
      },
    };
    const sink = carriedMetricsSink({ client, reporter: r, log: pino({ level: 'silent' }) });
    await sink.pushMetrics({ host: [], instances: [] });
    expect(pushed).toEqual([{ status: true }, { status: false }]); // the samples went at once, without the report
    await vi.advanceTimersByTimeAsync(1010);
    expect(own).toHaveLength(2); // ... and the report went on its own
    await sink.pushMetrics({ host: [], instances: [] });
    expect(pushed.at(-1)).toEqual({ status: false });
    expect(pushed).toHaveLength(3);
    r.stop();
  });
});

describe('StatusReporter: cluster views read by the metrics sampler', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());
  const ID = '00000000-0000-4000-8000-000000000001';
  const view = ObservedClusterView.parse({ myId: 'a', role: 'primary', state: 'ok', knownNodes: 2, slotsAssigned: 16384, primaryId: null, primaryLinkUp: null, slotsOwned: 16384, replOffset: 100 });

  /** One running engine; `observe` counts the reporter's own looks at it. */
  function withEngine(reportStatus: (r: AgentStatusReport) => Promise<void>) {
    const looks = { n: 0 };
    const rec = { spec: { instanceId: ID, clusterId: '00000000-0000-4000-8000-000000000002', port: 7000 }, credentials: { internalUser: 'u', internalPassword: 'p' } };
    const r = new StatusReporter({
      client: { reportStatus } as unknown as ConstructorParameters<typeof StatusReporter>[0]['client'],
      registry: { all: () => [rec], setLastRole: () => {} } as never,
      supervisor: { status: () => ({ state: 'running', pid: 1, restarts: 0, lastError: null, held: false }), servedCertificateExpiry: () => null, loadedTrustDigest: () => null } as never,
      // The reporter's own observation: the engine does not answer as a cluster node (view null), and the look is counted.
      connections: { get: async () => { looks.n++; throw new Error('no engine in this test'); } } as never,
      address: '127.0.0.1', memoryMb: 1024, log: pino({ level: 'silent' }),
    });
    return { r, looks };
  }

  it('the carried report takes the views read this second instead of asking the engines again', async () => {
    const { r, looks } = withEngine(async () => {});
    r.observed(new Map([[ID, view]])); // first sight: reported at once
    await vi.advanceTimersByTimeAsync(10);
    looks.n = 0;
    r.observed(new Map([[ID, { ...view, replOffset: 200 }]]));
    const carried: (AgentStatusReport | undefined)[] = [];
    await r.carry(async (status) => void carried.push(status));
    expect(looks.n).toBe(0);
    expect(carried[0]!.instances[0]!.cluster).toMatchObject({ myId: 'a', replOffset: 200 });
    // Views older than a second are not used: the reporter looks itself.
    await vi.advanceTimersByTimeAsync(1200);
    await r.carry(async (status) => void carried.push(status));
    expect(looks.n).toBeGreaterThan(0);
    expect(carried[1]!.instances[0]!.cluster).toBeNull();
    r.stop();
  });

  it('a view that changed in what the control plane acts on is reported at once; a moved offset waits for the push', async () => {
    const own: AgentStatusReport[] = [];
    const { r } = withEngine(async (rep) => void own.push(rep));
    r.observed(new Map([[ID, view]]));
    await vi.advanceTimersByTimeAsync(10);
    await r.carry(async () => {}); // the control plane has this view now
    const before = own.length;
    r.observed(new Map([[ID, { ...view, replOffset: 5000 }]]));
    await vi.advanceTimersByTimeAsync(10);
    expect(own).toHaveLength(before);
    r.observed(new Map([[ID, { ...view, role: 'replica', primaryId: 'b', primaryLinkUp: true, slotsOwned: 0 }]]));
    await vi.advanceTimersByTimeAsync(10);
    expect(own).toHaveLength(before + 1);
    r.stop();
  });
});

describe('inFlux: what makes a node report every 100 ms', () => {
  const view = ObservedClusterView.parse({ myId: 'a', role: 'primary', state: 'ok', knownNodes: 4, slotsAssigned: 16384, primaryId: null, primaryLinkUp: null, slotsOwned: 4096 });
  const report = (inst: Partial<ObservedInstance>): AgentStatusReport => ({
    agentVersion: 'test', memoryMb: 1024,
    instances: [{ instanceId: '00000000-0000-4000-8000-000000000001', clusterId: '00000000-0000-4000-8000-000000000002', port: 7000, pid: 1, state: 'running', restarts: 0, lastError: null, cluster: view, held: false, crashedAt: null, ...inst }],
  });

  it('a running member of a healthy cluster is steady, even with slots open (a migration in progress)', () => {
    expect(inFlux(report({}))).toBe(false);
    expect(inFlux(report({ cluster: { ...view, openSlots: [{ slot: 5, state: 'migrating', peerId: 'b' }] } }))).toBe(false);
  });

  it('an instance starting, crashed, outside a cluster, in a failed cluster or cut off from its primary is in flux', () => {
    expect(inFlux(report({ state: 'starting' }))).toBe(true);
    expect(inFlux(report({ state: 'crashed' }))).toBe(true);
    expect(inFlux(report({ cluster: null }))).toBe(true);
    expect(inFlux(report({ cluster: { ...view, state: 'fail' } }))).toBe(true);
    expect(inFlux(report({ cluster: { ...view, role: 'replica', primaryId: 'b', primaryLinkUp: false } }))).toBe(true);
  });
});
