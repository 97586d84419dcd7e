import { existsSync, mkdirSync, readFileSync, chmodSync } from 'node:fs';
import path from 'node:path';
import { startPostgres, type PostgresHandle } from './postgres.runner';
import { REPO_ROOT, startDetachedTs, startTs, stopProcess, type Managed } from './process';
import { describePid, isWildcard, keepalivedProcessesUnder, portHolders, redisProcessesUnder, stopLeftoverRedis, stopPids, strataProcessesOf } from './leftovers';
import { RestartBackoff } from './restart-backoff';
import { loopbackPrefix } from './loopback';
import { createStrataClient, unwrap } from '@strata/api/client';
import { Agent as UndiciAgent, fetch as undiciFetch } from 'undici';
import { ensureHostNetwork, HOST_PREFIX_LENGTH, hostSubnet, removeHostNetwork, type HostNetwork } from './host-network';

export interface StackOptions {
  /** State directory (PostgreSQL data, admin token, node data). Default: <repo>/.strata */
  dir?: string;
  /** Local agents (default 3). */
  nodes?: number;
  /** First three octets of the nodes' loopback addresses (node i gets .i+1). Default 127.0.1 */
  addressPrefix?: string;
  /** Control plane port; 0 picks a free one. A second control plane listens on the next port (or a free one with 0). */
  port?: number;
  /**
   * Control-plane processes sharing the stack's PostgreSQL (default 1). Agents get every one's URL (STRATA_URL
   * lists them) and use the next when one cannot be reached.
   */
  controlPlanes?: number;
  /** Use this PostgreSQL instead of an embedded one. */
  databaseUrl?: string;
  /** Memory each local node offers (MB). */
  nodeMemoryMb?: number;
  /** Echo child output to this console. */
  echo?: boolean;
  /** fsync off for the embedded PostgreSQL (tests). */
  fastPostgres?: boolean;
  adminToken?: string;
  /** Address of the clusters' stable endpoints (default <addressPrefix>.200). */
  endpointHost?: string;
  /** Extra environment for the control plane. */
  extraEnv?: NodeJS.ProcessEnv;
  /** Extra environment for the agents (e.g. STRATA_AGENT_SPARES). */
  agentEnv?: NodeJS.ProcessEnv;
  /** Aborting it cancels a start in progress: what was started is stopped and startStack rejects. */
  signal?: AbortSignal;
  /**
   * `netns`: every node in its own network namespace on a private bridge (host-network.ts), the control plane
   * reached over it; needs root. Default `loopback`: every node a loopback address of this machine.
   */
  network?: 'loopback' | 'netns';
  /**
   * End every process of the stack (agents, engines, control plane, PostgreSQL, host network) if this process dies
   * without stopping it (stack-watchdog.ts): for tests, benchmarks and chaos runs. `npm start` leaves it off, so
   * that its engines outlive a launcher killed with SIGKILL and the next start adopts them with their keys.
   */
  endWithLauncher?: boolean;
}

export interface AgentHandle {
  name: string;
  address: string;
  dir: string;
  proc?: Managed;
  /** Set while the launcher itself stops this agent: an exit then is not a crash. */
  stopping?: boolean;
  /** Times the launcher restarted this agent after it died (attempts, including failed ones). */
  restarts: number;
  backoff: RestartBackoff;
}

export interface ControlPlaneHandle {
  url: string;
  port: number;
  /** The running process (undefined or exited after stopControlPlane). */
  proc?: Managed;
}

