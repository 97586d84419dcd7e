import { describe, expect, it } from 'vitest';
import type { ObservedInstance, TaskRequest } from '@strata/api';
import { planTlsChange, type TlsLayout } from '@strata/engine';
import type { ClusterContext } from './cluster-context';
import type { InstanceRow } from '../stores/cluster.store';
import { tlsSwitchSteps } from './tls-switch.steps';
import { taskKey } from './dedupe-keys';
import type { TlsSwitchPlanRecord } from './update-plan';

type Row = Pick<InstanceRow, 'id' | 'role' | 'shardIndex' | 'nodeId' | 'port' | 'secondPort' | 'tlsLayout'>;

/** One shard (primary p on node 1, replica r on node 2) switching plain -> required; `succeeded`: instances whose stage-0 task succeeded. */
function ctx(opts: { layout?: TlsLayout; succeeded?: string[]; down?: string[]; rows?: Row[]; steps?: { name: string; startedAt: string }[] } = {}) {
  const plan: TlsSwitchPlanRecord = { kind: 'tls-switch', from: 'plain', to: 'required', stages: planTlsChange('plain', 'required') };
  const enqueued: { nodeId: string; request: TaskRequest }[] = [];
  const layouts: [string, TlsLayout, boolean][] = [];
  const instanceLayouts: [string, TlsLayout][] = [];
  const events: unknown[] = [];
  const instances: Row[] = opts.rows ?? [
    { id: 'p', role: 'primary', shardIndex: 0, nodeId: 'n1', port: 7000, secondPort: 7001, tlsLayout: null },
    { id: 'r', role: 'replica', shardIndex: 0, nodeId: 'n2', port: 7000, secondPort: 7001, tlsLayout: null },
  ];
  const c = {
    deps: {
      tasks: { enqueue: async (t: { nodeId: string; request: TaskRequest }) => { enqueued.push(t); return true; } },
      notifyNode: () => {},
      clusters: {
        setTlsLayout: async (_id: string, l: TlsLayout, keep: boolean) => { layouts.push(['c', l, keep]); },
        setInstanceTlsLayout: async (id: string, l: TlsLayout) => { instanceLayouts.push([id, l]); },
      },
      events: { record: async (_c: unknown, e: unknown) => { events.push(e); return true; } },
    },
    cluster: { id: 'c', organizationId: 'o', spec: { tls: 'required', durability: 'none', evictionPolicy: 'noeviction', memoryMbPerShard: 32, engineVersion: 'valkey-8' }, tlsLayout: opts.layout ?? 'plain', tlsBus: false },
    operation: { plan, createdAt: '2026-01-01T00:00:00.000Z', steps: opts.steps ?? [] },
    lost: [],
    operationId: 'op',
    tasks: new Map((opts.succeeded ?? []).map((id) => [taskKey({ kind: 'tls-switch', instanceId: id, stage: 'serve-tls-beside-plain' }), { state: 'succeeded' }])),
    nodes: new Map([['n1', { address: '10.0.0.1' }], ['n2', { address: '10.0.0.2' }]]),
    instances: instances.map((i) => ({ ...i, memoryMb: 32 }) as InstanceRow),
    observe: (id: string) => ({ state: opts.down?.includes(id) ? 'crashed' : 'running' }) as ObservedInstance,
  } as unknown as ClusterContext;
  return { c, enqueued, layouts, instanceLayouts, events };
}

