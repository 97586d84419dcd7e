/**
 * Which nodes a cluster member forgets: the one membership rule behind every
 * `CLUSTER FORGET` Strata sends (lost copies, instances a change removed,
 * strangers gossip brought back). A member forgets every node it knows that
 * has neither a member's Redis id nor a member's address. Ids alone would
 * forget a member whose id was never recorded; addresses alone would keep a
 * node a member's address no longer belongs to. Pure.
 */
export interface KnownNode {
  id: string;
  host: string;
  port: number;
  myself: boolean;
}

export interface Membership {
  /** Redis node ids of the members (recorded, or reported by the members themselves). */
  ids: ReadonlySet<string>;
  /** `host:port` of every member. */
  addresses: ReadonlySet<string>;
}

export const memberAddress = (a: { host: string; port: number }) => `${a.host}:${a.port}`;

export function membership(members: { host: string; port: number; engineId?: string | null }[], reportedIds: string[] = []): Membership {
  return {
    ids: new Set([...members.flatMap((m) => (m.engineId ? [m.engineId] : [])), ...reportedIds]),
    addresses: new Set(members.map(memberAddress)),
  };
}

/** The ids a member that knows `known` forgets. */
export function nodesToForget(known: KnownNode[], members: Membership): string[] {
  return known.filter((n) => !n.myself && !members.ids.has(n.id) && !members.addresses.has(memberAddress(n))).map((n) => n.id);
}
