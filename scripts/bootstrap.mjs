#!/usr/bin/env node
// The two commands of the README: `npm start` and `npm test`.
// Installs what is missing (npm packages; Debian packages through apt when
// running as root), then runs Strata or every test suite.
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { existsSync, statSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { installSeaweedFs } from './install-seaweedfs.mjs';
import { installValkey } from './install-valkey.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const mode = process.argv[2];
const say = (msg) => console.log(`\x1b[36m[strata]\x1b[0m ${msg}`);
const fail = (msg) => { console.error(`\x1b[31m[strata]\x1b[0m ${msg}`); process.exit(1); };

/** Like run(), without blocking; with `prefix`, every output line is prefixed (suites that run side by side). */
function runAsync(cmd, args, prefix) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: prefix ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    if (prefix) {
      for (const stream of [child.stdout, child.stderr]) {
        createInterface({ input: stream }).on('line', (line) => console.log(`\x1b[35m[${prefix}]\x1b[0m ${line}`));
      }
    }
    child.on('error', (err) => fail(`${cmd} could not run: ${err.message}`));
    child.on('close', (code) => resolve(code ?? 1));
  });
}

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: root, ...opts });
  if (r.error) fail(`${cmd} could not run: ${r.error.message}`);
  return r.status ?? 1;
}

const onPath = (bin) => (process.env.PATH ?? '').split(':').some((d) => d && existsSync(path.join(d, bin)));
const hasPostgres = () => !!process.env.DATABASE_URL || onPath('initdb') ||
  (existsSync('/usr/lib/postgresql') && readdirSync('/usr/lib/postgresql').some((v) => existsSync(`/usr/lib/postgresql/${v}/bin/initdb`)));

function ensureSystemPackages(needs) {
  const missing = needs.filter((n) => !n.present());
  if (!missing.length) return;
  const pkgs = missing.flatMap((n) => n.packages);
  if (process.getuid?.() !== 0) {
    fail(`missing: ${missing.map((n) => n.what).join(', ')}. Install the Debian packages: sudo apt-get install -y ${pkgs.join(' ')}`);
  }
  say(`installing ${pkgs.join(' ')} with apt (missing: ${missing.map((n) => n.what).join(', ')})`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (run('apt-get', ['update', '-qq'], { env }) !== 0) fail('apt-get update failed');
  if (run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...pkgs], { env }) !== 0) fail(`apt-get install ${pkgs.join(' ')} failed`);
  const still = missing.filter((n) => !n.present());
  if (still.length) fail(`still missing after apt: ${still.map((n) => n.what).join(', ')}`);
}

function ensureNodeModules() {
  const marker = path.join(root, 'node_modules/.package-lock.json');
  const lock = path.join(root, 'package-lock.json');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  // `npm install` (not `npm ci`): it follows package-lock.json but tolerates the
  // platform-specific optional packages npm leaves out of the lock on some setups.
  say('installing npm packages (npm install)');
  if (run('npm', ['install', '--no-audit', '--no-fund']) !== 0) fail('npm install failed');
}

/**
 * The load generator's native YCSB worker (bench/native/build/ycsb-worker), built here and never at run
 * time on a node (bench/scripts/build-native.mjs rebuilds only when a source is newer). Optional for
 * `npm start`: when it cannot be built (no C compiler) benchmarks use the JS worker and their results say so.
 */
function ensureNativeWorker({ optional }) {
  if (run(process.execPath, ['bench/scripts/build-native.mjs', ...(optional ? ['--optional'] : [])]) !== 0) fail('building the native load generator worker failed (npm run build:native)');
}