describe('tls-switch steps', () => {
  it('the last stage ends once every instance reports healthy again, or 60 s after it began (the switch itself is done)', async () => {
    // Both instances run but report no cluster view yet (just switched): not healthy members.
    const fresh = ctx({ layout: 'tls', steps: [{ name: 'close-plain', startedAt: new Date(Date.now() - 5_000).toISOString() }] });
    expect(await tlsSwitchSteps(fresh.c)[1]!.run(fresh.c)).toMatchObject({ kind: 'wait', detail: expect.stringContaining('waiting for 2 of 2 to report healthy') });
    const late = ctx({ layout: 'tls', steps: [{ name: 'close-plain', startedAt: new Date(Date.now() - 61_000).toISOString() }] });
    expect(await tlsSwitchSteps(late.c)[1]!.run(late.c)).toEqual({ kind: 'done' });
    // A stage before the last does not wait for health, and stays done while the last one waits.
    const first = ctx({ layout: 'plain+tls' });
    expect(await tlsSwitchSteps(first.c)[0]!.run(first.c)).toEqual({ kind: 'done' });
    expect(await tlsSwitchSteps(fresh.c)[0]!.run(fresh.c)).toEqual({ kind: 'done' });
  });

  it('one step per stage of the plan, named after it', () => {
    expect(tlsSwitchSteps(ctx().c).map((s) => s.def.name)).toEqual(['serve-tls-beside-plain', 'close-plain']);
  });

  it('replicas first: the primary gets its part only once its replica is done, and waits for its running replicas', async () => {
    const first = ctx();
    const [serveBoth] = tlsSwitchSteps(first.c);
    expect(await serveBoth!.run(first.c)).toMatchObject({ kind: 'wait', detail: expect.stringContaining('Shard 1 replica') });
    expect(first.enqueued.map((t) => t.nodeId)).toEqual(['n2']);
    const task = first.enqueued[0]!.request as Extract<TaskRequest, { kind: 'tls-switch' }>;
    expect(task).toMatchObject({ direction: 'on', stage: 'serve-both', member: { instanceId: 'r', host: '10.0.0.2', port: 7000, secondPort: 7001, role: 'replica' }, replicas: 0 });
    // The spec the agent keeps after the stage: both served, the bus as created, the client certificate rule of a TLS instance.
    expect(task.instance.tlsLayout).toEqual({ layout: 'plain+tls', bus: false, secondPort: 7001 });
    expect(task.instance.tlsClientAuth).toBe('none');

    const second = ctx({ succeeded: ['r'] });
    expect(await tlsSwitchSteps(second.c)[0]!.run(second.c)).toMatchObject({ kind: 'wait' });
    expect(second.instanceLayouts).toEqual([['r', 'plain+tls']]);
    expect(second.enqueued.map((t) => [t.nodeId, (t.request as { replicas: number }).replicas])).toEqual([['n1', 1]]);
  });

  it('the cluster layout moves on once every instance is done, with one event, second ports kept while both are served', async () => {
    const done = ctx({ succeeded: ['r', 'p'] });
    expect(await tlsSwitchSteps(done.c)[0]!.run(done.c)).toEqual({ kind: 'done' });
    expect(done.layouts).toEqual([['c', 'plain+tls', true]]);
    expect(done.events).toMatchObject([{ type: 'tls-switched', stage: 'serve-tls-beside-plain', served: 'plain+tls' }]);
    expect(done.enqueued).toEqual([]);
    // Re-run after a restart: the recorded layout says the stage is done; nothing is asked again.
    const again = ctx({ layout: 'plain+tls' });
    expect(await tlsSwitchSteps(again.c)[0]!.run(again.c)).toEqual({ kind: 'done' });
    expect(again.enqueued).toEqual([]);
    expect(again.events).toEqual([]);
  });

  it('an instance that does not run is waited for (healing restarts it), never handed a task', async () => {
    const down = ctx({ down: ['r'] });
    expect(await tlsSwitchSteps(down.c)[0]!.run(down.c)).toMatchObject({ kind: 'wait', detail: expect.stringContaining('is not running') });
    expect(down.enqueued).toEqual([]);
  });

  it('fails loudly when the cluster serves something the stage does not start from, or an instance has no second port', async () => {
    const odd = ctx({ layout: 'tls+plain' });
    expect(await tlsSwitchSteps(odd.c)[0]!.run(odd.c)).toMatchObject({ kind: 'failed', code: 'tls_layout_mismatch' });
    const noPort = ctx({ rows: [{ id: 'p', role: 'primary', shardIndex: 0, nodeId: 'n1', port: 7000, secondPort: null, tlsLayout: null }] });
    expect(await tlsSwitchSteps(noPort.c)[0]!.run(noPort.c)).toMatchObject({ kind: 'failed', code: 'tls_second_port_missing' });
  });
});