export interface Stack {
  /** The first control plane's URL. */
  url: string;
  /** Every control plane, in the order agents try them (the first is `url`). */
  controlPlanes: ControlPlaneHandle[];
  /** With `network: 'netns'`: the bridge, the namespaces and their addresses. */
  hostNetwork?: HostNetwork;
  /** With STRATA_TLS_CERT (HTTPS): the certificate the API is verified with (PEM) and a fetch that trusts it. */
  tls?: { ca: string; fetch: typeof fetch };
  /** The address the clusters' stable endpoints listen on. */
  endpointHost: string;
  port: number;
  dir: string;
  databaseUrl: string;
  adminToken: string;
  adminEmail: string;
  adminPassword: string;
  nodes: number;
  agents: AgentHandle[];
  /** Stop a control plane (default the first) with a signal (SIGKILL to simulate a crash). */
  stopControlPlane(signal?: NodeJS.Signals, index?: number): Promise<void>;
  /**
   * Starts a control plane again (after stopControlPlane) on its port; `env`: settings added to the stack's for this
   * run only.
   */
  startControlPlane(env?: NodeJS.ProcessEnv, index?: number): Promise<void>;
  stopAgent(index: number, signal?: NodeJS.Signals): Promise<void>;
  startAgent(index: number): Promise<void>;
  /**
   * Everything down within a bound (about 15 s at worst), engines stopped with their data kept. Reports redis-server
   * processes the agents failed to stop (then stopped here).
   */
  stop(): Promise<{ leftoverPids: number[] }>;
  /** Last resort, synchronous: SIGKILL to agents, control plane and engines, immediate stop of PostgreSQL. */
  kill(): void;
}

const onPath = (bin: string) => (process.env.PATH ?? '').split(':').some((d) => d && existsSync(path.join(d, bin)));

const CP_ENTRY = path.join(REPO_ROOT, 'control-plane/src/main.ts');
const AGENT_ENTRY = path.join(REPO_ROOT, 'agents/src/main.ts');
const WATCHDOG_ENTRY = path.join(REPO_ROOT, 'infra/local/src/stack-watchdog.ts');

/**
 * How long a stop waits for agents and the control plane before SIGKILL. An
 * agent stops its engines within 7 s (agents/src/main.ts); engines of an agent
 * killed here are stopped by the sweep that follows (2 s, then SIGKILL).
 */
const STOP_MS = { agents: 8000, controlPlane: 8000, engines: 2000 };