function newestMtime(dir) {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

function ensureConsoleBuilt() {
  const index = path.join(root, 'console/dist/index.html');
  const src = path.join(root, 'console/src');
  if (!existsSync(src)) return;
  if (existsSync(index) && statSync(index).mtimeMs >= Math.max(newestMtime(src), newestMtime(path.join(root, 'api/src')))) return;
  say('building the console (vite)');
  if (run('npm', ['run', 'build', '--workspace', '@strata/console']) !== 0) fail('console build failed');
}

const redis = { what: 'redis-server', packages: ['redis-server', 'redis-tools'], present: () => onPath('redis-server') && onPath('redis-cli') };
// Node disk profiles: the agent runs fio (JSON+ output) under setpriv (util-linux) and sets O_NOATIME's attribute with chattr (e2fsprogs).
const fio = { what: 'fio (node disk profiles)', packages: ['fio'], present: () => onPath('fio') };
const postgres = { what: 'PostgreSQL server binaries (initdb, postgres)', packages: ['postgresql-15'], present: hasPostgres };
const prometheus = { what: 'Prometheus and promtool (metrics tests, the alert rule export)', packages: ['prometheus'], present: () => onPath('prometheus') && onPath('promtool') };
// Nodes as hosts (STRATA_LOCAL_NETWORK=netns) and the network faults of its tests: ip (iproute2), nft (nftables) and
// keepalived, which the agents run to move the clusters' floating endpoint address between the hosts (VRRP).
const hostNetwork = {
  what: 'ip, nft and keepalived (nodes as hosts, network faults, the floating endpoint address)', packages: ['iproute2', 'nftables', 'keepalived'],
  present: () => onPath('ip') && onPath('nft') && onPath('keepalived'),
};
const canRun = (cmd, args) => spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;
// redis-py and go-redis run against live clusters: the console's snippets (console-snippets.int.test.ts) and the stable endpoint (endpoint.int.test.ts).
const python = { what: 'python3 (redis-py client tests)', packages: ['python3', 'python3-pip'], present: () => onPath('python3') };
const golang = { what: 'Go (go-redis client tests)', packages: ['golang-go'], present: () => onPath('go') };
function ensureRedisPy() {
  if (canRun('python3', ['-c', 'import redis.cluster'])) return;
  say('installing redis-py (pip install redis) for the snippet test');
  if (run('python3', ['-m', 'pip', 'install', '--quiet', 'redis']) === 0) return;
  // Debian's externally managed python: its own package.
  if (process.getuid?.() === 0 && run('apt-get', ['install', '-y', '-qq', 'python3-redis'], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } }) === 0) return;
  fail('redis-py is missing: pip install redis (or apt-get install python3-redis)');
}
// Schemathesis checks the served API against openapi.json (contract.int.test.ts), server-sent events included.
const SCHEMATHESIS = 'schemathesis>=4.32.5,<5';
function schemathesisUsable() {
  const r = spawnSync('python3', ['-m', 'schemathesis.cli', '--version'], { encoding: 'utf8' });
  const version = /version (\d+\.\d+\.\d+)/.exec(r.stdout ?? '')?.[1];
  return r.status === 0 && !!version && version.localeCompare('4.32.5', undefined, { numeric: true }) >= 0;
}
function ensureSchemathesis() {
  if (schemathesisUsable()) return;
  say(`installing Schemathesis (pip install '${SCHEMATHESIS}') for the API contract test`);
  if (run('python3', ['-m', 'pip', 'install', '--quiet', SCHEMATHESIS]) === 0 && schemathesisUsable()) return;
  fail(`Schemathesis is missing or too old: python3 -m pip install '${SCHEMATHESIS}' (control-plane/test/contract.int.test.ts needs it)`);
}
const cc = { what: 'a C compiler (the native load generator worker)', packages: ['gcc', 'libc6-dev'], present: () => onPath(process.env.CC || 'cc') };
const chromium = { what: 'Chromium (for the Playwright suite)', packages: ['chromium'], present: () => existsSync('/usr/bin/chromium') };

/**
 * Go and terraform come from upstream, not apt (Debian's Go is too old for terraform-plugin-framework):
 * check them and say how to get them. Needed by the Terraform provider and CDK for Terraform tests.
 */
function ensureAutomationTools() {
  const problems = [];
  const go = spawnSync('go', ['env', 'GOVERSION'], { encoding: 'utf8' });
  const version = go.status === 0 ? go.stdout.trim() : '';
  const [maj, min] = version.replace(/^go/, '').split('.').map(Number);
  if (!version) problems.push('Go (>= 1.24) is not on PATH: install it from https://go.dev/dl/ (e.g. tar -C /usr/local -xzf go1.24.*.linux-amd64.tar.gz; export PATH=$PATH:/usr/local/go/bin)');
  else if (maj < 1 || (maj === 1 && min < 24)) problems.push(`Go ${version} is too old for the Terraform provider: install Go >= 1.24 from https://go.dev/dl/`);
  if (!onPath('terraform')) problems.push('terraform is not on PATH: install Terraform >= 1.5 from https://developer.hashicorp.com/terraform/install (one static binary in /usr/local/bin)');
  if (problems.length) fail(`missing tools for the Terraform provider and cdktf tests:\n  - ${problems.join('\n  - ')}`);
}

