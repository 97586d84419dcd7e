import { existsSync, mkdirSync, readFileSync, chmodSync } from 'node:fs';
import path from 'node:path';
import { startPostgres, type PostgresHandle } from './postgres.runner';
import { REPO_ROOT, startTs, stopProcess, type Managed } from './process';
import { stopLeftoverRedis } from './leftovers';
import { RestartBackoff } from './restart-backoff';
import { loopbackPrefix } from './loopback';
import { createStrataClient, unwrap } from '@strata/api/client';

export interface StackOptions {
  /** State directory (PostgreSQL data, admin token, node data). Default: <repo>/.strata */
  dir?: string;
  /** Local agents (default 3). */
  nodes?: number;
  /** First three octets of the nodes' loopback addresses (node i gets .i+1). Default 127.0.1 */
  addressPrefix?: string;
  /** Control plane port; 0 picks a free one. */
  port?: number;
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

export interface Stack {
  url: string;
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
  /** Stop the control plane with a signal (SIGKILL to simulate a crash). */
  stopControlPlane(signal?: NodeJS.Signals): Promise<void>;
  startControlPlane(): Promise<void>;
  stopAgent(index: number, signal?: NodeJS.Signals): Promise<void>;
  startAgent(index: number): Promise<void>;
  /** Everything down; engines stopped (data kept). Reports redis-server processes the agents failed to stop (then stopped here). */
  stop(): Promise<{ leftoverPids: number[] }>;
}

const CP_ENTRY = path.join(REPO_ROOT, 'control-plane/src/main.ts');
const AGENT_ENTRY = path.join(REPO_ROOT, 'agents/src/main.ts');

/** Runs Strata on this machine: embedded PostgreSQL, the control plane and a local node pool. */
export async function startStack(opts: StackOptions = {}): Promise<Stack> {
  const dir = path.resolve(opts.dir ?? path.join(REPO_ROOT, '.strata'));
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, 0o711);
  const logs = path.join(dir, 'logs');
  const nodeCount = opts.nodes ?? 3;
  const prefix = loopbackPrefix(opts.addressPrefix ?? '127.0.1');
  let pgHandle: PostgresHandle | undefined;
  let cp: Managed | undefined;
  const agents: AgentHandle[] = Array.from({ length: nodeCount }, (_, i) => ({
    name: `node-${i + 1}`, address: `${prefix}.${i + 1}`, dir: path.join(dir, 'nodes', `node-${i + 1}`), restarts: 0, backoff: new RestartBackoff(),
  }));
  let shuttingDown = false;

  try {
    const databaseUrl = opts.databaseUrl ?? (pgHandle = await startPostgres({
      dataDir: path.join(dir, 'pg'), logFile: path.join(logs, 'postgres.log'), fast: opts.fastPostgres,
    })).url;

    let port = opts.port ?? 8080;
    const cpEnv: NodeJS.ProcessEnv = {
      // Cluster endpoints: one loopback address served by whichever local agent binds it first.
      ...process.env, STRATA_ENDPOINT_HOST: opts.endpointHost ? loopbackPrefix(opts.endpointHost) : `${prefix}.200`, ...opts.extraEnv, DATABASE_URL: databaseUrl, STRATA_HOME: dir,
      ...(opts.adminToken ? { STRATA_ADMIN_TOKEN: opts.adminToken } : {}),
    };
    const startControlPlane = async () => {
      const m = await startTs({ entry: CP_ENTRY, env: { ...cpEnv, STRATA_PORT: String(port) }, logFile: path.join(logs, 'control-plane.log'), readyPrefix: 'STRATA_LISTENING', echo: opts.echo });
      port = Number(m.readyLine.split(' ')[1]);
      cp = m;
    };
    await startControlPlane();
    const url = `http://127.0.0.1:${port}`;
    const adminToken = readFileSync(path.join(dir, 'admin-token'), 'utf8').trim();
    const adminPassword = readFileSync(path.join(dir, 'admin-password'), 'utf8').trim();

    const startAgent = async (i: number) => {
      const a = agents[i]!;
      const env: NodeJS.ProcessEnv = {
        ...process.env, ...opts.agentEnv, STRATA_URL: url, STRATA_AGENT_DIR: a.dir, STRATA_AGENT_NAME: a.name, STRATA_AGENT_ADDRESS: a.address,
        STRATA_AGENT_MEMORY_MB: String(opts.nodeMemoryMb ?? 2048), STRATA_AGENT_STOP_ENGINES_ON_EXIT: 'true',
      };
      if (!existsSync(path.join(a.dir, 'agent.json'))) env.STRATA_JOIN_TOKEN = await joinToken(url, adminToken);
      a.stopping = false;
      const proc = await startTs({ entry: AGENT_ENTRY, env, logFile: path.join(logs, `${a.name}.log`), readyPrefix: 'STRATA_AGENT_READY', echo: opts.echo });
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
            delay = a.backoff.next(0);
            console.error(`[strata] could not restart agent ${a.name}: ${(err as Error).message}; trying again in ${delay} ms`);
          }
        }
      });
    };
    await Promise.all(agents.map((_, i) => startAgent(i)));
    await waitForNodesOnline(url, adminToken, nodeCount);

    const stack: Stack = {
      url, endpointHost: String(cpEnv.STRATA_ENDPOINT_HOST), port, dir, databaseUrl, adminToken, adminEmail: 'admin@strata.local', adminPassword, nodes: nodeCount, agents,
      stopControlPlane: (signal = 'SIGTERM') => stopProcess(cp, signal),
      startControlPlane,
      stopAgent: (i, signal = 'SIGTERM') => {
        agents[i]!.stopping = true;
        return stopProcess(agents[i]!.proc, signal);
      },
      startAgent,
      stop: async () => {
        shuttingDown = true;
        await Promise.all(agents.map((a) => stopProcess(a.proc)));
        // Agents stop their engines; anything still running under our nodes is a bug: stop it and say so.
        const leftovers = await stopLeftoverRedis(path.join(dir, 'nodes'));
        if (leftovers.length) console.warn(`[strata] stopped ${leftovers.length} redis-server process(es) the agents left running: ${leftovers.join(', ')}`);
        await stopProcess(cp);
        await pgHandle?.stop();
        return { leftoverPids: leftovers };
      },
    };
    return stack;
  } catch (err) {
    shuttingDown = true;
    await Promise.all(agents.map((a) => stopProcess(a.proc)));
    await stopProcess(cp);
    await pgHandle?.stop();
    throw err;
  }
}

async function joinToken(url: string, adminToken: string): Promise<string> {
  const { data, error, response } = await createStrataClient({ baseUrl: url, token: adminToken }).POST('/v1/nodes/join-tokens', { body: {} });
  if (!data) throw new Error(`could not create a join token: ${response.status} ${JSON.stringify(error)}`);
  return data.token;
}

async function waitForNodesOnline(url: string, token: string, count: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const body = await unwrap(createStrataClient({ baseUrl: url, token }).GET('/v1/nodes'));
    if (body.items.filter((n) => n.status === 'online').length >= count) return;
    if (Date.now() > deadline) throw new Error(`only ${body.items.filter((n) => n.status === 'online').length} of ${count} nodes came online`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