/** Runs Strata on this machine: embedded PostgreSQL, the control plane and a local node pool. */
export async function startStack(opts: StackOptions = {}): Promise<Stack> {
  const dir = path.resolve(opts.dir ?? path.join(REPO_ROOT, '.strata'));
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, 0o711);
  const logs = path.join(dir, 'logs');
  const nodeCount = opts.nodes ?? 3;
  const prefix = loopbackPrefix(opts.addressPrefix ?? '127.0.1');
  const hostNet = opts.network === 'netns' ? (() => {
    if (!onPath('keepalived')) throw new Error('STRATA_LOCAL_NETWORK=netns needs keepalived (the floating endpoint address): apt-get install keepalived');
    const { tag, subnet } = hostSubnet(prefix);
    return ensureHostNetwork(tag, subnet, nodeCount);
  })() : undefined;
  let pgHandle: PostgresHandle | undefined;
  const cpCount = opts.controlPlanes ?? 1;
  if (!Number.isInteger(cpCount) || cpCount < 1 || cpCount > 9) throw new Error('controlPlanes must be an integer from 1 to 9');
  const firstPort = opts.port ?? 8080;
  const cps: ControlPlaneHandle[] = Array.from({ length: cpCount }, (_, i) => ({ url: '', port: firstPort && firstPort + i }));
  const agents: AgentHandle[] = Array.from({ length: nodeCount }, (_, i) => ({
    name: `node-${i + 1}`, address: hostNet ? hostNet.hosts[i]!.address : `${prefix}.${i + 1}`, dir: path.join(dir, 'nodes', `node-${i + 1}`), restarts: 0, backoff: new RestartBackoff(),
  }));
  let shuttingDown = false;
  const nodesDir = path.join(dir, 'nodes');
  const cancelled = () => {
    if (opts.signal?.aborted) throw new Error('start cancelled');
  };

  await clearLeftovers({ dir, agents, controlPlanePorts: cps.map((c) => c.port) });
  // With endWithLauncher: ends this stack if this process dies without stopping it; a stop ends the watchdog last.
  const watchdog = opts.endWithLauncher ? await startDetachedTs(WATCHDOG_ENTRY, {
    ...process.env, STRATA_WATCH_PID: String(process.pid), STRATA_WATCH_DIR: dir,
    ...(opts.databaseUrl ? {} : { STRATA_WATCH_POSTGRES: '1' }), ...(hostNet ? { STRATA_WATCH_NETNS: hostNet.tag } : {}),
  }) : undefined;
  const endWatchdog = () => { try { watchdog?.kill('SIGTERM'); } catch { /* gone */ } };
  try {
    const databaseUrl = opts.databaseUrl ?? (pgHandle = await startPostgres({
      dataDir: path.join(dir, 'pg'), logFile: path.join(logs, 'postgres.log'), fast: opts.fastPostgres,
    })).url;

    const cpEnv: NodeJS.ProcessEnv = {
      // Cluster endpoints: one loopback address served by whichever local agent binds it first; hosts in namespaces
      // share no loopback: their endpoint is the floating address the agents move between them with VRRP.
      ...process.env,
      STRATA_ENDPOINT_HOST: opts.endpointHost ? loopbackPrefix(opts.endpointHost) : hostNet ? hostNet.floatingAddress : `${prefix}.200`,
      // The control plane listens on the bridge: agents in their namespaces reach it only over that network.
      ...(hostNet ? { STRATA_HOST: hostNet.gateway } : {}),
      ...opts.extraEnv, DATABASE_URL: databaseUrl, STRATA_HOME: dir,
      ...(opts.adminToken ? { STRATA_ADMIN_TOKEN: opts.adminToken } : {}),
    };
    // HTTPS when the control plane is given a certificate: the launcher and the agents verify it (agents by its pin).
    // Every control plane of the stack has the same certificate (and so one CA for the agents to pin).
    const tls = cpEnv.STRATA_TLS_CERT ? launcherTls(cpEnv.STRATA_TLS_CERT) : undefined;
    const startControlPlane = async (env: NodeJS.ProcessEnv = {}, i = 0) => {
      const c = cps[i];
      if (!c) throw new Error(`no control plane ${i} (this stack has ${cps.length})`);
      const logFile = path.join(logs, i === 0 ? 'control-plane.log' : `control-plane-${i + 1}.log`);
      const m = await startTs({ entry: CP_ENTRY, env: { ...cpEnv, ...env, STRATA_PORT: String(c.port) }, logFile, readyPrefix: 'STRATA_LISTENING', echo: opts.echo });
      // Port 0 picks a free port once; a restart keeps it (agents know this URL).
      c.port = Number(m.readyLine.split(' ')[1]);
      c.url = `${tls ? 'https' : 'http'}://${hostNet ? hostNet.gateway : '127.0.0.1'}:${c.port}`;
      c.proc = m;
    };
    // One after the other: the first applies migrations and writes the stack's master key and admin credentials.
    for (let i = 0; i < cps.length; i++) {
      cancelled();
      await startControlPlane({}, i);
    }
    cancelled();
    const url = cps[0]!.url;
    const port = cps[0]!.port;
    const agentUrls = cps.map((c) => c.url).join(',');
    const adminToken = readFileSync(path.join(dir, 'admin-token'), 'utf8').trim();
    const adminPassword = readFileSync(path.join(dir, 'admin-password'), 'utf8').trim();

    const startAgent = async (i: number) => {
      const a = agents[i]!;
      const env: NodeJS.ProcessEnv = {
        ...process.env, ...opts.agentEnv, STRATA_URL: agentUrls, STRATA_AGENT_DIR: a.dir, STRATA_AGENT_NAME: a.name, STRATA_AGENT_ADDRESS: a.address,
        STRATA_AGENT_MEMORY_MB: String(opts.nodeMemoryMb ?? 2048), STRATA_AGENT_STOP_ENGINES_ON_EXIT: 'true',
        ...(hostNet ? floatingAddressEnv(hostNet, i) : {}),
      };
      if (!existsSync(path.join(a.dir, 'agent.json'))) {
        const join = await joinToken(url, adminToken, tls?.fetch);
        env.STRATA_JOIN_TOKEN = join.token;
        if (join.controlPlaneCaSha256) env.STRATA_CA_SHA256 = join.controlPlaneCaSha256;
      }
      a.stopping = false;
      const proc = await startTs({
        entry: AGENT_ENTRY, env, logFile: path.join(logs, `${a.name}.log`), readyPrefix: 'STRATA_AGENT_READY', echo: opts.echo,
        ...(hostNet ? { netns: hostNet.hosts[i]!.ns } : {}),
      });
      if (shuttingDown) {
        // A restart that finished while the stack stops: this agent is not left running.
        await stopProcess(proc, 'SIGTERM', STOP_MS.agents);
        throw new Error('the stack is stopping');
      }
      a.proc = proc;
      const startedAt = Date.now();
      // Like systemd's Restart=always (infra/systemd/strata-agent.service): an
      // agent that dies is started again, after 1 s backing off to 30 s while
      // it keeps dying, back to 1 s after a stable run; a restart that fails
      // is tried again, never given up.
      void proc.exited.then(async (code) => {
        if (a.stopping || shuttingDown || a.proc !== proc) return;
        let delay = a.backoff.next(Date.now() - startedAt);
        console.warn(`[strata] agent ${a.name} exited (${code ?? 'killed'}); restarting it in ${delay} ms`);
        for (;;) {
          await new Promise((r) => setTimeout(r, delay));
          if (a.stopping || shuttingDown || a.proc !== proc) return;
          a.restarts++;
          try {
            await startAgent(i);
            return;
          } catch (err) {
            if (shuttingDown) return;
            delay = a.backoff.next(0);
            console.error(`[strata] could not restart agent ${a.name}: ${(err as Error).message}; trying again in ${delay} ms`);
          }
        }
      });
    };
    await Promise.all(agents.map((_, i) => startAgent(i)));
    await waitForNodesOnline(url, adminToken, nodeCount, opts.signal, tls?.fetch);

    let stopped: Promise<{ leftoverPids: number[] }> | undefined;
    const stack: Stack = {
      url, controlPlanes: cps, ...(tls ? { tls } : {}), ...(hostNet ? { hostNetwork: hostNet } : {}), endpointHost: String(cpEnv.STRATA_ENDPOINT_HOST ?? ''), port, dir, databaseUrl, adminToken, adminEmail: 'admin@strata.local', adminPassword, nodes: nodeCount, agents,
      stopControlPlane: (signal = 'SIGTERM', i = 0) => stopProcess(cps[i]?.proc, signal),
      startControlPlane: (env, i = 0) => startControlPlane(env, i),
      stopAgent: (i, signal = 'SIGTERM') => {
        agents[i]!.stopping = true;
        return stopProcess(agents[i]!.proc, signal);
      },
      startAgent,
      stop: () => {
        shuttingDown = true;
        stopped ??= stopAll();
        return stopped;
      },
      kill: () => {
        shuttingDown = true;
        for (const m of [...agents.map((a) => a.proc), ...cps.map((c) => c.proc)]) if (m && m.child.exitCode === null && m.child.signalCode === null) m.child.kill('SIGKILL');
        for (const p of strataProcessesOf(dir)) try { process.kill(p.pid, 'SIGKILL'); } catch { /* gone */ }
        for (const pid of [...redisProcessesUnder(nodesDir), ...keepalivedProcessesUnder(nodesDir)]) try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
        pgHandle?.kill();
        if (hostNet) removeHostNetwork(hostNet.tag);
        endWatchdog();
      },
    };
    return stack;
  } catch (err) {
    shuttingDown = true;
    await stopAll();
    throw err;
  }

  /**
   * Agents and the control plane get SIGTERM together (agents need nothing from it to stop their engines); each gets
   * SIGKILL at its deadline. Then whatever the agents left under nodes/ is stopped, and PostgreSQL once the control
   * plane is gone.
   */
  async function stopAll(): Promise<{ leftoverPids: number[] }> {
    const controlPlane = Promise.all(cps.map((c) => stopProcess(c.proc, 'SIGTERM', STOP_MS.controlPlane)));
    await Promise.all(agents.map((a) => stopProcess(a.proc, 'SIGTERM', STOP_MS.agents)));
    // An agent this launcher started but no longer tracks (a restart cut short): SIGKILL; its engines go next.
    for (const p of strataProcessesOf(dir).filter((p) => p.role === 'agent')) try { process.kill(p.pid, 'SIGKILL'); } catch { /* gone */ }
    // Agents stop their engines; anything still running under our nodes (agents killed, or a bug) is stopped here.
    const leftovers = await stopLeftoverRedis(nodesDir, STOP_MS.engines);
    if (leftovers.length) console.warn(`[strata] stopped ${leftovers.length} redis-server process(es) the agents left running: ${leftovers.join(', ')}`);
    // keepalived of agents killed on the way (a namespace removed while a process runs in it lives on with it).
    await stopPids(keepalivedProcessesUnder(nodesDir), STOP_MS.engines);
    await controlPlane;
    await pgHandle?.stop();
    if (hostNet) removeHostNetwork(hostNet.tag);
    endWatchdog();
    return { leftoverPids: leftovers };
  }
}

