import { describe, expect, it } from 'vitest';
import type { AppendOp } from './history';
import { figuresByClient, figuresBySide, nodeHostIndex, placeClients, sideOf } from './client-placement';

describe('placeClients', () => {
  it('puts every client on this machine by default, alternating plain and WAIT 1 (4 clients)', () => {
    expect(placeClients({ placement: 'client', nodeHosts: 3 })).toEqual([
      { client: 1, kind: 'plain', host: 'client' }, { client: 2, kind: 'wait', host: 'client' },
      { client: 3, kind: 'plain', host: 'client' }, { client: 4, kind: 'wait', host: 'client' },
    ]);
    expect(placeClients({ placement: 'client', nodeHosts: 3, count: 7 }).every((c) => c.host === 'client')).toBe(true);
  });

  it('spread: a plain and a WAIT 1 client on this machine and on every node host', () => {
    const placed = placeClients({ placement: 'spread', nodeHosts: 3 });
    expect(placed.map((c) => `${c.client}${c.kind[0]}@${c.host}`)).toEqual(['1p@client', '2w@client', '3p@n1', '4w@n1', '5p@n2', '6w@n2', '7p@n3', '8w@n3']);
  });

  it('spread with more clients than pairs of hosts goes round again; with fewer, the first hosts get them', () => {
    expect(placeClients({ placement: 'spread', nodeHosts: 2, count: 8 }).map((c) => c.host)).toEqual(['client', 'client', 'n1', 'n1', 'n2', 'n2', 'client', 'client']);
    expect(placeClients({ placement: 'spread', nodeHosts: 3, count: 3 }).map((c) => c.host)).toEqual(['client', 'client', 'n1']);
    expect(() => placeClients({ placement: 'spread', nodeHosts: 3, count: 0 })).toThrow(/positive integer/);
  });

  it('labels node hosts by their 1-based number, and knows the side of the fault each is on', () => {
    expect(nodeHostIndex('n3')).toBe(2);
    expect(nodeHostIndex('client')).toBeNull();
    expect(sideOf('n2', 'n2')).toBe('fault host');
    expect(sideOf('n1', 'n2')).toBe('other hosts');
    expect(sideOf('client', 'n2')).toBe('this machine');
  });
});

describe('figures by client and by side', () => {
  const op = (client: number, value: number, status: AppendOp['status'] = 'ok'): AppendOp => ({ client, key: 'l:0', value, kind: client % 2 ? 'plain' : 'wait', status, start: value, end: value + 1 });

  it('says whose acknowledged appends were lost, on which host and side', () => {
    const clients = placeClients({ placement: 'spread', nodeHosts: 2, count: 6 });
    const ops = [op(1, 10), op(2, 20), op(3, 30), op(3, 31), op(4, 40, 'unknown'), op(5, 50), op(6, 60, 'failed')];
    // The fault hit n1 (clients 3 and 4): client 3's two acknowledged appends are gone; a value never acknowledged is not "lost".
    const figures = figuresByClient({ clients, ops, finalLists: new Map([['l:0', [10, 20, 50]]]), faultHost: 'n1' });
    expect(figures.map((f) => [f.client, f.host, f.side, f.acknowledged, f.lost])).toEqual([
      [1, 'client', 'this machine', 1, 0], [2, 'client', 'this machine', 1, 0],
      [3, 'n1', 'fault host', 2, 2], [4, 'n1', 'fault host', 0, 0],
      [5, 'n2', 'other hosts', 1, 0], [6, 'n2', 'other hosts', 0, 0],
    ]);
    expect(figures[3]!.unknown).toBe(1);
    expect(figures[5]!.failed).toBe(1);
    expect(figuresBySide(figures)).toEqual({
      'this machine': { clients: 2, acknowledged: { plain: 1, wait: 1 }, lost: { plain: 0, wait: 0 } },
      'fault host': { clients: 2, acknowledged: { plain: 2, wait: 0 }, lost: { plain: 2, wait: 0 } },
      'other hosts': { clients: 2, acknowledged: { plain: 1, wait: 0 }, lost: { plain: 0, wait: 0 } },
    });
  });

  it('leaves out sides without clients', () => {
    const figures = figuresByClient({ clients: placeClients({ placement: 'client', nodeHosts: 3, count: 2 }), ops: [op(1, 1)], finalLists: new Map(), faultHost: 'n2' });
    expect(Object.keys(figuresBySide(figures))).toEqual(['this machine']);
    expect(figures[0]!.lost).toBe(1);
  });
});
