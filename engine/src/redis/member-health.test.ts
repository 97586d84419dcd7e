import { describe, expect, it } from 'vitest';
import type { ObservedClusterView } from '../domain';
import { isHealthyMember, isInSyncReplica, primaryNodeId, type MemberObservation } from './member-health';

const view = (v: Partial<ObservedClusterView> & { myId: string; role: 'primary' | 'replica' }): ObservedClusterView => ({
  state: 'ok', knownNodes: 4, slotsAssigned: 16384, primaryId: null, primaryLinkUp: null, slotsOwned: v.role === 'primary' ? 8192 : 0,
  openSlots: [], replOffset: 1000, linkDownSinceSec: null, syncInProgress: false, configEpoch: 1, ...v,
});
const running = (v: ObservedClusterView): MemberObservation => ({ process: 'running', view: v });
const replica = (over: Partial<ObservedClusterView> = {}) => running(view({ myId: 'R', role: 'replica', primaryId: 'P', primaryLinkUp: true, ...over }));

describe('isInSyncReplica', () => {
  const table: [string, MemberObservation | null, string | null, boolean][] = [
    ['follows P, link up, no sync', replica(), 'P', true],
    ["the primary's node id is unknown: never in sync", replica(), null, false],
    ['follows another node', replica({ primaryId: 'Q' }), 'P', false],
    ['link down', replica({ primaryLinkUp: false, linkDownSinceSec: 1 }), 'P', false],
    ['full sync in progress', replica({ syncInProgress: true }), 'P', false],
    ['calls itself a primary', running(view({ myId: 'R', role: 'primary' })), 'P', false],
    ['not running', { process: 'crashed', view: null }, 'P', false],
    ['not observed', null, 'P', false],
  ];
  it.each(table)('%s', (_name, obs, primaryId, expected) => {
    expect(isInSyncReplica(obs, primaryId)).toBe(expected);
  });
});

describe('primaryNodeId', () => {
  it("is what the running primary reports, else the recorded id, else null", () => {
    expect(primaryNodeId({ engineId: 'OLD', obs: running(view({ myId: 'P', role: 'primary' })) })).toBe('P');
    expect(primaryNodeId({ engineId: 'P', obs: { process: 'crashed', view: null } })).toBe('P');
    expect(primaryNodeId({ engineId: 'P', obs: null })).toBe('P');
    expect(primaryNodeId({ engineId: null, obs: null })).toBeNull();
    expect(primaryNodeId(undefined)).toBeNull();
  });
});

describe('isHealthyMember', () => {
  const exp = (primaryNodeId: string | null, maxKnownNodes = 4) => ({ primaryNodeId, maxKnownNodes });
  const table: [string, { role: 'primary' | 'replica'; obs: MemberObservation | null }, { primaryNodeId: string | null; maxKnownNodes: number }, boolean][] = [
    ['a primary, ok, knowing the members', { role: 'primary', obs: running(view({ myId: 'P', role: 'primary' })) }, exp(null), true],
    ['cluster_state fail', { role: 'primary', obs: running(view({ myId: 'P', role: 'primary', state: 'fail' })) }, exp(null), false],
    ['recorded primary, calls itself replica (role not recorded yet)', { role: 'primary', obs: replica() }, exp(null), false],
    ['knows a stranger', { role: 'primary', obs: running(view({ myId: 'P', role: 'primary', knownNodes: 5 })) }, exp(null), false],
    ['knows a copy being forgotten', { role: 'primary', obs: running(view({ myId: 'P', role: 'primary', knownNodes: 5 })) }, exp(null, 5), true],
    ['has not heard of a member that just joined yet', { role: 'primary', obs: running(view({ myId: 'P', role: 'primary', knownNodes: 3 })) }, exp(null), true],
    ['a replica in sync with its primary', { role: 'replica', obs: replica() }, exp('P'), true],
    ['a replica whose link is up but follows another node', { role: 'replica', obs: replica({ primaryId: 'Q' }) }, exp('P'), false],
    ["a replica whose primary's node id is unknown", { role: 'replica', obs: replica() }, exp(null), false],
    ['a replica syncing', { role: 'replica', obs: replica({ syncInProgress: true, primaryLinkUp: false }) }, exp('P'), false],
    ['not observed (silent node)', { role: 'primary', obs: null }, exp(null), false],
    ['crashed', { role: 'primary', obs: { process: 'crashed', view: null } }, exp(null), false],
  ];
  it.each(table)('%s', (_name, m, e, expected) => {
    expect(isHealthyMember(m, e)).toBe(expected);
  });
});
