/**
 * Local nodes as hosts: each node (its agent and engines) in its own network
 * namespace with its own address on a bridge this module creates, a private
 * /24 that exists only inside this machine (no route out: the namespaces
 * have only their subnet's route, and nothing forwards or NATs it). The
 * control plane listens on the bridge's address in the root namespace, so
 * agents reach it only over that network, and so do the engines each other.
 *
 * Names are derived from the stack's tag, so a start can find and remove
 * what a crashed run left (`removeHostNetwork` is idempotent). Needs root.
 */
import { execFileSync } from 'node:child_process';

export interface HostNetwork {
  tag: string;
  /** First three octets, e.g. 10.0.59. */
  subnet: string;
  bridge: string;
  /** The bridge's address in the root namespace: where the control plane listens. */
  gateway: string;
  hosts: { ns: string; address: string; veth: string }[];
}

const ip = (...args: string[]) => execFileSync('ip', args, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
const tryIp = (...args: string[]) => { try { ip(...args); } catch { /* already gone */ } };

/** The subnet of a stack whose loopback prefix is 127.A.B: 10.A.B.0/24. */
export function hostSubnet(loopbackPrefix: string): { tag: string; subnet: string } {
  const m = /^127\.(\d{1,3})\.(\d{1,3})$/.exec(loopbackPrefix);
  if (!m) throw new Error(`host network: expected a 127.A.B prefix, got ${loopbackPrefix}`);
  return { tag: `${m[1]}x${m[2]}`, subnet: `10.${m[1]}.${m[2]}` };
}

export function hostNetworkNames(tag: string, subnet: string, count: number): HostNetwork {
  return {
    tag, subnet, bridge: `stb${tag}`, gateway: `${subnet}.1`,
    hosts: Array.from({ length: count }, (_, i) => ({ ns: `strata-${tag}-n${i + 1}`, address: `${subnet}.${11 + i}`, veth: `stv${tag}n${i + 1}` })),
  };
}

/** Namespaces of this tag that exist now (also a crashed run's). */
export function existingNamespaces(tag: string): string[] {
  let out = '';
  try {
    out = ip('netns', 'list');
  } catch {
    return [];
  }
  return out.split('\n').map((l) => l.split(' ')[0]!).filter((n) => n.startsWith(`strata-${tag}-`));
}

/**
 * Removes the bridge, every namespace and every veth pair of this tag (a
 * namespace a process still holds outlives its name, and its pair with it,
 * unless the pair is deleted too).
 */
export function removeHostNetwork(tag: string): void {
  for (const ns of existingNamespaces(tag)) tryIp('netns', 'del', ns);
  let links = '';
  try {
    links = ip('-br', 'link', 'show');
  } catch { /* none */ }
  for (const name of links.split('\n').map((l) => l.split(/[\s@]/)[0]!).filter((n) => n.startsWith(`stv${tag}n`))) tryIp('link', 'del', name);
  tryIp('link', 'del', `stb${tag}`);
}

/**
 * Creates the bridge and the hosts, keeping whatever of them exists already: a
 * launcher killed with SIGKILL leaves engines running in their namespaces, and
 * the next start's agents adopt them there.
 */
export function ensureHostNetwork(tag: string, subnet: string, count: number): HostNetwork {
  if (process.getuid?.() !== 0) throw new Error('STRATA_LOCAL_NETWORK=netns needs root (network namespaces, a bridge and veth pairs)');
  const net = hostNetworkNames(tag, subnet, count);
  const exists = (...args: string[]) => { try { ip(...args); return true; } catch { return false; } };
  const nsNow = new Set(existingNamespaces(tag));
  try {
    if (!exists('link', 'show', net.bridge)) {
      ip('link', 'add', net.bridge, 'type', 'bridge');
      ip('addr', 'add', `${net.gateway}/24`, 'dev', net.bridge);
    }
    ip('link', 'set', net.bridge, 'up');
    for (const h of net.hosts) {
      if (!nsNow.has(h.ns)) ip('netns', 'add', h.ns);
      // A pair whose other end is not this namespace's eth0 (left by a namespace that is gone) is made again.
      if (!exists('-n', h.ns, 'link', 'show', 'eth0')) {
        if (exists('link', 'show', h.veth)) ip('link', 'del', h.veth);
        ip('link', 'add', h.veth, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', h.ns);
        ip('-n', h.ns, 'addr', 'add', `${h.address}/24`, 'dev', 'eth0');
      }
      ip('link', 'set', h.veth, 'master', net.bridge, 'up');
      ip('-n', h.ns, 'link', 'set', 'eth0', 'up');
      ip('-n', h.ns, 'link', 'set', 'lo', 'up');
    }
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`could not create the host network ${subnet}.0/24: ${e.stderr?.trim() || e.message}`);
  }
  return net;
}

/** Cuts a host off the network (its link to the bridge goes down) or joins it again. */
export function setHostLink(net: HostNetwork, index: number, up: boolean): void {
  ip('link', 'set', net.hosts[index]!.veth, up ? 'up' : 'down');
}
