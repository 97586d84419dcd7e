import type { Redis } from 'ioredis';
import type { ObservedClusterView } from '@strata/api';
import { observeWith } from '@strata/engine/redis-admin';

/**
 * The commands the status observation needs beyond the sampler's INFO (which
 * holds the replication section), as commandstats names them.
 */
export const VIEW_COMMANDS = [['CLUSTER', 'MYID'], ['CLUSTER', 'INFO'], ['CLUSTER', 'NODES']] as const;
export const VIEW_COMMAND_NAMES = ['cluster|myid', 'cluster|info', 'cluster|nodes'] as const;

/**
 * How an instance sees the cluster, from replies the sampler's pipeline
 * already holds (keyed `CLUSTER MYID`, `CLUSTER INFO`, `CLUSTER NODES`,
 * `INFO REPLICATION`). The engine's `observeWith` does the observing and
 * parsing through a client; here its pipeline is answered from these replies
 * instead of the network, so both stay one reading. A command it asks for
 * that is not among them (the engine's observation changed) makes the view
 * null, and the status reporter then observes the instance itself.
 */
export function viewFromReplies(replies: ReadonlyMap<string, unknown>): Promise<ObservedClusterView | null> {
  const client = {
    pipeline() {
      const asked: string[] = [];
      const p = {
        call: (...args: string[]) => {
          asked.push(args.join(' ').toUpperCase());
          return p;
        },
        exec: async () => asked.map((k) => (replies.has(k) ? [null, replies.get(k)] : [new Error(`${k} was not read`), null])),
      };
      return p;
    },
  };
  return observeWith(client as unknown as Redis);
}

/**
 * Do two views of one instance differ in what the control plane acts on
 * (identity, role, cluster state, slots, primary and its link, epoch, a sync)?
 * Replication offsets and byte counts move all the time and do not count.
 */
export function viewChanged(a: ObservedClusterView, b: ObservedClusterView): boolean {
  if (
    a.myId !== b.myId || a.role !== b.role || a.state !== b.state || a.knownNodes !== b.knownNodes || a.slotsAssigned !== b.slotsAssigned
    || a.primaryId !== b.primaryId || a.primaryLinkUp !== b.primaryLinkUp || a.slotsOwned !== b.slotsOwned || a.configEpoch !== b.configEpoch
    || a.syncInProgress !== b.syncInProgress || (a.linkDownSinceSec === null) !== (b.linkDownSinceSec === null) || a.openSlots.length !== b.openSlots.length
  ) return true;
  return a.openSlots.some((s, i) => {
    const o = b.openSlots[i]!;
    return s.slot !== o.slot || s.state !== o.state || s.peerId !== o.peerId;
  });
}
