import { describe, expect, it } from 'vitest';
import type { ObservedClusterView } from '../domain';
import { planHealing, type HealInput, type HealInstance } from './heal.planner';

const NOW = 1_000_000;

const view = (v: Partial<ObservedClusterView> & { myId: string; role: 'primary' | 'replica' }): ObservedClusterView => ({
  state: 'ok', knownNodes: 6, slotsAssigned: 16384, primaryId: null, primaryLinkUp: null, slotsOwned: v.role === 'primary' ? 5461 : 0,
  openSlots: [], replOffset: 1000, linkDownSinceSec: null, syncInProgress: false, configEpoch: 1, ...v,
});

/** A healthy 3x1 cluster: shard s has primary P<s> on node n<s> and replica R<s> on the next node. */
function healthy(shards = 3): HealInstance[] {
  return Array.from({ length: shards }, (_, s) => [
    { id: `p${s}`, shard: s, nodeId: `n${s}`, role: 'primary' as const, preferredRole: 'primary' as const, engineId: `P${s}`, configEpoch: 1, nodeSilent: false, nodeDown: false,
      obs: { process: 'running' as const, held: false, crashedAt: null, view: view({ myId: `P${s}`, role: 'primary' }) } },
    { id: `r${s}`, shard: s, nodeId: `n${(s + 1) % shards}`, role: 'replica' as const, preferredRole: 'replica' as const, engineId: `R${s}`, configEpoch: 1, nodeSilent: false, nodeDown: false,
      obs: { process: 'running' as const, held: false, crashedAt: null, view: view({ myId: `R${s}`, role: 'replica', primaryId: `P${s}`, primaryLinkUp: true }) } },
  ]).flat();
}

const input = (instances: HealInstance[], over: Partial<HealInput> = {}): HealInput => ({
  now: NOW, shards: instances.filter((i) => i.preferredRole === 'primary').length, durability: 'none', instances,
  fastFailover: true, failoverGraceMs: 5000, rebalanceAfterMs: 30_000, healthySince: null, ...over,
});

const set = (list: HealInstance[], id: string, patch: (i: HealInstance) => void) => { patch(list.find((i) => i.id === id)!); return list; };
const crash = (i: HealInstance, at = NOW - 50) => { i.obs = { process: 'crashed', held: true, crashedAt: at, view: null }; };
/** Shard 0's third copy: a replica R0B on n2, following P0 (`v`: its link, sync state). */
const thirdCopyOfShard0 = (v: Partial<ObservedClusterView>): HealInstance => ({
  id: 'r0b', shard: 0, nodeId: 'n2', role: 'replica', preferredRole: 'replica', engineId: 'R0B', configEpoch: 1, nodeSilent: false, nodeDown: false,
  obs: { process: 'running', held: false, crashedAt: null, view: view({ myId: 'R0B', role: 'replica', primaryId: 'P0', ...v }) },
});
const linkDown = (sec: number) => (i: HealInstance) => { i.obs!.view = { ...i.obs!.view!, primaryLinkUp: false, linkDownSinceSec: sec }; };
const kinds = (p: ReturnType<typeof planHealing>) => p.actions.map((a) => a.kind);

