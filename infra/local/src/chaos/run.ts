/**
 * One chaos run against a stack whose nodes are hosts (netns): a cluster
 * of 3 shards (or `shards`) with a replica each, fenced or not, clients
 * appending from this process or spread over this machine and every node
 * host (client-placement.ts), a fault on the host of the
 * second shard's primary (the first's with one shard) for `seconds`, heal, wait
 * for the cluster to be ready again, read every list back and check.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { Stack } from '../stack';
import { inject, type FaultName } from '../nemesis';
import { checkHistory, lostAppends, type AppendOp, type ChaosVerdict } from './history';
import { appendLoop, SlotRouter } from './list-appender';
import { CLIENT_HOST, figuresByClient, nodeHostIndex, nodeHostLabel, placeClients, type ClientFigures, type ClientHost, type ClientHosts } from './client-placement';
import { mergeHistories } from './client-wire';
import { startRemoteClients, type RemoteClients } from './remote-clients';
import { startSplitSampler } from './split-sampler';

export type ChaosMode = 'default' | 'fenced';

export interface ChaosRunOptions {
  fault: FaultName;
  mode: ChaosMode;
  /** How long the fault lasts. */
  seconds: number;
  /** Appending clients (half of them with WAIT 1). Default 4 with `client`, a pair per host with `spread`. */
  clients?: number;
  /** Where the clients run (client-placement.ts). Default `client`. */
  clientHosts?: ClientHosts;
  /** Lists, spread over every slot. Default 64. */
  keys?: number;
  /** Shards of the cluster (1 replica each). Default 3. */
  shards?: number;
  /** `loss`: the share of the host's packets dropped, in percent. Default 30. */
  percent?: number;
  /** Cluster name (unique per run). */
  name: string;
  log?: (line: string) => void;
}

export interface ChaosRunResult extends ChaosVerdict {
  fault: FaultName;
  mode: ChaosMode;
  seconds: number;
  /** From the fault's heal to the cluster's `ready`, ms. */
  readyAfterHealMs: number | null;
  failovers: number;
  clientHosts: ClientHosts;
  /** The node host of the fault (`n1`, ...). */
  faultHost: ClientHost;
  /** Per client: the host it ran on, its side of the fault, its acknowledged and lost appends. */
  clients: ClientFigures[];
  /** The fault's start and heal, ms since the run started (the ops' clock). */
  faultAtMs: number;
  healedAtMs: number;
  /** The first lost acknowledged appends (up to 20, by start), to tell when and by whom they were written. */
  lostExamples: AppendOp[];
  /** Node hosts' client processes that did not end cleanly with every op reported (their missing ops are not judged). */
  workerProblems: string[];
}

type Api = <T>(method: string, p: string, body?: unknown) => Promise<{ status: number; body: T }>;

