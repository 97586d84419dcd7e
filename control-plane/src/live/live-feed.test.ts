import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { Request, Response } from 'express';
import type pg from 'pg';
import pino from 'pino';
import type { LiveEvent } from '@strata/api';
import type { ClusterRow } from '../stores/cluster.store';
import type { OperationRow } from '../stores/operation.store';
import { LiveFeed, parseNotice } from './live-feed';
import { EventStreams } from '../http/event-streams';

const streams = new EventStreams({ limits: { perPrincipal: 1000, maxBufferedBytes: 1 << 20 }, log: pino({ level: 'silent' }) });
let nextUser = 0;

/** A response that records SSE frames. */
function fakeStream() {
  const frames: string[] = [];
  const closers: (() => void)[] = [];
  const res = { writeHead: () => res, write: (f: string) => (frames.push(f), true), end: () => {}, writableLength: 0, destroy: () => {} } as unknown as Response;
  const req = {
    on: (ev: string, fn: () => void) => ev === 'close' && closers.push(fn),
    principal: { userId: `u${nextUser++}`, actor: { type: 'user', name: 'u' } }, socket: { setNoDelay: () => {} }, originalUrl: '/v1/events/stream',
  } as unknown as Request;
  const events = () => frames.flatMap((f) => f.split('\n\n')).filter((f) => f.includes('data: ')).map((f) => JSON.parse(f.slice(f.indexOf('data: ') + 6)) as LiveEvent);
  return { res, req, events, close: () => closers.forEach((c) => c()) };
}

const cluster = (id: string, org: string, phase: ClusterRow['status']['phase']): ClusterRow => ({
  id, organizationId: org, name: `c-${id}`, generation: 1, observedGeneration: 1, createdAt: 'x', updatedAt: 'x', secretsEnc: 'secret', reconcileRequests: '0',
  spec: { shards: 1, replicasPerShard: 0, memoryMbPerShard: 32, durability: 'none', evictionPolicy: 'noeviction', engineVersion: '7' },
  status: { phase, conditions: [] },
}) as unknown as ClusterRow;

function feed(rows: Map<string, ClusterRow>, reads: string[]) {
  return new LiveFeed({
    pool: {} as pg.Pool,
    log: pino({ level: 'silent' }),
    clusters: { get: async (id: string, org?: string) => { reads.push(id); await new Promise((r) => setTimeout(r, 5)); const c = rows.get(id); return c && c.organizationId === org ? c : null; } },
    operations: { get: async () => null as OperationRow | null },
    streams,
  });
}

const settle = () => new Promise((r) => setTimeout(r, 40));

describe('LiveFeed', () => {
  it('sends a change only to streams of its organization, without secrets', async () => {
    const rows = new Map([['a', cluster('a', 'org-1', 'deleting')]]);
    const f = feed(rows, []);
    const mine = fakeStream();
    const theirs = fakeStream();
    f.open(mine.req, mine.res, 'org-1');
    f.open(theirs.req, theirs.res, 'org-2');
    f.notify({ k: 'cluster', id: 'a', org: 'org-1' });
    await settle();
    expect(mine.events().map((e) => e.type)).toEqual(['resync', 'cluster']);
    expect(JSON.stringify(mine.events())).not.toContain('secret');
    expect(theirs.events().map((e) => e.type)).toEqual(['resync']);
  });

  it('a burst of changes to one row is read at most twice and ends with the newest state', async () => {
    const rows = new Map([['a', cluster('a', 'org-1', 'ready')]]);
    const reads: string[] = [];
    const f = feed(rows, reads);
    const s = fakeStream();
    f.open(s.req, s.res, 'org-1');
    for (let i = 0; i < 10; i++) f.notify({ k: 'cluster', id: 'a', org: 'org-1' });
    rows.set('a', cluster('a', 'org-1', 'degraded'));
    await settle();
    expect(reads.length).toBeLessThanOrEqual(2);
    const last = s.events().filter((e) => e.type === 'cluster').at(-1);
    expect(last?.type === 'cluster' && last.cluster.status.phase).toBe('degraded');
  });

  it('reads nothing when no stream of that organization is open, and forgets closed streams', async () => {
    const reads: string[] = [];
    const f = feed(new Map([['a', cluster('a', 'org-1', 'ready')]]), reads);
    f.notify({ k: 'cluster', id: 'a', org: 'org-1' });
    const s = fakeStream();
    f.open(s.req, s.res, 'org-1');
    s.close();
    expect(f.size).toBe(0);
    f.notify({ k: 'cluster-deleted', id: 'a', org: 'org-1' });
    await settle();
    expect(reads).toEqual([]);
  });

  it('tells change listeners of every notice, streams or not, and of a LISTEN connection regained (null)', async () => {
    const clients: EventEmitter[] = [];
    const pool = {
      connect: async () => {
        const c = Object.assign(new EventEmitter(), { query: async () => ({}), release: () => {} });
        clients.push(c);
        return c;
      },
    } as unknown as pg.Pool;
    const f = new LiveFeed({ pool, log: pino({ level: 'silent' }), clusters: { get: async () => null }, operations: { get: async () => null }, reconnectMs: 5, streams });
    const seen: (string | null)[] = [];
    f.onChange((n) => seen.push(n ? `${n.k}:${n.cluster ?? n.id}` : null));
    await f.start();
    expect(seen).toEqual([]); // the first LISTEN is no news
    clients[0]!.emit('notification', { channel: 'strata_live', payload: '{"k":"topology","org":"o","cluster":"c1"}' });
    clients[0]!.emit('notification', { channel: 'other', payload: '{"k":"topology","org":"o","cluster":"c2"}' });
    expect(seen).toEqual(['topology:c1']);
    clients[0]!.emit('error', new Error('connection lost'));
    await settle();
    expect(clients).toHaveLength(2);
    expect(seen).toEqual(['topology:c1', null]);
    await f.stop();
  });

  it('parses trigger payloads and ignores malformed ones', () => {
    expect(parseNotice('{"k":"topology","org":"o","cluster":"c"}')).toEqual({ k: 'topology', org: 'o', cluster: 'c' });
    expect(parseNotice('not json')).toBeNull();
    expect(parseNotice('{"k":"cluster"}')).toBeNull();
    expect(parseNotice(undefined)).toBeNull();
  });

  it('closes a stream whose credentials no longer hold, and only that one', async () => {
    const valid = new Set(['good']);
    const f = new LiveFeed({
      pool: {} as pg.Pool, log: pino({ level: 'silent' }),
      clusters: { get: async () => null }, operations: { get: async () => null }, streams,
      revalidate: async (req) => (valid.has((req as unknown as { who: string }).who) ? { organizationId: 'org-1' } : null),
    });
    const ended: string[] = [];
    const stream = (who: string) => {
      const s = fakeStream();
      Object.assign(s.req, { who });
      Object.assign(s.res, { end: () => ended.push(who) });
      f.open(s.req, s.res, 'org-1');
      return s;
    };
    stream('good');
    stream('revoked');
    await f.revalidateAll();
    expect(ended).toEqual(['revoked']);
    expect(f.size).toBe(1);
    valid.delete('good');
    await f.revalidateAll();
    expect(ended).toEqual(['revoked', 'good']);
    expect(f.size).toBe(0);
  });
});
