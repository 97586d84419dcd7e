/**
 * keepalived's configuration for one agent's share of a floating address
 * (pure: floating-address.ts writes and runs it). One VRRP instance, VRRPv3
 * so that adverts may come more often than once a second, unicast to the
 * other agents' hosts (no multicast needed on the segment), every host
 * starting as BACKUP with `nopreempt`: the highest priority takes the
 * address at the first election, and a higher-priority host that comes back
 * later does not take it again. Two masters that meet after a split still
 * settle by priority at once; the winner repeats its gratuitous ARPs then
 * (`garp_lower_prio_repeat`) so that neighbours' ARP caches follow it. No
 * periodic gratuitous ARP: during a split, neighbours keep following the
 * host that took the address last (the majority's side) instead of flipping
 * between the two holders every few seconds.
 */
export interface FloatingAddressSpec {
  /** The address that moves, e.g. 10.0.1.200. */
  address: string;
  /** Its prefix length on the interface, e.g. 24. */
  prefixLength: number;
  /** The interface it is added to (the one on the shared segment). */
  interface: string;
  /** This host's own address on that segment: adverts go from it. */
  sourceAddress: string;
  /** The other agents' hosts on the segment. */
  peers: string[];
  /** 1..254; the highest takes the address at the first election. */
  priority: number;
  /** VRRP virtual router id (1..255), unique on the segment. */
  routerId: number;
  /** Seconds between adverts (VRRPv3: 0.01..40.95); a holder silent for about three of them loses the address. */
  advertSeconds: number;
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** Why the spec cannot be run, or null. */
export function floatingAddressProblem(s: FloatingAddressSpec): string | null {
  if (!IPV4.test(s.address)) return `the floating address must be an IPv4 address, got ${s.address}`;
  if (!Number.isInteger(s.prefixLength) || s.prefixLength < 1 || s.prefixLength > 32) return `the prefix length must be 1..32, got ${s.prefixLength}`;
  if (!/^[A-Za-z0-9_.:-]{1,15}$/.test(s.interface)) return `not an interface name: ${s.interface}`;
  if (!IPV4.test(s.sourceAddress)) return `the agent's address must be an IPv4 address, got ${s.sourceAddress}`;
  const bad = s.peers.find((p) => !IPV4.test(p));
  if (bad !== undefined) return `a peer must be an IPv4 address, got ${bad}`;
  if (s.peers.includes(s.sourceAddress)) return `the peers name this host's own address ${s.sourceAddress}`;
  if (s.peers.includes(s.address) || s.address === s.sourceAddress) return 'the floating address must not be a host\'s own address';
  if (!Number.isInteger(s.priority) || s.priority < 1 || s.priority > 254) return `the priority must be 1..254, got ${s.priority}`;
  if (!Number.isInteger(s.routerId) || s.routerId < 1 || s.routerId > 255) return `the router id must be 1..255, got ${s.routerId}`;
  if (!(s.advertSeconds >= 0.01 && s.advertSeconds <= 40.95)) return `the advert interval must be 0.01..40.95 s, got ${s.advertSeconds}`;
  return null;
}

/** How long a holder may be silent before a backup takes the address (RFC 5798's Master_Down_Interval). */
export function takeoverSeconds(s: Pick<FloatingAddressSpec, 'advertSeconds' | 'priority'>): number {
  return 3 * s.advertSeconds + ((256 - s.priority) * s.advertSeconds) / 256;
}

export function keepalivedConfig(s: FloatingAddressSpec, name: string): string {
  const problem = floatingAddressProblem(s);
  if (problem) throw new Error(problem);
  // A lone host needs no peers (it holds the address); keepalived would advertise by multicast then.
  const peers = s.peers.length ? `  unicast_src_ip ${s.sourceAddress}\n  unicast_peer {\n${s.peers.map((p) => `    ${p}\n`).join('')}  }\n` : '';
  return `# Written by the Strata agent ${name.replace(/[^\w.-]/g, '_')}; rewritten at every start.
global_defs {
  router_id ${name.replace(/[^\w.-]/g, '_')}
  vrrp_version 3
  max_auto_priority
}

vrrp_instance strata_endpoint {
  state BACKUP
  nopreempt
  interface ${s.interface}
  virtual_router_id ${s.routerId}
  priority ${s.priority}
  advert_int ${Number(s.advertSeconds.toFixed(2))}
${peers}  virtual_ipaddress {
    ${s.address}/${s.prefixLength} dev ${s.interface}
  }
  garp_lower_prio_repeat 1
}
`;
}
