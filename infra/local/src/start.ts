/** `npm start`: Strata on this machine until Ctrl-C. */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startStack, type Stack } from './stack';
import { REPO_ROOT } from './process';

const env = process.env;
const dir = path.resolve(env.STRATA_HOME ?? path.join(REPO_ROOT, '.strata'));
const nodes = Number(env.STRATA_LOCAL_NODES ?? 3);
const port = Number(env.STRATA_PORT ?? 8080);
if (!Number.isInteger(nodes) || nodes < 1 || nodes > 50) throw new Error('STRATA_LOCAL_NODES must be an integer from 1 to 50');

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

console.log(`starting Strata: PostgreSQL, control plane on :${port}, ${nodes} local nodes (state in ${dir}) ...`);
let stack: Stack | undefined;
const started = Date.now();
try {
  stack = await startStack({
    dir, nodes, port, databaseUrl: env.DATABASE_URL, echo: env.STRATA_VERBOSE === '1',
    nodeMemoryMb: env.STRATA_NODE_MEMORY_MB ? Number(env.STRATA_NODE_MEMORY_MB) : undefined,
  });
} catch (err) {
  console.error(`\nStrata failed to start: ${(err as Error).message}\nLogs: ${path.join(dir, 'logs')}`);
  releaseLock();
  process.exit(1);
}

const s = stack;
console.log(`
  Strata is running (${((Date.now() - started) / 1000).toFixed(1)} s)

  Console      ${s.url}/
  API          ${s.url}/v1   (OpenAPI: ${s.url}/v1/openapi.json)
  Sign in      ${s.adminEmail} / ${s.adminPassword}   (also in ${path.join(dir, 'admin-password')})
  Admin token  ${path.join(dir, 'admin-token')}   (export STRATA_TOKEN=$(cat ${path.join(dir, 'admin-token')}))
  Database     ${env.DATABASE_URL ? 'DATABASE_URL' : s.databaseUrl}
  Nodes        ${s.agents.map((a) => `${a.name} ${a.address}`).join(', ')}
  Logs         ${path.join(dir, 'logs')}

  Ctrl-C stops everything (cluster data is kept for the next start).
`);

let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: stopping agents (and their redis-server processes), control plane and PostgreSQL ...`);
  const { leftoverPids } = await s.stop();
  releaseLock();
  console.log(leftoverPids.length ? `stopped (and ${leftoverPids.length} engine(s) the agents left behind).` : 'stopped.');
  process.exit(0);
};
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