/**
 * Each host's agent runs keepalived for the floating endpoint address, with the other hosts as its VRRP peers; the
 * first host has the highest priority, so it holds the address after a start.
 */
function floatingAddressEnv(net: HostNetwork, i: number): NodeJS.ProcessEnv {
  return {
    STRATA_AGENT_FLOATING_ADDRESS: `${net.floatingAddress}/${HOST_PREFIX_LENGTH}`,
    STRATA_AGENT_FLOATING_PEERS: net.hosts.filter((_, j) => j !== i).map((h) => h.address).join(','),
    STRATA_AGENT_FLOATING_PRIORITY: String(Math.max(1, 254 - i)),
    STRATA_AGENT_FLOATING_INTERFACE: 'eth0',
  };
}

/**
 * Before a start: what a stop that was cut short left (a launcher killed with SIGKILL) is dealt with, and a stranger
 * on an address or port this stack wants is named instead of failing later with "Address already in use".
 * - Agents and a control plane of this directory still running: agents get SIGKILL (their engines stay up and the
 *   new agents adopt them), the control plane SIGTERM.
 * - Engines of this directory stay up for their agents to adopt, except under a node this start does not run.
 * - Any other process listening on a node's address, or on the control plane's port, fails the start.
 */
async function clearLeftovers(o: { dir: string; agents: AgentHandle[]; controlPlanePorts: number[] }): Promise<void> {
  const stale = strataProcessesOf(o.dir);
  if (stale.length) {
    console.warn(`[strata] stopping processes a previous launcher of ${o.dir} left running: ${stale.map((p) => `${p.role} ${describePid(p.pid)}`).join('; ')}`);
    for (const p of stale) if (p.role === 'agent') try { process.kill(p.pid, 'SIGKILL'); } catch { /* gone */ }
    await stopPids(stale.filter((p) => p.role === 'control plane').map((p) => p.pid), 5000);
  }
  const nodeDirs = o.agents.map((a) => a.dir);
  const ours = new Set(redisProcessesUnder(path.join(o.dir, 'nodes')));
  const active = new Set(nodeDirs.flatMap((d) => redisProcessesUnder(d)));
  const others = [...ours].filter((pid) => !active.has(pid));
  if (others.length) await stopPids(others, STOP_MS.engines);
  // keepalived has nothing to adopt: each agent starts its own again.
  await stopPids(keepalivedProcessesUnder(path.join(o.dir, 'nodes')), STOP_MS.engines);

  // Every port on a node's address; on a wildcard address the ports its engines have (and their cluster bus ports).
  const addresses = new Set(o.agents.map((a) => a.address));
  const enginePorts = new Set(nodeDirs.flatMap(instancePorts).flatMap((p) => [p, p + 10000]));
  const cpPorts = new Set(o.controlPlanePorts.filter((p) => p > 0));
  const strangers = portHolders((address, port) => addresses.has(address) || (isWildcard(address) && enginePorts.has(port))
    || (cpPorts.has(port) && (address === '127.0.0.1' || isWildcard(address))))
    .filter((h) => !(h.pid && ours.has(h.pid)));
  if (strangers.length) {
    const lines = strangers.map((h) => `  ${h.address}:${h.port}  ${h.pid ? describePid(h.pid) : 'a process this user cannot inspect'}`);
    throw new Error(`other processes listen where this stack must:\n${lines.join('\n')}\n`
      + 'Stop them, or run this stack on other addresses (npm start: STRATA_ADDRESS_PREFIX, STRATA_PORT).');
  }
}

