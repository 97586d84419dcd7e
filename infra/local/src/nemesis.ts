/**
 * Network and process faults for nodes run as hosts (host-network.ts), shared
 * by the tests and `npm run nemesis`. Every fault is bounded: it heals itself
 * after its duration, on `heal()`, and when this process exits (normally or on
 * SIGINT/SIGTERM); rules live in a table of their own inside the host's
 * namespace, so healing removes exactly what was added.
 *
 * - `isolate`: the host's link to the bridge goes down (nobody reaches it).
 * - `minority`: the host reaches only the bridge's address (the control plane
 *   and clients on this machine), not the other hosts: a primary cut from its
 *   replicas and the majority while some clients still reach it.
 * - `cut-control-plane`: the host cannot reach the control plane's port; its
 *   engines keep serving clients and each other.
 * - `loss`: a share of the host's packets is dropped, both ways.
 * - `pause`: SIGSTOP to processes (a primary's engine), SIGCONT at the end.
 *
 * Latency (`tc netem`) is not offered: this machine's kernel has no netem.
 */
import { execFileSync } from 'node:child_process';
import { setHostLink, type HostNetwork } from './host-network';

export type FaultName = 'isolate' | 'minority' | 'cut-control-plane' | 'loss' | 'pause';
export const FAULTS: Record<FaultName, string> = {
  isolate: 'the host\'s link goes down: nobody reaches it, it reaches nobody',
  minority: 'the host reaches only this machine\'s bridge address (control plane, local clients), not the other hosts',
  'cut-control-plane': 'the host cannot reach the control plane; its engines keep serving',
  loss: 'drop a share of the host\'s packets (--percent), both ways',
  pause: 'SIGSTOP the given processes (--pid), SIGCONT at the end',
};

export interface FaultSpec {
  fault: FaultName;
  /** Host index (0-based) in the host network; not used by `pause`. */
  host?: number;
  /** Heals by itself after this long. */
  seconds: number;
  /** `cut-control-plane`: the control plane's TCP port. */
  controlPlanePort?: number;
  /** `loss`: percent of packets dropped (1..100). */
  percent?: number;
  /** `pause`: processes to stop. */
  pids?: number[];
}

const TABLE = 'strata_nemesis';
const nft = (ns: string, script: string) => execFileSync('ip', ['netns', 'exec', ns, 'nft', '-f', '-'], { input: script, stdio: ['pipe', 'pipe', 'pipe'] });
const dropTable = (ns: string) => { try { execFileSync('ip', ['netns', 'exec', ns, 'nft', 'delete', 'table', 'inet', TABLE], { stdio: 'ignore' }); } catch { /* none */ } };

/** One active fault; `heal()` undoes it (idempotent). */
export interface ActiveFault {
  spec: FaultSpec;
  startedAt: number;
  healed: Promise<void>;
  heal(): void;
}

const active = new Set<ActiveFault>();
let exitHooks = false;
function installExitHooks(): void {
  if (exitHooks) return;
  exitHooks = true;
  const healAll = () => { for (const f of [...active]) f.heal(); };
  process.once('exit', healAll);
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.once(sig, () => {
      healAll();
      process.kill(process.pid, sig);
    });
  }
}

function rules(net: HostNetwork, s: FaultSpec): string {
  const h = net.hosts[s.host!]!;
  switch (s.fault) {
    case 'minority': {
      const others = net.hosts.filter((x) => x !== h).map((x) => x.address);
      if (!others.length) throw new Error('minority: the network has only one host');
      const set = `{ ${others.join(', ')} }`;
      return `table inet ${TABLE} {
  chain input { type filter hook input priority 0; policy accept; ip saddr ${set} drop; }
  chain output { type filter hook output priority 0; policy accept; ip daddr ${set} drop; }
}`;
    }
    case 'cut-control-plane': {
      if (!s.controlPlanePort) throw new Error('cut-control-plane needs the control plane\'s port');
      return `table inet ${TABLE} {
  chain input { type filter hook input priority 0; policy accept; ip saddr ${net.gateway} tcp sport ${s.controlPlanePort} drop; }
  chain output { type filter hook output priority 0; policy accept; ip daddr ${net.gateway} tcp dport ${s.controlPlanePort} drop; }
}`;
    }
    case 'loss': {
      const p = s.percent ?? 0;
      if (!(p >= 1 && p <= 100)) throw new Error('loss needs --percent from 1 to 100');
      return `table inet ${TABLE} {
  chain input { type filter hook input priority 0; policy accept; iifname "eth0" numgen random mod 100 < ${p} drop; }
  chain output { type filter hook output priority 0; policy accept; oifname "eth0" numgen random mod 100 < ${p} drop; }
}`;
    }
    default:
      throw new Error(`no rules for ${s.fault}`);
  }
}

/** Starts a fault; it heals after `seconds`, on `heal()`, or when this process exits. */
export function inject(net: HostNetwork | undefined, spec: FaultSpec): ActiveFault {
  if (!(spec.seconds > 0)) throw new Error('a fault needs a duration (seconds > 0)');
  if (spec.fault !== 'pause') {
    if (!net) throw new Error(`${spec.fault} needs nodes run as hosts (STRATA_LOCAL_NETWORK=netns)`);
    if (spec.host === undefined || !net.hosts[spec.host]) throw new Error(`${spec.fault}: no host ${spec.host} (there are ${net.hosts.length})`);
  }
  installExitHooks();
  let undo: () => void;
  switch (spec.fault) {
    case 'isolate':
      setHostLink(net!, spec.host!, false);
      undo = () => setHostLink(net!, spec.host!, true);
      break;
    case 'pause': {
      const pids = spec.pids ?? [];
      if (!pids.length) throw new Error('pause needs the processes to stop (--pid)');
      for (const pid of pids) process.kill(pid, 'SIGSTOP');
      undo = () => { for (const pid of pids) try { process.kill(pid, 'SIGCONT'); } catch { /* gone */ } };
      break;
    }
    default: {
      const ns = net!.hosts[spec.host!]!.ns;
      dropTable(ns);
      nft(ns, rules(net!, spec));
      undo = () => dropTable(ns);
    }
  }
  let resolveHealed!: () => void;
  const healed = new Promise<void>((r) => (resolveHealed = r));
  let done = false;
  const fault: ActiveFault = {
    spec, startedAt: Date.now(), healed,
    heal: () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      active.delete(fault);
      try {
        undo();
      } finally {
        resolveHealed();
      }
    },
  };
  const timer = setTimeout(() => fault.heal(), spec.seconds * 1000);
  timer.unref();
  active.add(fault);
  return fault;
}

/** Heals every fault this process started. */
export function healAll(): void {
  for (const f of [...active]) f.heal();
}
