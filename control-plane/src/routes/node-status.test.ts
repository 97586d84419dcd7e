import { describe, expect, it } from 'vitest';
import { nodeStatus } from './node.routes';

describe('nodeStatus', () => {
  const t = { nodeOfflineAfterMs: 5000, nodeDownAfterMs: 15_000 };
  it.each([
    [1000, 'online'], [4999, 'online'], [5000, 'offline'], [14_999, 'offline'], [15_000, 'down'],
  ] as const)('silent %i ms -> %s', (ago, status) => {
    expect(nodeStatus(ago, t)).toBe(status);
  });
  it('not reported yet: offline, not down', () => expect(nodeStatus(null, t)).toBe('offline'));
});
