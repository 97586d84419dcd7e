/**
 * Local nodes as hosts: each node (its agent and engines) in its own network
 * namespace with its own address on a bridge this module creates, a private
 * /24 that exists only inside this machine (no route out: the namespaces
 * have only their subnet's route, and nothing forwards or NATs it). The
 * control plane listens on the bridge's address in the root namespace, so
 * agents reach it only over that network, and so do the engines each other.
 *
 * The clusters' stable endpoint is a floating address on the subnet (.200)
 * that the agents move between the hosts with VRRP (keepalived, run by each
 * agent: agents/src/floating-address). Every host namespace allows a
 * non-local bind (`net.ipv4.ip_nonlocal_bind=1`), so each agent's endpoint
 * server listens on that address whether or not its host holds it. A client
 * host (.250) is a namespace for applications with only the bridge: it
 * reaches the hosts and the floating address, nothing else.
 *
 * Names are derived from the stack's tag, so a start can find and remove
 * what a crashed run left (`removeHostNetwork` is idempotent). Needs root.
 */
import { execFileSync, spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

export interface HostNetwork {
  tag: string;
  /** First three octets, e.g. 10.0.59. */
  subnet: string;
  bridge: string;
  /** The bridge's address in the root namespace: where the control plane listens. */
  gateway: string;
  hosts: NetHost[];
  /** The floating address of the clusters' endpoints (.200), held by one host at a time. */
  floatingAddress: string;
  /** A host for applications (.250): only the bridge, no node on it. */
  client: NetHost;
}

export interface NetHost { ns: string; address: string; veth: string }

/** Prefix length of the host network (its netmask). */
export const HOST_PREFIX_LENGTH = 24;

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
    floatingAddress: `${subnet}.200`,
    client: { ns: `strata-${tag}-client`, address: `${subnet}.250`, veth: `stv${tag}c` },
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
  for (const name of links.split('\n').map((l) => l.split(/[\s@]/)[0]!).filter((n) => n.startsWith(`stv${tag}n`) || n === `stv${tag}c`)) tryIp('link', 'del', name);
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
    for (const h of [...net.hosts, net.client]) {
      if (!nsNow.has(h.ns)) ip('netns', 'add', h.ns);
      // A pair whose other end is not this namespace's eth0 (left by a namespace that is gone) is made again.
      if (!exists('-n', h.ns, 'link', 'show', 'eth0')) {
        if (exists('link', 'show', h.veth)) ip('link', 'del', h.veth);
        ip('link', 'add', h.veth, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', h.ns);
        ip('-n', h.ns, 'addr', 'add', `${h.address}/${HOST_PREFIX_LENGTH}`, 'dev', 'eth0');
      }
      ip('link', 'set', h.veth, 'master', net.bridge, 'up');
      ip('-n', h.ns, 'link', 'set', 'eth0', 'up');
      ip('-n', h.ns, 'link', 'set', 'lo', 'up');
    }
    // Every agent's endpoint server listens on the floating address, held by one host at a time.
    for (const h of net.hosts) execFileSync('ip', ['netns', 'exec', h.ns, 'sysctl', '-qw', 'net.ipv4.ip_nonlocal_bind=1'], { stdio: ['ignore', 'pipe', 'pipe'] });
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

/** Indexes of the hosts that hold the floating address now (one, except for a moment after a split). */
export function floatingAddressHolders(net: HostNetwork): number[] {
  return net.hosts.flatMap((h, i) => {
    try {
      return ip('-n', h.ns, '-br', '-4', 'addr', 'show', 'dev', 'eth0').includes(` ${net.floatingAddress}/`) ? [i] : [];
    } catch {
      return [];
    }
  });
}

/** The command line that runs `command` on the client host (`ip netns exec <client namespace> ...`). */
export function onClientHost(net: HostNetwork, command: string, args: string[] = []): [string, string[]] {
  return ['ip', ['netns', 'exec', net.client.ns, command, ...args]];
}

/** Runs a command on the client host and returns its output (throws with its stderr when it fails). */
export function runOnClientHost(net: HostNetwork, command: string, args: string[] = [], opts: { input?: string; timeoutMs?: number; cwd?: string } = {}): string {
  const [cmd, argv] = onClientHost(net, command, args);
  try {
    return execFileSync(cmd, argv, { input: opts.input, cwd: opts.cwd, timeout: opts.timeoutMs ?? 30_000, stdio: ['pipe', 'pipe', 'pipe'], encoding: 'utf8' });
  } catch (err) {
    // The command's own account of what went wrong (a timeout's message says only ETIMEDOUT).
    const stderr = String((err as { stderr?: unknown }).stderr ?? '').trim().split('\n').slice(-10).join('\n');
    if (stderr) (err as Error).message += `\n${command} ${args.join(' ')} said:\n${stderr}`;
    throw err;
  }
}

/** Starts a process on the client host (`ip netns exec` execs it: the child's PID is the process's). */
export function spawnOnClientHost(net: HostNetwork, command: string, args: string[] = [], opts: SpawnOptions = {}): ChildProcess {
  const [cmd, argv] = onClientHost(net, command, args);
  return spawn(cmd, argv, opts);
}