/** Ports of the engines a node's directory records (instances.json). */
function instancePorts(nodeDir: string): number[] {
  try {
    return (JSON.parse(readFileSync(path.join(nodeDir, 'instances.json'), 'utf8')) as { spec: { port: number } }[]).map((r) => r.spec.port);
  } catch {
    return [];
  }
}

/** The CA of the control plane's certificate file (its last certificate) and a fetch that trusts it. */
function launcherTls(certFile: string): { ca: string; fetch: typeof fetch } {
  const pems = readFileSync(certFile, 'utf8').match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (!pems.length) throw new Error(`STRATA_TLS_CERT: ${certFile} holds no PEM certificate`);
  const ca = `${pems[pems.length - 1]}\n`;
  const dispatcher = new UndiciAgent({ connect: { ca } });
  // undici's fetch takes its own dispatcher; a global Request (openapi-fetch sends those) is passed as its parts.
  const trusted = (async (input: string | URL | Request, init?: RequestInit) => {
    if (input instanceof Request) {
      const body = input.body ? await input.arrayBuffer() : undefined;
      const headers: Record<string, string> = {};
      input.headers.forEach((v, k) => { headers[k] = v; });
      return undiciFetch(input.url, { method: input.method, headers, body, signal: input.signal, dispatcher });
    }
    return undiciFetch(input, { ...(init as Parameters<typeof undiciFetch>[1]), dispatcher });
  }) as unknown as typeof fetch;
  return { ca, fetch: trusted };
}

async function joinToken(url: string, adminToken: string, fetchImpl?: typeof fetch) {
  const { data, error, response } = await createStrataClient({ baseUrl: url, token: adminToken, ...(fetchImpl ? { fetch: fetchImpl } : {}) }).POST('/v1/nodes/join-tokens', { body: {} });
  if (!data) throw new Error(`could not create a join token: ${response.status} ${JSON.stringify(error)}`);
  return data;
}

async function waitForNodesOnline(url: string, token: string, count: number, signal?: AbortSignal, fetchImpl?: typeof fetch): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (signal?.aborted) throw new Error('start cancelled');
    const body = await unwrap(createStrataClient({ baseUrl: url, token, ...(fetchImpl ? { fetch: fetchImpl } : {}) }).GET('/v1/nodes'));
    if (body.items.filter((n) => n.status === 'online').length >= count) return;
    if (Date.now() > deadline) throw new Error(`only ${body.items.filter((n) => n.status === 'online').length} of ${count} nodes came online`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
