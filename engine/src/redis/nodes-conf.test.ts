import { describe, expect, it } from 'vitest';
import { claimsSlots, withoutOwnClaims } from './nodes-conf';

const CONF = [
  '2d0beef9 127.0.64.2:7001@17001 slave c78beb01 0 1795745256296 7 connected',
  'c35568be 127.0.64.1:7000@17000 master - 0 1795745256296 1 connected 0-4095 4224-4239',
  'c78beb01 127.0.64.1:7997@17997 myself,master - 0 1795745256294 7 connected 4096-4223 4240-4255 [4256-<-c35568be] [9685-<-76e446a9]',
  'vars currentEpoch 7 lastVoteEpoch 0',
  '',
].join('\n');

describe('withoutOwnClaims', () => {
  it('drops the slots and migration marks of the myself line only, keeping its epoch and every other line', () => {
    const r = withoutOwnClaims(CONF)!;
    const lines = r.text.split('\n');
    expect(lines[2]).toBe('c78beb01 127.0.64.1:7997@17997 myself,master - 0 1795745256294 7 connected');
    expect(lines.filter((_, i) => i !== 2)).toEqual(CONF.split('\n').filter((_, i) => i !== 2));
    expect(r.dropped).toEqual(['4096-4223', '4240-4255', '[4256-<-c35568be]', '[9685-<-76e446a9]']);
  });

  it('leaves a myself line without claims as it is, and says when there is no myself line', () => {
    const replica = '2d0beef9 127.0.64.2:7001@17001 myself,slave c78beb01 0 0 7 connected\nvars currentEpoch 7 lastVoteEpoch 0\n';
    expect(withoutOwnClaims(replica)).toEqual({ text: replica, dropped: [] });
    expect(withoutOwnClaims('vars currentEpoch 0 lastVoteEpoch 0\n')).toBeNull();
  });
});

describe('claimsSlots', () => {
  it('is true for a primary with slots (its myself line), false for a replica, a primary owning nothing or no myself line', () => {
    expect(claimsSlots(CONF)).toBe(true);
    expect(claimsSlots('2d0beef9 127.0.64.2:7001@17001 myself,slave c78beb01 0 0 7 connected\n')).toBe(false);
    expect(claimsSlots('c78beb01 127.0.64.1:7997@17997 myself,master - 0 0 7 connected\n')).toBe(false);
    // Only a migration mark: it serves no slot.
    expect(claimsSlots('c78beb01 127.0.64.1:7997@17997 myself,master - 0 0 7 connected [4256-<-c35568be]\n')).toBe(false);
    expect(claimsSlots('vars currentEpoch 0 lastVoteEpoch 0\n')).toBe(false);
  });
});
