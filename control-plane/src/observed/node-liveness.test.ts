import { describe, expect, it } from 'vitest';
import { nodeStatus } from './node-liveness';

describe('nodeStatus', () => {
  const t = { nodeOfflineAfterMs: 5000, nodeDownAfterMs: 15_000, nodeDownConfirmedAfterMs: 4500 };
  it.each([
    [1000, 'online'], [4999, 'online'], [5000, 'offline'], [14_999, 'offline'], [15_000, 'down'],
  ] as const)('silent %i ms, its engines reachable by their peers -> %s', (ago, status) => {
    expect(nodeStatus(ago, () => false, t)).toBe(status);
  });
  it.each([
    [1000, 'online'], [3000, 'online'], [4499, 'online'], [4500, 'down'], [15_000, 'down'],
  ] as const)('silent %i ms, every engine unreachable by its peers -> %s', (ago, status) => {
    expect(nodeStatus(ago, () => true, t)).toBe(status);
  });
  it('not reported yet: offline, not down, whatever the peers say', () => {
    expect(nodeStatus(null, () => false, t)).toBe('offline');
    expect(nodeStatus(null, () => true, t)).toBe('offline');
  });
  it('asks the peers only about a node silent past the confirmed timeout', () => {
    let asked = 0;
    const peers = () => { asked++; return true; };
    expect(nodeStatus(4499, peers, t)).toBe('online');
    expect(asked).toBe(0);
    expect(nodeStatus(4500, peers, t)).toBe('down');
    expect(asked).toBe(1);
  });
  it('a confirmed timeout above the node-down timeout is the node-down timeout', () => {
    const short = { nodeOfflineAfterMs: 2000, nodeDownAfterMs: 4000, nodeDownConfirmedAfterMs: 4500 };
    expect(nodeStatus(3999, () => true, short)).toBe('offline');
    expect(nodeStatus(4000, () => true, short)).toBe('down');
    expect(nodeStatus(4000, () => false, short)).toBe('down');
  });
});
