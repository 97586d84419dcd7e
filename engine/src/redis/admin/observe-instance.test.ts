import { describe, expect, it } from 'vitest';
import { parseOpenSlots } from './cluster-reply.parser';
import { toView } from './observe-instance';

const NODES = [
  'a1 127.0.5.1:7100@17100 myself,master - 0 0 1 connected 0-5460 [5461->-b2] [7000-<-c3]',
  'b2 127.0.5.2:7101@17101 slave a1 0 1700000000000 1 connected',
  '',
].join('\n');

describe('observation of an instance', () => {
  it('reads open slots from its own line only', () => {
    expect(parseOpenSlots(NODES, 'a1')).toEqual([
      { slot: 5461, state: 'migrating', peerId: 'b2' },
      { slot: 7000, state: 'importing', peerId: 'c3' },
    ]);
    expect(parseOpenSlots(NODES, 'b2')).toEqual([]);
  });

  it('a primary: slots owned and its offset', () => {
    const v = toView('a1', 'cluster_state:ok\r\ncluster_known_nodes:2\r\ncluster_slots_assigned:16384\r\n', NODES, 'role:master\r\nmaster_repl_offset:4242\r\n');
    expect(v).toMatchObject({ role: 'primary', slotsOwned: 5461, replOffset: 4242, primaryId: null, linkDownSinceSec: null, syncInProgress: false });
    expect(v.openSlots).toHaveLength(2);
  });

  it('a replica whose link is down: since when, and not in sync', () => {
    const nodes = NODES.replace('myself,master', 'master').replace('b2 127.0.5.2:7101@17101 slave', 'b2 127.0.5.2:7101@17101 myself,slave');
    const v = toView('b2', 'cluster_state:ok\r\n', nodes, 'role:slave\r\nmaster_link_status:down\r\nmaster_link_down_since_seconds:3\r\nslave_repl_offset:99\r\nmaster_sync_in_progress:0\r\n');
    expect(v).toMatchObject({ role: 'replica', primaryId: 'a1', primaryLinkUp: false, linkDownSinceSec: 3, replOffset: 99, slotsOwned: 0, syncInProgress: false });
  });

  it('a replica in a full sync: bytes received, and the total only when Redis knows it', () => {
    const nodes = NODES.replace('myself,master', 'master').replace('b2 127.0.5.2:7101@17101 slave', 'b2 127.0.5.2:7101@17101 myself,slave');
    const info = (total: number) => `role:slave\r\nmaster_link_status:down\r\nmaster_sync_in_progress:1\r\nmaster_sync_total_bytes:${total}\r\nmaster_sync_read_bytes:5000\r\n`;
    expect(toView('b2', 'cluster_state:ok\r\n', nodes, info(20000))).toMatchObject({ syncInProgress: true, syncReadBytes: 5000, syncTotalBytes: 20000 });
    // Diskless sync: the total is -1 (unknown).
    expect(toView('b2', 'cluster_state:ok\r\n', nodes, info(-1))).toMatchObject({ syncInProgress: true, syncReadBytes: 5000, syncTotalBytes: null });
  });

  it('the members it cannot reach: flagged fail? (no answer within the node timeout) or fail, never itself', () => {
    const nodes = [
      'a1 127.0.5.1:7100@17100 myself,master - 0 0 1 connected 0-5460',
      'b2 127.0.5.2:7100@17100 master,fail? - 1700000000000 0 2 connected 5461-10921',
      'c3 127.0.5.3:7100@17100 master,fail - 1700000000000 0 3 disconnected 10922-16383',
      'd4 127.0.5.3:7101@17101 slave c3 0 1700000000000 3 connected',
      '',
    ].join('\n');
    expect(toView('a1', 'cluster_state:ok\r\n', nodes, 'role:master\r\n').unreachablePeers).toEqual(['b2', 'c3']);
    expect(toView('a1', 'cluster_state:ok\r\n', NODES, 'role:master\r\n').unreachablePeers).toEqual([]);
  });
});