if (mode === 'start') {
  ensureSystemPackages([redis, postgres, fio, ...(process.env.STRATA_LOCAL_NETWORK === 'netns' ? [hostNetwork] : [])]);
  try { installValkey(); } catch (err) { fail(err.message); }
  ensureNodeModules();
  ensureNativeWorker({ optional: true });
  ensureConsoleBuilt();
  // Strata runs in a child: a signal sent to this process alone (a process manager stopping `npm start`, not a
  // terminal's Ctrl-C, which reaches both) is passed on, so the stack stops cleanly instead of outliving us.
  const child = spawn(process.execPath, ['--import', 'tsx', 'infra/local/src/start.ts'], { cwd: root, stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal === 'SIGHUP' ? 'SIGTERM' : signal));
  child.on('error', (err) => fail(`Strata could not start: ${err.message}`));
  child.on('close', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else if (mode === 'test') {
  ensureSystemPackages([redis, postgres, fio, cc, chromium, prometheus, python, golang, hostNetwork]);
  try { installValkey(); } catch (err) { fail(err.message); }
  ensureRedisPy();
  ensureSchemathesis();
  ensureAutomationTools();
  // The S3-compatible object store the backup tests run against (SeaweedFS, built with Go).
  try { installSeaweedFs(); } catch (err) { fail(err.message); }
  ensureNodeModules();
  ensureNativeWorker({ optional: false });
  // The integration files (the longest suite) start at once, beside the unit
  // tests and the console build; the Playwright suite once the console is
  // built (it serves it); the type check once the Playwright suite is done,
  // in the minutes the integration files still run alone (CPU is what the
  // suites compete for on 2 cores). Each stack has its own loopback range.
  // `after`: suites that must pass first (else this one is not run);
  // `startAfter`: suites that must have finished, whatever their outcome.
  const E2E = 'e2e (Playwright in Chromium against a real stack)';
  const suites = [
    { name: 'unit', cmd: 'npm', args: ['run', 'test:unit'], prefix: 'unit' },
    { name: 'console build', cmd: 'npm', args: ['run', 'build', '--workspace', '@strata/console'], prefix: 'build' },
    { name: 'types', cmd: 'npm', args: ['run', 'typecheck'], prefix: 'types', startAfter: ['unit', E2E] },
    { name: 'integration (real PostgreSQL, agents, redis-server)', cmd: 'npm', args: ['run', 'test:integration'] },
    { name: E2E, cmd: 'npm', args: ['run', 'test:e2e'], prefix: 'e2e', after: ['console build'] },
  ];
  const total = Date.now();
  const outcome = new Map();
  const runSuite = async (suite) => {
    await null; // every suite's outcome is in the map before any waits on another's
    for (const name of suite.startAfter ?? []) await outcome.get(name);
    for (const name of suite.after ?? []) {
      if (!(await outcome.get(name)).ok) {
        say(`NOT RUN  ${suite.name} (${name} failed)`);
        return { name: suite.name, ok: false, ran: false, s: '0.0' };
      }
    }
    say(`suite: ${suite.name}`);
    const started = Date.now();
    const code = await runAsync(suite.cmd, suite.args, suite.prefix);
    const r = { name: suite.name, ok: code === 0, ran: true, s: ((Date.now() - started) / 1000).toFixed(1) };
    say(`${r.ok ? 'PASS' : 'FAIL'}  ${r.name} (${r.s} s)`);
    return r;
  };
  for (const suite of suites) outcome.set(suite.name, runSuite(suite));
  const results = await Promise.all(suites.map((suite) => outcome.get(suite.name)));
  console.log('');
  for (const r of results) say(`${!r.ran ? 'NOT RUN' : r.ok ? 'PASS' : 'FAIL'}  ${r.name} (${r.s} s)`);
  const failed = results.filter((r) => r.ran && !r.ok).length;
  const notRun = results.filter((r) => !r.ran).length;
  say(`${results.length - failed - notRun} passed, ${failed} failed, ${notRun} not run; ${((Date.now() - total) / 60000).toFixed(1)} min`);
  process.exit(failed || notRun ? 1 : 0);
} else {
  fail('usage: node scripts/bootstrap.mjs start|test');
}
