/** `npm start`: Strata on this machine until Ctrl-C. */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startStack, type Stack } from './stack';
import { REPO_ROOT } from './process';
import { keepalivedProcessesUnder, redisProcessesUnder, strataProcessesOf } from './leftovers';

/** A stop (or a start cancelled by a signal) that has not ended by then kills what is left and exits. */
const STOP_DEADLINE_MS = 20_000;

const env = process.env;
const dir = path.resolve(env.STRATA_HOME ?? path.join(REPO_ROOT, '.strata'));
const nodes = Number(env.STRATA_LOCAL_NODES ?? 3);
const port = Number(env.STRATA_PORT ?? 8080);
const addressPrefix = env.STRATA_ADDRESS_PREFIX ?? '127.0.1';
if (!/^127\.\d{1,3}\.\d{1,3}$/.test(addressPrefix)) throw new Error('STRATA_ADDRESS_PREFIX must be three octets of a loopback address, like 127.0.1');
if (!Number.isInteger(nodes) || nodes < 1 || nodes > 50) throw new Error('STRATA_LOCAL_NODES must be an integer from 1 to 50');
const controlPlanes = Number(env.STRATA_CONTROL_PLANES ?? 1);
if (!Number.isInteger(controlPlanes) || controlPlanes < 1 || controlPlanes > 9) throw new Error('STRATA_CONTROL_PLANES must be an integer from 1 to 9 (control planes sharing PostgreSQL, on STRATA_PORT and the ports after it)');
const network = env.STRATA_LOCAL_NETWORK ?? 'loopback';
if (network !== 'loopback' && network !== 'netns') throw new Error('STRATA_LOCAL_NETWORK must be loopback (default) or netns (each node in its own network namespace; root only)');

// One launcher per state directory: a second one would fight over PostgreSQL and the nodes.
const lock = path.join(dir, 'launcher.pid');
if (existsSync(lock)) {
  const other = Number(readFileSync(lock, 'utf8'));
  let alive = false;
  try { process.kill(other, 0); alive = other !== process.pid; } catch { /* stale */ }
  if (alive) {
    console.error(`Strata is already running from ${dir} (launcher pid ${other}). Stop it first, or set STRATA_HOME to another directory.`);
    process.exit(1);
  }
}
mkdirSync(dir, { recursive: true });
writeFileSync(lock, String(process.pid));
const releaseLock = () => { try { if (readFileSync(lock, 'utf8') === String(process.pid)) rmSync(lock); } catch { /* gone */ } };

// Signals are handled from the start: one that arrives while Strata is starting cancels the start (what was started
// is stopped); a stop that overruns its deadline kills what is left, so the engines never outlive the launcher.
let stack: Stack | undefined;
let stopping = false;
const cancel = new AbortController();
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  setTimeout(() => {
    console.error(`stop did not finish within ${STOP_DEADLINE_MS / 1000} s: killing agents, control plane and engines (SIGKILL)`);
    if (stack) stack.kill();
    else for (const pid of [...strataProcessesOf(dir).map((p) => p.pid), ...redisProcessesUnder(path.join(dir, 'nodes')), ...keepalivedProcessesUnder(path.join(dir, 'nodes'))]) try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
    releaseLock();
    process.exit(1);
  }, STOP_DEADLINE_MS);
  if (!stack) {
    console.log(`\n${signal}: cancelling the start ...`);
    cancel.abort();
    return;
  }
  console.log(`\n${signal}: stopping agents (and their redis-server processes), control plane and PostgreSQL ...`);
  const { leftoverPids } = await stack.stop();
  releaseLock();
  console.log(leftoverPids.length ? `stopped (and ${leftoverPids.length} engine(s) the agents left behind).` : 'stopped.');
  process.exit(0);
};
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));

console.log(`starting Strata: PostgreSQL, ${controlPlanes === 1 ? `control plane on :${port}` : `${controlPlanes} control planes on :${port}-${port + controlPlanes - 1}`}, ${nodes} local nodes (state in ${dir}) ...`);
const started = Date.now();
try {
  stack = await startStack({
    dir, nodes, port, controlPlanes, addressPrefix, network, databaseUrl: env.DATABASE_URL, echo: env.STRATA_VERBOSE === '1',
    nodeMemoryMb: env.STRATA_NODE_MEMORY_MB ? Number(env.STRATA_NODE_MEMORY_MB) : undefined, signal: cancel.signal,
  });
} catch (err) {
  releaseLock();
  if (cancel.signal.aborted) {
    console.log('stopped.');
    process.exit(0);
  }
  console.error(`\nStrata failed to start: ${(err as Error).message}\nLogs: ${path.join(dir, 'logs')}`);
  process.exit(1);
}

if (cancel.signal.aborted) {
  // The signal came as the start finished.
  await stack.stop();
  releaseLock();
  console.log('stopped.');
  process.exit(0);
}
const s = stack;
console.log(`
  Strata is running (${((Date.now() - started) / 1000).toFixed(1)} s)

  Console      ${s.url}/
  API          ${s.url}/v1   (OpenAPI: ${s.url}/v1/openapi.json)
  Sign in      ${s.adminEmail} / ${s.adminPassword}   (also in ${path.join(dir, 'admin-password')})
  Admin token  ${path.join(dir, 'admin-token')}   (export STRATA_TOKEN=$(cat ${path.join(dir, 'admin-token')}))
${s.controlPlanes.length > 1 ? `  Control planes ${s.controlPlanes.map((c) => c.url).join(', ')}   (agents use the next when one is down)\n` : ''}  Database     ${env.DATABASE_URL ? 'DATABASE_URL' : s.databaseUrl}
  Nodes        ${s.agents.map((a) => `${a.name} ${a.address}`).join(', ')}${s.hostNetwork ? `
  Endpoints    ${s.hostNetwork.floatingAddress} (floating: VRRP between the hosts)
  Client host  ip netns exec ${s.hostNetwork.client.ns} <command>   (${s.hostNetwork.client.address}: reaches only the bridge)` : ''}
  Logs         ${path.join(dir, 'logs')}

  Ctrl-C stops everything (cluster data is kept for the next start).
`);
