import { describe, expect, it } from 'vitest';
import { planBackupSources, type BackupMember } from './backup-source.planner';

const view = (role: 'primary' | 'replica', myId: string, primaryId: string | null = null, over: object = {}) => ({
  process: 'running' as const,
  view: {
    myId, role, state: 'ok' as const, knownNodes: 2, slotsAssigned: 16384, primaryId, primaryLinkUp: role === 'replica' ? true : null,
    slotsOwned: role === 'primary' ? 8192 : 0, openSlots: [], replOffset: 0, linkDownSinceSec: null, syncInProgress: false, configEpoch: 1, ...over,
  },
});

describe('planBackupSources', () => {
  const p0: BackupMember = { id: 'a', shard: 0, role: 'primary', engineId: 'P0', obs: view('primary', 'P0') };
  const r0: BackupMember = { id: 'b', shard: 0, role: 'replica', engineId: 'R0', obs: view('replica', 'R0', 'P0') };
  const p1: BackupMember = { id: 'c', shard: 1, role: 'primary', engineId: 'P1', obs: view('primary', 'P1') };

  it.each([
    ['an in-sync replica where there is one, else the primary', [p0, r0, p1], [{ shard: 0, instanceId: 'b', role: 'replica' }, { shard: 1, instanceId: 'c', role: 'primary' }]],
    ['the primary while its replica syncs', [p0, { ...r0, obs: view('replica', 'R0', 'P0', { syncInProgress: true }) }], [{ shard: 0, instanceId: 'a', role: 'primary' }]],
    ['the primary when the replica follows another node', [p0, { ...r0, obs: view('replica', 'R0', 'OTHER') }], [{ shard: 0, instanceId: 'a', role: 'primary' }]],
  ])('takes %s', (_name, members, expected) => {
    expect(planBackupSources(members as BackupMember[], expected.length)).toEqual(expected);
  });

  it('names a shard with nothing to take a snapshot on', () => {
    expect(planBackupSources([{ ...p0, obs: { process: 'crashed', view: null } }], 1)).toEqual([{ shard: 0, instanceId: null, reason: 'shard 1 has no running primary and no in-sync replica' }]);
  });
});
