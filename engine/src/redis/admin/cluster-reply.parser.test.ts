import { describe, expect, it } from 'vitest';
import { normalizeSlotOwners, parseClusterNodes, parseClusterSlots, parseInfo, slotOwners, subtractRanges } from './cluster-reply.parser';

const NODES = [
  'a1 127.0.5.1:7100@17100 myself,master - 0 0 1 connected 0-5460',
  'b2 127.0.5.2:7101@17101,host-b slave a1 0 1700000000000 1 connected',
  'c3 127.0.5.3:7100@17100 master - 0 1700000000000 3 connected 10922 10923-16383 [5461->-b2] [5462-<-c3]',
  'd4 :0@0 master,noaddr - 0 0 0 disconnected',
  '',
].join('\n');

describe('parseClusterNodes', () => {
  it('parses ids, addresses, roles, epochs and slots', () => {
    const [a, b, c, d] = parseClusterNodes(NODES);
    expect(a).toMatchObject({ id: 'a1', host: '127.0.5.1', port: 7100, myself: true, role: 'primary', primaryId: null, configEpoch: 1, slots: [{ start: 0, end: 5460 }] });
    expect(b).toMatchObject({ id: 'b2', host: '127.0.5.2', port: 7101, myself: false, role: 'replica', primaryId: 'a1', slots: [] });
    expect(c?.slots).toEqual([{ start: 10922, end: 10922 }, { start: 10923, end: 16383 }]);
    expect(d).toMatchObject({ host: '', port: 0, flags: ['master', 'noaddr'], linkState: 'disconnected' });
  });
});

describe('parseInfo', () => {
  it('reads key:value lines and skips sections', () => {
    expect(parseInfo('# Replication\r\nrole:slave\r\nmaster_link_status:up\r\n\r\n')).toEqual({ role: 'slave', master_link_status: 'up' });
  });
});

describe('slot owners', () => {
  it('parses CLUSTER SLOTS and merges adjacent ranges of one owner', () => {
    const owners = parseClusterSlots([
      [5461, 16383, ['127.0.5.2', 7100, 'b2'], ['127.0.5.3', 7101, 'c3']],
      [0, 5460, ['127.0.5.1', 7100, 'b2', { hostname: 'x' }]],
    ]);
    expect(normalizeSlotOwners(owners)).toEqual([{ start: 0, end: 16383, ownerId: 'b2' }]);
  });

  it.each([
    [[{ start: 0, end: 100 }], [], [{ start: 0, end: 100 }]],
    [[{ start: 0, end: 100 }], [{ start: 0, end: 100 }], []],
    [[{ start: 0, end: 100 }], [{ start: 0, end: 49 }], [{ start: 50, end: 100 }]],
    [[{ start: 0, end: 100 }], [{ start: 60, end: 70 }, { start: 10, end: 20 }], [{ start: 0, end: 9 }, { start: 21, end: 59 }, { start: 71, end: 100 }]],
    [[{ start: 10, end: 20 }], [{ start: 0, end: 5 }, { start: 30, end: 40 }], [{ start: 10, end: 20 }]],
  ])('subtractRanges(%j, %j) = %j', (wanted, have, expected) => {
    expect(subtractRanges(wanted, have)).toEqual(expected);
  });
});

describe('slotOwners', () => {
  it('gives a slot two primaries claim to the higher config epoch, leaves unclaimed slots null', () => {
    const owners = slotOwners([
      { of: 'stale', slots: [{ start: 0, end: 10 }], configEpoch: 7 },
      { of: 'new', slots: [{ start: 5, end: 20 }], configEpoch: 8 },
    ]);
    expect(owners[0]).toBe('stale');
    expect(owners[5]).toBe('new');
    expect(owners[10]).toBe('new');
    expect(owners[20]).toBe('new');
    expect(owners[21]).toBeNull();
  });
});