describe('planHealing', () => {
  it('a healthy cluster needs nothing', () => {
    expect(planHealing(input(healthy()))).toEqual({ actions: [], waiting: [] });
  });

  const table: { name: string; build: () => HealInstance[]; over?: Partial<HealInput>; expect: unknown[] }[] = [
    {
      name: 'crashed primary with an in-sync replica (link just went down): promote it, do not restart the primary',
      build: () => set(set(healthy(), 'p1', (i) => crash(i)), 'r1', linkDown(0)),
      expect: [{ kind: 'promote', shard: 1, instanceId: 'r1', fromInstanceId: 'p1', mode: 'force' }],
    },
    {
      name: 'fewer than 3 shards: the survivors cannot out-vote, so take over without election',
      build: () => set(set(healthy(2), 'p0', (i) => crash(i)), 'r0', linkDown(0)),
      expect: [{ kind: 'promote', shard: 0, instanceId: 'r0', mode: 'takeover' }],
    },
    {
      name: 'replica link down long before the crash (missing writes), with AOF: restart the primary, its file has every write',
      build: () => set(set(healthy(), 'p2', (i) => crash(i)), 'r2', linkDown(60)),
      over: { durability: 'aof-everysec' },
      expect: [{ kind: 'restart', shard: 2, instanceId: 'p2', dataLost: false }],
    },
    {
      name: 'replica link down long before the crash, without persistence: the behind replica takes over (it lacks its last writes; the primary restarted would lack all)',
      build: () => set(set(healthy(), 'p2', (i) => crash(i)), 'r2', linkDown(60)),
      expect: [{ kind: 'promote', shard: 2, instanceId: 'r2', fromInstanceId: 'p2', mode: 'takeover' }],
    },
    {
      name: 'without persistence, a replica that never had the primary\'s data (offset 0) is not promoted: the primary restarts empty',
      build: () => set(set(healthy(), 'p2', (i) => crash(i)), 'r2', (i) => { linkDown(60)(i); i.obs!.view = { ...i.obs!.view!, replOffset: 0 }; }),
      expect: [{ kind: 'restart', shard: 2, instanceId: 'p2', dataLost: true }],
    },
    {
      name: 'replica never connected since it started (whole-stack restart): restart the primary (AOF keeps data)',
      build: () => set(set(healthy(), 'p0', (i) => crash(i)), 'r0', linkDown(-1)),
      over: { durability: 'aof-everysec' },
      expect: [{ kind: 'restart', shard: 0, instanceId: 'p0', dataLost: false }],
    },
    {
      name: 'replica in a full sync is not promoted',
      build: () => set(set(healthy(), 'p0', (i) => crash(i)), 'r0', (i) => { i.obs!.view = { ...i.obs!.view!, syncInProgress: true }; }),
      expect: [{ kind: 'restart', instanceId: 'p0', dataLost: true }],
    },
    {
      name: 'no replicas: restart the primary and say the data is lost (durability none)',
      build: () => set(healthy().filter((i) => i.role === 'primary'), 'p1', (i) => crash(i)),
      expect: [{ kind: 'restart', shard: 1, instanceId: 'p1', reason: 'the shard has no replica', dataLost: true, superseded: false }],
    },
    {
      name: 'after promotion: record the new roles, then restart the held old primary as a replica, without its old slot claims',
      build: () => set(set(healthy(), 'p1', (i) => crash(i)), 'r1', (i) => { i.obs!.view = view({ myId: 'R1', role: 'primary', configEpoch: 2 }); }),
      expect: [
        { kind: 'record-role', instanceId: 'r1', role: 'primary', previousRole: 'replica', configEpoch: 2 },
        { kind: 'restart', shard: 1, instanceId: 'p1', dataLost: false, superseded: true },
      ],
    },
    {
      name: 'a replica its agent found stopped at start (held) restarts as a replica once its primary serves',
      build: () => set(healthy(), 'r2', (i) => crash(i, NOW - 20_000)),
      expect: [{ kind: 'restart', shard: 2, instanceId: 'r2', reason: 'rejoins as a replica of its primary', dataLost: false }],
    },
    {
      name: 'a held replica whose primary is down too is not restarted before the primary (it would sync from nothing)',
      build: () => set(set(healthy(), 'p2', (i) => crash(i, NOW - 20_000)), 'r2', (i) => crash(i, NOW - 20_000)),
      expect: [{ kind: 'restart', shard: 2, instanceId: 'p2', reason: 'no replica was in sync when the primary stopped', dataLost: true }],
    },
    {
      name: 'engines found stopped at agent start: the crash time is the last time an agent saw them running, so a replica whose link went down then is in sync',
      // Agents away for 40 s; the primary died 30 s ago, its replica's link went down then.
      build: () => set(set(healthy(2), 'p1', (i) => crash(i, NOW - 40_000)), 'r1', linkDown(30)),
      expect: [{ kind: 'promote', shard: 1, instanceId: 'r1', fromInstanceId: 'p1', mode: 'takeover' }],
    },
    {
      name: 'engines found stopped at agent start: a replica whose link was down before the agents last saw the primary running is not in sync (AOF: the primary restarts)',
      build: () => set(set(healthy(2), 'p1', (i) => crash(i, NOW - 40_000)), 'r1', linkDown(60)),
      over: { durability: 'aof-everysec' },
      expect: [{ kind: 'restart', shard: 1, instanceId: 'p1', dataLost: false }],
    },
    {
      name: 'a stale "primary" observation (from before a switchover) never releases a just-killed primary',
      build: () => {
        // p1 became primary again with epoch 3; r1's last report still shows it primary at epoch 2.
        const l = set(healthy(), 'p1', (i) => { i.configEpoch = 3; crash(i); });
        return set(l, 'r1', (i) => { i.obs!.view = view({ myId: 'R1', role: 'primary', configEpoch: 2 }); });
      },
      expect: [{ kind: 'record-role', instanceId: 'r1', role: 'primary' }],
    },
    {
      name: 'a restarted ex-primary that still claims its slots while failing is not recorded as primary',
      build: () => set(healthy(), 'p1', (i) => { i.obs!.view = view({ myId: 'P1', role: 'primary', state: 'fail' }); }),
      expect: [],
    },
    {
      name: 'fast failover off: wait for Redis inside the grace period',
      build: () => set(set(healthy(), 'p1', (i) => crash(i, NOW - 1000)), 'r1', linkDown(1)),
      over: { fastFailover: false },
      expect: [],
    },
    {
      name: 'fast failover off: step in after the grace period',
      build: () => set(set(healthy(), 'p1', (i) => crash(i, NOW - 6000)), 'r1', linkDown(6)),
      over: { fastFailover: false },
      expect: [{ kind: 'promote', instanceId: 'r1' }],
    },
    {
      name: 'primary node not reporting: nothing to do here yet (Redis fails over on its own)',
      build: () => set(healthy(), 'p0', (i) => { i.obs = null; i.nodeSilent = true; }),
      expect: [],
    },
    {
      name: 'an instance its reporting node does not run is started',
      build: () => set(healthy(), 'r2', (i) => { i.obs = null; }),
      expect: [{ kind: 'start', shard: 2, instanceId: 'r2' }],
    },
    {
      name: 'a fresh replica that is not a member yet joins its shard primary',
      build: () => set(healthy(), 'r1', (i) => { i.obs!.view = view({ myId: 'N1', role: 'primary', slotsOwned: 0, knownNodes: 1 }); }),
      expect: [{ kind: 'join', shard: 1, instanceId: 'r1', primaryInstanceId: 'p1' }],
    },
    {
      name: 'an old primary back without slots while its promoted replica serves the shard joins it as a replica',
      build: () => {
        const l = set(healthy(), 'r1', (i) => { i.obs!.view = view({ myId: 'R1', role: 'primary', configEpoch: 9 }); });
        return set(l, 'p1', (i) => { i.obs!.view = view({ myId: 'P1', role: 'primary', slotsOwned: 0, configEpoch: 2 }); });
      },
      expect: [{ kind: 'record-role', instanceId: 'r1', role: 'primary' }, { kind: 'join', shard: 1, instanceId: 'p1', primaryInstanceId: 'r1' }],
    },
    {
      name: 'node down: its replica is rebuilt elsewhere; its primary, once Redis promoted the replica, too',
      build: () => {
        const l = healthy();
        // node n1 holds p1 and r0; Redis already promoted r1 for shard 1.
        for (const id of ['p1', 'r0']) set(l, id, (i) => { i.obs = null; i.nodeSilent = true; i.nodeDown = true; });
        return set(l, 'r1', (i) => { i.obs!.view = view({ myId: 'R1', role: 'primary', configEpoch: 2 }); });
      },
      expect: [
        { kind: 'record-role', instanceId: 'r1', role: 'primary' },
        { kind: 'replace', shard: 0, instanceId: 'r0' },
        { kind: 'replace', shard: 1, instanceId: 'p1' },
      ],
    },
    {
      name: 'primary\'s node silent, not yet down, replica lost its link: wait for Redis\'s own failover',
      build: () => set(set(healthy(), 'p1', (i) => { i.obs = null; i.nodeSilent = true; }), 'r1', linkDown(2)),
      expect: [],
    },
    {
      name: 'primary\'s node down and Redis has not promoted (too few primaries to vote): the replica takes over without an election',
      build: () => set(set(healthy(), 'p1', (i) => { i.obs = null; i.nodeSilent = true; i.nodeDown = true; }), 'r1', linkDown(20)),
      expect: [{ kind: 'promote', shard: 1, instanceId: 'r1', fromInstanceId: 'p1', mode: 'takeover' }],
    },
    {
      name: 'lost instances are forgotten by the remaining members',
      build: () => healthy(),
      over: { lost: [{ id: 'x', shard: 0, engineId: 'X', forgotten: false }, { id: 'y', shard: 1, engineId: 'Y', forgotten: true }] },
      expect: [{ kind: 'forget', lostInstanceIds: ['x', 'y'] }],
    },
    {
      name: 'forgotten lost instances need nothing more while no member still knows them',
      build: () => healthy(),
      over: { lost: [{ id: 'y', shard: 1, engineId: 'Y', forgotten: true }] },
      expect: [],
    },
    {
      name: 'a member that still knows a lost node (it was away when the rest forgot it) makes everyone forget again',
      build: () => set(healthy(), 'p2', (i) => { i.obs!.view = { ...i.obs!.view!, knownNodes: 7 }; }),
      over: { lost: [{ id: 'y', shard: 1, engineId: 'Y', forgotten: true }] },
      expect: [{ kind: 'forget', lostInstanceIds: ['y'] }],
    },
    {
      name: 'members that know a node no instance is (a removed instance learned back by gossip) forget every stranger',
      build: () => set(healthy(), 'p2', (i) => { i.obs!.view = { ...i.obs!.view!, knownNodes: 7 }; }),
      expect: [{ kind: 'forget', lostInstanceIds: [] }],
    },
    {
      name: 'strangers wait while a member is not running (it would learn them back)',
      build: () => set(set(healthy(), 'p2', (i) => { i.obs!.view = { ...i.obs!.view!, knownNodes: 7 }; }), 'r2', (i) => { i.obs = null; i.nodeSilent = true; }),
      expect: [],
    },
    {
      name: 'crashed primary while its replica\'s node has not reported yet (control plane just restarted): decide nothing',
      build: () => set(set(healthy(), 'p1', (i) => crash(i)), 'r1', (i) => { i.obs = null; i.nodeSilent = true; }),
      expect: [],
    },
    {
      name: 'crashed primary whose only replica sits on a down node: restart it (the replica is gone)',
      build: () => set(set(healthy(), 'p1', (i) => crash(i)), 'r1', (i) => { i.obs = null; i.nodeSilent = true; i.nodeDown = true; }),
      over: { durability: 'aof-everysec' },
      expect: [{ kind: 'restart', shard: 1, instanceId: 'p1', dataLost: false }],
    },
    {
      name: 'a primary\'s node is silent but the primary still serves (its replica is linked): it stays primary; the replica there is rebuilt',
      build: () => {
        const l = healthy();
        // n1 holds p1 and r0; its agent is silent past the timeout (died, or cut off), so nothing it said counts.
        for (const id of ['p1', 'r0']) set(l, id, (i) => { i.obs = null; i.nodeSilent = true; i.nodeDown = true; });
        return l;
      },
      expect: [{ kind: 'replace', shard: 0, instanceId: 'r0' }],
    },
    {
      name: 'a primary\'s node is down and its replica\'s link is down too (nothing shows the primary serves): the replica takes over',
      build: () => {
        const l = healthy();
        for (const id of ['p1', 'r0']) set(l, id, (i) => { i.obs = null; i.nodeSilent = true; i.nodeDown = true; });
        // Still in sync by offset, but its link is down: nothing proves the old primary serves.
        set(l, 'r1', (i) => { i.obs!.view = { ...i.obs!.view!, primaryLinkUp: false, linkDownSinceSec: 1 }; });
        return l;
      },
      expect: [
        { kind: 'promote', shard: 1, instanceId: 'r1', fromInstanceId: 'p1', mode: 'takeover', crashedAt: null },
        { kind: 'replace', shard: 0, instanceId: 'r0' },
      ],
    },
    {
      name: 'with write fencing, a replica whose link went down only just waits: the cut-off primary may still accept writes for the fencing lag',
      build: () => {
        const l = healthy();
        for (const id of ['p1', 'r0']) set(l, id, (i) => { i.obs = null; i.nodeSilent = true; i.nodeDown = true; });
        set(l, 'r1', linkDown(1));
        return l;
      },
      over: { fencing: 'on' },
      expect: [{ kind: 'replace', shard: 0, instanceId: 'r0' }],
    },
    {
      name: 'with write fencing, a replica whose link has been down past the fencing lag takes over',
      build: () => {
        const l = healthy();
        for (const id of ['p1', 'r0']) set(l, id, (i) => { i.obs = null; i.nodeSilent = true; i.nodeDown = true; });
        set(l, 'r1', linkDown(4));
        return l;
      },
      over: { fencing: 'on' },
      expect: [
        { kind: 'promote', shard: 1, instanceId: 'r1', fromInstanceId: 'p1', mode: 'takeover', crashedAt: null },
        { kind: 'replace', shard: 0, instanceId: 'r0' },
      ],
    },
    {
      name: 'a copy on a down node whose shard has all its copies on live nodes is removed, not rebuilt (there may be no node left for it)',
      build: () => {
        const l = healthy();
        for (const id of ['p1', 'r0']) set(l, id, (i) => { i.obs = null; i.nodeSilent = true; i.nodeDown = true; });
        // Shard 0 has a third copy on a live node: with one replica per shard it needs no other.
        l.push(thirdCopyOfShard0({ primaryLinkUp: true }));
        return l;
      },
      over: { replicasPerShard: 1 },
      expect: [{ kind: 'retire', shard: 0, instanceId: 'r0', reason: 'surplus' }],
    },
    {
      name: 'one copy too many on live nodes (replicas lowered while a node was away): the replica added last goes',
      build: () => {
        const l = healthy();
        l.push(thirdCopyOfShard0({ primaryLinkUp: true }));
        return l;
      },
      over: { replicasPerShard: 1 },
      expect: [{ kind: 'retire', shard: 0, instanceId: 'r0b', reason: 'surplus' }],
    },
    {
      name: 'one copy too many, one of them on a silent node (not down): that one goes, the in-sync copies stay',
      build: () => {
        const l = set(healthy(), 'r0', (i) => { i.obs = null; i.nodeSilent = true; });
        l.push(thirdCopyOfShard0({ primaryLinkUp: true }));
        return l;
      },
      over: { replicasPerShard: 1 },
      expect: [{ kind: 'retire', shard: 0, instanceId: 'r0', reason: 'surplus' }],
    },
    {
      name: 'one copy too many while one is still syncing: the syncing one goes, the in-sync copy stays',
      build: () => {
        const l = healthy();
        l.push(thirdCopyOfShard0({ primaryLinkUp: false, syncInProgress: true }));
        // Listed before r0 (r0 is the one added last), but r0b is the one not in sync: removing r0 would leave no in-sync replica.
        return [...l.filter((i) => i.id !== 'r0b').slice(0, 1), l.find((i) => i.id === 'r0b')!, ...l.filter((i) => i.id !== 'r0b').slice(1)];
      },
      over: { replicasPerShard: 1 },
      expect: [{ kind: 'retire', shard: 0, instanceId: 'r0b', reason: 'surplus' }],
    },
    {
      name: 'one copy too many while the primary is not serving (failing over): nothing goes yet',
      build: () => {
        const l = set(healthy(), 'p0', (i) => crash(i));
        l.push(thirdCopyOfShard0({ primaryLinkUp: false, linkDownSinceSec: 0 }));
        set(l, 'r0', linkDown(0));
        return l;
      },
      over: { replicasPerShard: 1 },
      expect: [{ kind: 'promote', shard: 0 }],
    },
    {
      name: 'a copy on a down node is rebuilt when its shard has fewer live copies than its spec asks for',
      build: () => {
        const l = healthy();
        for (const id of ['p1', 'r0']) set(l, id, (i) => { i.obs = null; i.nodeSilent = true; i.nodeDown = true; });
        return l;
      },
      over: { replicasPerShard: 1 },
      expect: [{ kind: 'replace', shard: 0, instanceId: 'r0' }],
    },
    {
      name: 'a primary whose node is down but to which another copy is still linked serves: no copy takes over',
      build: () => {
        const l = healthy();
        for (const id of ['p1', 'r0']) set(l, id, (i) => { i.obs = null; i.nodeSilent = true; i.nodeDown = true; });
        set(l, 'r1', linkDown(30));
        l.push({ id: 'r1b', shard: 1, nodeId: 'n0', role: 'replica', preferredRole: 'replica', engineId: 'R1B', configEpoch: 1, nodeSilent: false, nodeDown: false,
          obs: { process: 'running', held: false, crashedAt: null, view: view({ myId: 'R1B', role: 'replica', primaryId: 'P1', primaryLinkUp: true }) } });
        return l;
      },
      expect: [{ kind: 'replace', shard: 0, instanceId: 'r0' }],
    },
    {
      name: 'drain: the primary on a draining node switches over to its in-sync replica; replicas there are rebuilt elsewhere',
      build: () => {
        const l = healthy();
        for (const id of ['p1', 'r0']) set(l, id, (i) => { i.nodeDraining = true; });
        return l;
      },
      over: { replicasPerShard: 1 },
      expect: [
        { kind: 'add-replica', shard: 0, forInstanceId: 'r0' },
        { kind: 'switchover', shard: 1, instanceId: 'r1', fromInstanceId: 'p1', reason: 'drain' },
      ],
    },
    {
      name: 'drain, make before break: the copy on the draining node stays while its new replica syncs',
      build: () => {
        const l = set(healthy(), 'r0', (i) => { i.nodeDraining = true; });
        l.push({ id: 'n0r', shard: 0, nodeId: 'n2', role: 'replica', preferredRole: 'replica', engineId: 'N0', configEpoch: 1, nodeSilent: false, nodeDown: false,
          obs: { process: 'running', held: false, crashedAt: null, view: view({ myId: 'N0', role: 'replica', primaryId: 'P0', primaryLinkUp: false, syncInProgress: true }) } });
        return l;
      },
      over: { replicasPerShard: 1 },
      expect: [],
    },
    {
      name: 'drain: once the new replica is in sync, the copy on the draining node is removed',
      build: () => {
        const l = set(healthy(), 'r0', (i) => { i.nodeDraining = true; });
        l.push({ id: 'n0r', shard: 0, nodeId: 'n2', role: 'replica', preferredRole: 'replica', engineId: 'N0', configEpoch: 1, nodeSilent: false, nodeDown: false,
          obs: { process: 'running', held: false, crashedAt: null, view: view({ myId: 'N0', role: 'replica', primaryId: 'P0', primaryLinkUp: true }) } });
        return l;
      },
      over: { replicasPerShard: 1 },
      expect: [{ kind: 'retire', shard: 0, instanceId: 'r0', reason: 'drain' }],
    },
    {
      name: 'drain of a shard without replicas is blocked, and says so',
      build: () => set(healthy().filter((i) => i.role === 'primary').map((i) => ({ ...i, obs: { ...i.obs!, view: { ...i.obs!.view!, knownNodes: 3 } } })), 'p1', (i) => { i.nodeDraining = true; }),
      expect: [],
    },
    {
      name: 'open slots are closed',
      build: () => set(healthy(), 'p0', (i) => { i.obs!.view = { ...i.obs!.view!, openSlots: [{ slot: 42, state: 'migrating', peerId: 'P1' }] }; }),
      expect: [{ kind: 'repair-slots', slots: [42] }],
    },
    {
      name: 'healthy long enough after a failover: switch the primary back to the preferred instance',
      build: () => {
        const l = healthy();
        set(l, 'p1', (i) => { i.role = 'replica'; i.obs!.view = view({ myId: 'P1', role: 'replica', primaryId: 'R1', primaryLinkUp: true }); });
        return set(l, 'r1', (i) => { i.role = 'primary'; i.obs!.view = view({ myId: 'R1', role: 'primary' }); });
      },
      over: { healthySince: NOW - 31_000 },
      expect: [{ kind: 'switchover', shard: 1, instanceId: 'p1', fromInstanceId: 'r1', reason: 'rebalance' }],
    },
    {
      name: 'not yet healthy long enough: no switchover',
      build: () => {
        const l = healthy();
        set(l, 'p1', (i) => { i.role = 'replica'; i.obs!.view = view({ myId: 'P1', role: 'replica', primaryId: 'R1', primaryLinkUp: true }); });
        return set(l, 'r1', (i) => { i.role = 'primary'; i.obs!.view = view({ myId: 'R1', role: 'primary' }); });
      },
      over: { healthySince: NOW - 5_000 },
      expect: [],
    },
  ];

  for (const t of table) {
    it(t.name, () => {
      const plan = planHealing(input(t.build(), t.over));
      expect(plan.actions).toHaveLength(t.expect.length);
      t.expect.forEach((e, k) => expect(plan.actions[k]).toMatchObject(e as object));
    });
  }

  it('picks the replica with the highest replication offset', () => {
    const l = healthy();
    l.push({ id: 'r1b', shard: 1, nodeId: 'n0', role: 'replica', preferredRole: 'replica', engineId: 'R1b', configEpoch: 1, nodeSilent: false, nodeDown: false,
      obs: { process: 'running', held: false, crashedAt: null, view: view({ myId: 'R1b', role: 'replica', primaryId: 'P1', primaryLinkUp: false, linkDownSinceSec: 0, replOffset: 5000 }) } });
    set(set(l, 'p1', (i) => crash(i)), 'r1', linkDown(0));
    expect(planHealing(input(l, { shards: 3 })).actions).toMatchObject([{ kind: 'promote', instanceId: 'r1b' }]);
  });

  it('with two replicas, waits until both reported after the crash before comparing offsets (at most OFFSET_SETTLE_MS)', () => {
    // r1 was sampled before it saw the primary go (link still up, offset 1000 and growing); r1b after (5000, final).
    const build = () => {
      const l = healthy();
      l.push({ id: 'r1b', shard: 1, nodeId: 'n0', role: 'replica', preferredRole: 'replica', engineId: 'R1b', configEpoch: 1, nodeSilent: false, nodeDown: false,
        obs: { process: 'running', held: false, crashedAt: null, view: view({ myId: 'R1b', role: 'replica', primaryId: 'P1', primaryLinkUp: false, linkDownSinceSec: 0, replOffset: 1000 }) } });
      return set(set(l, 'p1', (i) => crash(i, NOW - 500)), 'r1', (i) => { i.obs!.view = { ...i.obs!.view!, replOffset: 900 }; });
    };
    const early = planHealing(input(build()));
    expect(early.actions.filter((a) => a.kind === 'promote')).toEqual([]);
    expect(early.waiting.join('\n')).toMatch(/^shard 2: .*replication offset after the crash/);
    // Its next report: link down, the offset it really reached.
    const settled = set(build(), 'r1', (i) => { i.obs!.view = { ...i.obs!.view!, primaryLinkUp: false, linkDownSinceSec: 0, replOffset: 2000 }; });
    expect(planHealing(input(settled)).actions).toMatchObject([{ kind: 'promote', instanceId: 'r1' }]);
    // A replica that never reports its link down does not hold the failover past the bound.
    expect(planHealing(input(build(), { now: NOW + 3000 })).actions).toMatchObject([{ kind: 'promote', instanceId: 'r1b' }]);
  });

  it('with two replicas, one whose view was read before the crash (an old link-down, since caught up) holds the choice until it reports again', () => {
    // r1b's last view, read 800 ms before the crash, showed a link down for 60 s: not promotable on it, but it may have
    // reconnected and caught up since. r1's view was read after the crash.
    const build = (r1bView: Partial<ObservedClusterView>) => {
      const l = healthy();
      l.push({ id: 'r1b', shard: 1, nodeId: 'n0', role: 'replica', preferredRole: 'replica', engineId: 'R1b', configEpoch: 1, nodeSilent: false, nodeDown: false,
        obs: { process: 'running', held: false, crashedAt: null, view: view({ myId: 'R1b', role: 'replica', primaryId: 'P1', primaryLinkUp: false, linkDownSinceSec: 60, replOffset: 500, sampledAt: NOW - 1300, ...r1bView }) } });
      return set(set(l, 'p1', (i) => crash(i, NOW - 500)), 'r1', (i) => { linkDown(0)(i); i.obs!.view = { ...i.obs!.view!, sampledAt: NOW - 100 }; });
    };
    expect(planHealing(input(build({}))).actions.filter((a) => a.kind === 'promote')).toEqual([]);
    // Its next view, read after the crash: it had caught up (link down since the crash, furthest offset).
    expect(planHealing(input(build({ linkDownSinceSec: 0, replOffset: 3000, sampledAt: NOW - 50 }))).actions).toMatchObject([{ kind: 'promote', instanceId: 'r1b' }]);
    // Its next view, read after the crash: it was behind all along; the in-sync one is promoted.
    expect(planHealing(input(build({ sampledAt: NOW - 50 }))).actions).toMatchObject([{ kind: 'promote', instanceId: 'r1' }]);
  });

  it('never restarts a crashed primary while an in-sync replica exists', () => {
    // Exhaustive over link states that mean "in sync when it died".
    for (const sec of [0, 1, 2]) {
      const plan = planHealing(input(set(set(healthy(), 'p0', (i) => crash(i, NOW - 2000)), 'r0', linkDown(sec))));
      expect(kinds(plan)).toEqual(['promote']);
    }
  });

  it('records a promotion before the demotion of the primary it replaces, and names that primary', () => {
    // r1 took over (serves slots, epoch 2); p1 is back as its replica: both roles lag in the store.
    const l = set(set(healthy(), 'r1', (i) => { i.obs!.view = view({ myId: 'R1', role: 'primary', configEpoch: 2 }); }),
      'p1', (i) => { i.obs!.view = view({ myId: 'P1', role: 'replica', primaryId: 'R1', primaryLinkUp: true, configEpoch: 2 }); });
    expect(planHealing(input(l)).actions).toMatchObject([
      { kind: 'record-role', instanceId: 'r1', role: 'primary', replaces: 'p1' },
      { kind: 'record-role', instanceId: 'p1', role: 'replica' },
    ]);
  });

  it("defers an old primary's demotion until the shard's new primary is recorded", () => {
    // p1 reports itself a replica, but r1's report (serving the slots) has not come yet: p1 stays the recorded primary.
    const l = set(healthy(), 'p1', (i) => { i.obs!.view = view({ myId: 'P1', role: 'replica', primaryId: 'R1', primaryLinkUp: true, configEpoch: 2 }); });
    expect(planHealing(input(l)).actions.filter((a) => a.kind === 'record-role')).toEqual([]);
  });

  describe('during an operation', () => {
    const crashedNewShard = () => set(set(healthy(), 'p2', (i) => crash(i)), 'r2', linkDown(0));
    it("promotes only the replica of a primary the change added", () => {
      const plan = planHealing(input(crashedNewShard(), { during: { added: ['p2', 'r2'], removed: [] } }));
      expect(plan).toEqual({ actions: [{ kind: 'promote', shard: 2, instanceId: 'r2', fromInstanceId: 'p2', mode: 'force', crashedAt: NOW - 50 }], waiting: [] });
    });
    it('leaves a source primary to Redis, instances the change removes alone, and does nothing else', () => {
      expect(planHealing(input(crashedNewShard(), { during: { added: [], removed: [] } }))).toEqual({ actions: [], waiting: [] });
      expect(planHealing(input(crashedNewShard(), { during: { added: ['p2'], removed: ['r2'] } }))).toEqual({ actions: [], waiting: [] });
      const other = set(healthy(), 'r0', (i) => { i.obs = null; });
      expect(planHealing(input(other, { during: { added: [], removed: [] } })).actions).toEqual([]);
    });
    it('a rolling restart: roles a switchover changed are recorded, a dead primary is promoted, an instance it stopped is neither started nor restarted', () => {
      const switched = set(set(healthy(), 'r0', (i) => { i.obs!.view = view({ myId: 'R0', role: 'primary', configEpoch: 2 }); }),
        'p0', (i) => { i.obs!.view = view({ myId: 'P0', role: 'replica', primaryId: 'R0', primaryLinkUp: true, configEpoch: 2 }); });
      expect(kinds(planHealing(input(switched, { during: 'promote-only' })))).toEqual(['record-role', 'record-role']);
      expect(planHealing(input(crashedNewShard(), { during: 'promote-only' })).actions).toEqual([{ kind: 'promote', shard: 2, instanceId: 'r2', fromInstanceId: 'p2', mode: 'force', crashedAt: NOW - 50 }]);
      const stopped = set(healthy(), 'r1', (i) => { i.obs = { process: 'starting', held: false, crashedAt: null, view: null }; });
      expect(planHealing(input(stopped, { during: 'promote-only' })).actions).toEqual([]);
    });
    it('a create once formed: a crashed primary without replicas is restarted (data lost), a dead primary\'s replica promoted, an instance still starting left to the create', () => {
      const noReplicas = set(healthy().filter((i) => i.role === 'primary'), 'p1', (i) => crash(i));
      expect(planHealing(input(noReplicas, { during: 'create' })).actions).toMatchObject([{ kind: 'restart', shard: 1, instanceId: 'p1', dataLost: true }]);
      expect(planHealing(input(noReplicas, { during: 'promote-only' })).actions).toEqual([]);
      expect(planHealing(input(crashedNewShard(), { during: 'create' })).actions).toEqual([{ kind: 'promote', shard: 2, instanceId: 'r2', fromInstanceId: 'p2', mode: 'force', crashedAt: NOW - 50 }]);
      const starting = set(healthy(), 'r1', (i) => { i.obs = { process: 'starting', held: false, crashedAt: null, view: null }; });
      expect(planHealing(input(starting, { during: 'create' })).actions).toEqual([]);
    });
  });
});
