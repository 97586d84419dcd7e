import { describe, expect, it } from 'vitest';
import { databaseUsersDigest } from '@strata/engine';
import type { ObservedInstance } from '@strata/api';
import type { ClusterContext } from './cluster-context';
import type { InstanceRow } from '../stores/cluster.store';
import { desiredAcls, type DatabaseUserRow } from '../database-users/database-user.store';
import { planUsersFor } from './user-sync';

const now = 1_000_000;
const reader: DatabaseUserRow = {
  clusterId: 'c', name: 'reader', preset: 'read-only', keyPatterns: ['orders:*'], channelPatterns: [], passwordSha256: 'a'.repeat(64),
  previousPasswordSha256: 'b'.repeat(64), previousExpiresAt: new Date(now + 3000), createdAt: new Date(0), passwordRotatedAt: new Date(now),
};

function ctx(observed: Record<string, Partial<ObservedInstance> | null>): ClusterContext {
  return {
    instances: Object.keys(observed).map((id) => ({ id }) as InstanceRow),
    observe: (id: string) => (observed[id] ? ({ state: 'running', ...observed[id] } as ObservedInstance) : null),
    databaseUsers: { generation: 4, users: [reader] },
  } as unknown as ClusterContext;
}

describe('planUsersFor', () => {
  it('syncs running instances with other users (or none reported), and waits for the grace period to end', () => {
    const during = databaseUsersDigest(desiredAcls([reader], now));
    const plan = planUsersFor(ctx({ a: { usersDigest: during }, b: { usersDigest: null }, c: { state: 'crashed' }, d: null }), now);
    expect(plan.actions).toEqual([{ kind: 'sync-users', instanceId: 'b', generation: 4, digest: during }]);
    expect(plan.expiresAt).toBe(now + 3000);
  });

  it('once the grace period ended, the previous password goes: every instance syncs again, nothing left to wait for', () => {
    const during = databaseUsersDigest(desiredAcls([reader], now));
    const plan = planUsersFor(ctx({ a: { usersDigest: during } }), now + 3000);
    expect(plan.actions).toHaveLength(1);
    expect(plan.actions[0]!.digest).not.toBe(during);
    expect(plan.actions[0]!.digest).toBe(databaseUsersDigest(desiredAcls([{ ...reader, previousPasswordSha256: null }], now)));
    expect(plan.expiresAt).toBeNull();
  });
});