function apiOf(stack: Stack): Api {
  return async (method, p, body) => {
    const res = await fetch(`${stack.url}${p}`, {
      method, headers: { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: (res.status === 204 ? undefined : await res.json()) as never };
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitPhase(api: Api, id: string, phase: string, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if ((await api<{ status: { phase: string } }>('GET', `/v1/clusters/${id}`)).body.status.phase === phase) return true;
    await sleep(300);
  }
  return false;
}

/** The redis-server serving `address` (host:port), by its command line. */
function enginePid(address: string): number {
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const cmd = readFileSync(`/proc/${e}/cmdline`, 'utf8');
      if (cmd.startsWith('redis-server') && cmd.includes(address)) return Number(e);
    } catch { /* gone */ }
  }
  throw new Error(`no redis-server serves ${address}`);
}

export async function runChaos(stack: Stack, o: ChaosRunOptions): Promise<ChaosRunResult> {
  const net = stack.hostNetwork;
  if (!net) throw new Error('chaos runs need nodes as hosts (network: netns)');
  const log = o.log ?? (() => {});
  const api = apiOf(stack);
  const created = await api<{ cluster: { id: string } }>('POST', '/v1/clusters', {
    name: o.name, shards: o.shards ?? 3, replicasPerShard: 1, memoryMbPerShard: 64, fencing: o.mode === 'fenced' ? 'on' : 'off',
  });
  if (created.status !== 202) throw new Error(`create: ${created.status} ${JSON.stringify(created.body)}`);
  const id = created.body.cluster.id;
  // Stops every client, local or on a node host, whatever ended the run (idempotent).
  let stopClients: (() => Promise<void>) | undefined;
  try {
    if (!(await waitPhase(api, id, 'ready', 90_000))) {
      const status = (await api<{ status: { phase: string; conditions: { type: string; status: string; message: string }[] } }>('GET', `/v1/clusters/${id}`)).body.status;
      throw new Error(`the cluster did not become ready in 90 s: ${status.phase}; ${status.conditions.filter((c) => c.status !== 'true').map((c) => `${c.type}: ${c.message}`).join('; ')}`);
    }
    const conn = (await api<{ uri: string; seeds: string[] }>('GET', `/v1/clusters/${id}/connection`)).body;
    const u = new URL(conn.uri);
    const login = { username: decodeURIComponent(u.username), password: decodeURIComponent(u.password) };
    const writers = new SlotRouter(conn.seeds, login);
    const sampler = new SlotRouter(conn.seeds, login);
    await writers.refresh();
    const topo = (await api<{ shards: { instances: { address: string; role: string }[] }[] }>('GET', `/v1/clusters/${id}/topology`)).body;
    const members = topo.shards.flatMap((s) => s.instances.map((i) => i.address));
    const victimShard = Math.min(1, topo.shards.length - 1);
    const primary = topo.shards[victimShard]!.instances.find((i) => i.role === 'primary')!.address;
    const host = net.hosts.findIndex((h) => h.address === primary.split(':')[0]);

    const keys = Array.from({ length: o.keys ?? 64 }, (_, i) => `chaos:{${i}}`);
    const clientHosts = o.clientHosts ?? 'client';
    const placed = placeClients({ placement: clientHosts, nodeHosts: net.hosts.length, ...(o.clients !== undefined ? { count: o.clients } : {}) });
    const localOps: AppendOp[] = [];
    const t0 = Date.now();
    let stop = false;
    // Each client has connections of its own, as separate applications would: on a shared one, a plain client's
    // writes would queue behind another client's WAIT.
    const local = placed.filter((c) => c.host === CLIENT_HOST).map((c) => ({ c, router: new SlotRouter(conn.seeds, login) }));
    for (const l of local) await l.router.refresh();
    const refresher = (async () => { while (!stop) { await Promise.all([writers, ...local.map((l) => l.router)].map((r) => r.refresh())); await sleep(500); } })();
    const split = startSplitSampler({ router: sampler, addresses: () => members, t0 });
    const loops = local.map(({ c, router }) => appendLoop({ router, client: c.client, kind: c.kind, keys, t0, until: () => stop, record: (op) => localOps.push(op) }));
    // A node host's clients run in its namespace, one process per host; the deadline bounds them if this run hangs.
    const remote: RemoteClients[] = [];
    for (const h of [...new Set(placed.map((c) => c.host))].filter((h) => h !== CLIENT_HOST)) {
      const config = { seeds: conn.seeds, login, keys, t0, deadline: t0 + (o.seconds + 150) * 1000, clients: placed.filter((c) => c.host === h).map((c) => ({ client: c.client, kind: c.kind })) };
      remote.push(startRemoteClients({ host: h, ns: net.hosts[nodeHostIndex(h)!]!.ns, config }));
    }
    stopClients = async () => {
      stop = true;
      await Promise.all([...remote.map((w) => w.stop(2000)), ...loops, refresher, split.stop()]);
      for (const l of local) l.router.close();
      writers.close();
      sampler.close();
    };
    await Promise.all(remote.map((w) => w.ready));
    if (remote.length) log(`clients: ${placed.map((c) => `${c.client} ${c.kind} on ${c.host}`).join(', ')} (workers ${remote.map((w) => `${w.host} pid ${w.pid}`).join(', ')})`);

    await sleep(2000);
    const faultAt = Date.now() - t0;
    log(`${o.fault} on host ${host} (${primary}, shard ${victimShard + 1}'s primary) for ${o.seconds} s`);
    const fault = inject(net, {
      fault: o.fault, host, seconds: o.seconds,
      ...(o.fault === 'cut-control-plane' ? { controlPlanePort: stack.port } : {}),
      ...(o.fault === 'loss' ? { percent: o.percent ?? 30 } : {}),
      ...(o.fault === 'pause' ? { pids: [enginePid(primary)] } : {}),
    });
    await fault.healed;
    const healedAt = Date.now();
    const ready = await waitPhase(api, id, 'ready', 90_000);
    const readyAfterHealMs = ready ? Date.now() - healedAt : null;
    await sleep(2000);
    stop = true;
    const stopped = await Promise.all(remote.map((w) => w.stop()));
    await Promise.all(loops);
    await refresher;
    const workerProblems = remote.flatMap((w, i) => {
      const r = stopped[i]!;
      return r.whole && r.exitCode === 0 ? [] : [`${w.host} (pid ${w.pid}): exit ${r.exitCode}, ${w.stream.ops.length} ops received, done ${w.stream.done ?? 'never said'}${r.stderr ? `; ${r.stderr.slice(-300)}` : ''}`];
    });
    for (const p of workerProblems) log(`clients on ${p}`);
    const merged = mergeHistories([{ host: CLIENT_HOST, ops: localOps }, ...remote.map((w) => ({ host: w.host, ops: w.stream.ops }))], placed);
    if (merged.misplaced) workerProblems.push(`${merged.misplaced} ops from a client not placed on the host that sent them (left out)`);
    const ops = merged.ops;
    const samples = await split.stop();
    const endAt = Date.now() - t0;

    // Read every list back from its owner (after a last refresh).
    await writers.refresh();
    const finalLists = new Map<string, number[]>();
    for (const key of keys) {
      let values: number[] | null = null;
      for (let attempt = 0; attempt < 20 && values === null; attempt++) {
        try {
          values = (await writers.conn(writers.ownerOf(key)!).lrange(key, 0, -1)).map(Number);
        } catch (err) {
          const moved = /^MOVED \d+ (\S+)/.exec((err as Error).message);
          if (moved) writers.moved(key, moved[1]!);
          else await sleep(250);
        }
      }
      if (values === null) throw new Error(`could not read ${key} back`);
      finalLists.set(key, values);
    }
    writers.close();
    sampler.close();
    const events = (await api<{ items: { type: string }[] }>('GET', `/v1/clusters/${id}/events?limit=200`)).body.items;
    const verdict = checkHistory({ ops, finalLists, samples, faultAt, endAt });
    const faultHost = nodeHostLabel(host);
    return {
      fault: o.fault, mode: o.mode, seconds: o.seconds, ...verdict, readyAfterHealMs, failovers: events.filter((e) => e.type === 'failover').length,
      clientHosts, faultHost, clients: figuresByClient({ clients: placed, ops, finalLists, faultHost }), workerProblems,
      faultAtMs: faultAt, healedAtMs: healedAt - t0, lostExamples: lostAppends(ops, finalLists).slice(0, 20),
    };
  } finally {
    await stopClients?.();
    // Gone before the next run places its cluster.
    await api('DELETE', `/v1/clusters/${id}`).catch(() => undefined);
    const until = Date.now() + 60_000;
    while (Date.now() < until && (await api('GET', `/v1/clusters/${id}`).then((r) => r.status, () => 0)) !== 404) await sleep(300);
  }
}
