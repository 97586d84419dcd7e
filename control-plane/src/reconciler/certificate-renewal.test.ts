import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ObservedInstance } from '@strata/api';
import type { ClusterContext } from './cluster-context';
import type { InstanceRow } from '../stores/cluster.store';
import type { TaskRow } from '../stores/task.store';
import { SecretBox } from '../crypto/secret-box';
import { createClusterCa } from '../crypto/cluster-ca';
import { planRenewalsFor, recordRotatedCertificates } from './certificate-renewal';

const DAY = 86_400_000;
const now = Date.parse('2030-01-01T00:00:00Z');
const box = new SecretBox(randomBytes(32));
const iso = (ms: number) => new Date(ms).toISOString();

async function ctx(observed: Record<string, Partial<ObservedInstance>>, opts: { tasks?: TaskRow[]; caNow?: Date; tls?: boolean } = {}) {
  const tlsCa = opts.tls === false ? undefined : await createClusterCa('c', opts.caNow ?? new Date(now));
  const events: unknown[][] = [];
  const c = {
    deps: { box, tlsRenewBeforeMs: 30 * DAY, events: { record: async (...args: unknown[]) => { events.push(args); return true; } } },
    cluster: { id: 'c', organizationId: 'o', secretsEnc: box.seal(JSON.stringify({ tlsCa })) },
    instances: Object.keys(observed).map((id) => ({ id, nodeId: 'n', port: 7000, shardIndex: 0 }) as InstanceRow),
    nodes: new Map([['n', { id: 'n', name: 'node-1', address: '127.0.0.9' }]]),
    tasks: new Map((opts.tasks ?? []).map((t) => [t.dedupeKey, t])),
    observe: (id: string) => ({ state: 'running', ...observed[id] }) as ObservedInstance,
  } as unknown as ClusterContext;
  return { c, events };
}

describe('planRenewalsFor', () => {
  it('renews the running instances whose certificate is inside the window, named by the expiry they replace', async () => {
    const { c } = await ctx({
      due: { certificateExpiresAt: iso(now + 10 * DAY) },
      fine: { certificateExpiresAt: iso(now + 200 * DAY) },
      stopped: { state: 'crashed', certificateExpiresAt: iso(now + DAY) },
      plain: { certificateExpiresAt: null },
    });
    expect(planRenewalsFor(c, now)).toEqual([{ kind: 'renew-certificate', instanceId: 'due', expiresAt: now + 10 * DAY }]);
  });

  it('renews nothing when the CA expires before a fresh certificate could outlive the one served', async () => {
    // A CA made 3640 days ago expires in 10 days; the certificate served already ends with it.
    const { c } = await ctx({ a: { certificateExpiresAt: iso(now + 10 * DAY) } }, { caNow: new Date(now - 3640 * DAY) });
    expect(planRenewalsFor(c, now)).toEqual([]);
  });
});

describe('recordRotatedCertificates', () => {
  const task = (state: TaskRow['state'], replaces: number) => ({
    id: 't', kind: 'renew-certificate', state, dedupeKey: `renew-certificate:a:${replaces}`,
    payload: { kind: 'renew-certificate', clusterId: 'c', instanceId: 'a', replaces: iso(replaces) },
  }) as unknown as TaskRow;

  it('records one event per renewal once the instance reports the later expiry', async () => {
    const old = now + 10 * DAY;
    const waiting = await ctx({ a: { certificateExpiresAt: iso(old) } }, { tasks: [task('succeeded', old)] });
    await recordRotatedCertificates(waiting.c);
    expect(waiting.events).toEqual([]);

    const running = await ctx({ a: { certificateExpiresAt: iso(now + 800 * DAY) } }, { tasks: [task('leased', old)] });
    await recordRotatedCertificates(running.c);
    expect(running.events).toEqual([]);

    const done = await ctx({ a: { certificateExpiresAt: iso(now + 800 * DAY) } }, { tasks: [task('succeeded', old)] });
    await recordRotatedCertificates(done.c);
    expect(done.events).toHaveLength(1);
    const [, event, key] = done.events[0]!;
    expect(event).toMatchObject({
      type: 'certificate-rotated', shard: 0, instance: { instanceId: 'a', address: '127.0.0.9:7000', nodeName: 'node-1' },
      previousExpiresAt: iso(old), expiresAt: iso(now + 800 * DAY),
    });
    expect(key).toBe(`certificate-rotated:a:${old}`);
  });
});
