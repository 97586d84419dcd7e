/**
 * What TLS costs on a Strata cluster, and whether Strata's TLS costs more
 * than TLS set up by hand. Three clusters of the same shape (3 shards x 1
 * replica, no persistence) exist for the whole run:
 *
 * - managed TLS:   a Strata cluster created with `tls: "required"`;
 * - managed plain: a Strata cluster without TLS (same stack);
 * - hand-made TLS: six redis-server processes with TLS only (port 0,
 *   tls-port, tls-replication, tls-cluster, a CA and certificate made with
 *   the openssl CLI), formed with `redis-cli --cluster create --tls`; the
 *   benchmark's user there has the customer user's rights.
 *
 * The reference tool drives all three: `redis-benchmark --cluster` (with
 * `--tls --cacert` for the TLS ones), SET and GET, 100-byte values, P1 and
 * P16. Rounds rotate which cluster runs first (this machine's speed drifts).
 * The hand-made servers run in sessions of their own, like the managed
 * engines (see the autogroup note in docs/benchmarks.md). Each measurement
 * is checked against the servers: its primaries counted every request and
 * every replica is online. Prints each measurement, then per command and
 * pipeline the median ratios managed TLS / hand-made TLS (goal >= 0.95) and
 * managed TLS / managed plain (the cost of TLS).
 *
 *   npm run bench:tls     (BENCH_REQUESTS=200000 BENCH_CLIENTS=50 BENCH_ROUNDS=3 BENCH_PIPELINES=1,16)
 */
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Cluster as ClusterT, Connection } from '@strata/api';
import { CUSTOMER_ACL_RULES } from '@strata/engine';
import { loopbackAddress } from '../src/loopback';
import { startStack } from '../src/stack';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200_000);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Pipeline depths measured (`BENCH_PIPELINES=1,16`). */
const PIPELINES = (process.env.BENCH_PIPELINES ?? '1,16').split(',').map(Number);
const MEMORY_MB = 256;
const HAND_HOST = loopbackAddress('127.0.97.1');
const HAND_PORT = 7500;
const run = promisify(execFile);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One cluster as redis-benchmark reaches it: a seed, a user and, for TLS, the CA file. */
interface Target { name: string; host: string; port: number; username: string; password: string; caFile?: string }

const handProcs: ChildProcess[] = [];

/** A CA and one server certificate for the hand-made cluster's address, with the openssl CLI, as an operator would. */
function handCertificates(dir: string): { ca: string; cert: string; key: string } {
  const f = (n: string) => path.join(dir, n);
  const ssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'ignore' });
  ssl('req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', f('ca.key'), '-out', f('ca.crt'), '-days', '30', '-subj', '/CN=hand-made CA');
  ssl('req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', f('redis.key'), '-out', f('redis.csr'), '-subj', `/CN=${HAND_HOST}`);
  writeFileSync(f('san.ext'), `subjectAltName=IP:${HAND_HOST}\nextendedKeyUsage=serverAuth,clientAuth\n`);
  ssl('x509', '-req', '-in', f('redis.csr'), '-CA', f('ca.crt'), '-CAkey', f('ca.key'), '-CAcreateserial', '-out', f('redis.crt'), '-days', '30', '-extfile', f('san.ext'));
  return { ca: f('ca.crt'), cert: f('redis.crt'), key: f('redis.key') };
}

/** Six TLS-only redis-server processes formed with redis-cli, nothing else running for them. */
async function startHandMadeTls(dir: string): Promise<{ target: Target; stop(): Promise<void> }> {
  mkdirSync(dir, { recursive: true });
  const certs = handCertificates(dir);
  const auth = { username: 'app', password: 'hand-made-bench-password' };
  const stop = async () => {
    for (const p of handProcs) p.kill('SIGTERM');
    await Promise.all(handProcs.map((p) => (p.exitCode !== null || p.signalCode !== null ? undefined : new Promise((r) => p.once('exit', r)))));
  };
  const cli = ['--tls', '--cacert', certs.ca];
  try {
    for (let i = 0; i < 6; i++) {
      const port = HAND_PORT + i;
      const d = path.join(dir, String(port));
      mkdirSync(d, { recursive: true });
      const conf = [
        'port 0', `tls-port ${port}`, `tls-cert-file ${certs.cert}`, `tls-key-file ${certs.key}`, `tls-ca-cert-file ${certs.ca}`,
        'tls-auth-clients no', 'tls-replication yes', 'tls-cluster yes',
        `bind ${HAND_HOST}`, `dir ${d}`, 'cluster-enabled yes', 'cluster-config-file nodes.conf', `cluster-announce-ip ${HAND_HOST}`, 'cluster-node-timeout 5000',
        'appendonly no', 'save ""', `maxmemory ${MEMORY_MB}mb`, 'maxmemory-policy noeviction', 'daemonize no', 'logfile redis.log',
        'repl-diskless-sync yes', 'repl-diskless-sync-delay 0',
        // The benchmark's user has the rights of a Strata cluster's customer user, so both sides run the same ACL checks.
        `user default on nopass ~* &* +@all`, `user ${auth.username} on >${auth.password} ${CUSTOMER_ACL_RULES.join(' ')}`,
      ].join('\n');
      writeFileSync(path.join(d, 'redis.conf'), conf + '\n');
      // Each in a session of its own, as a daemonized or service-managed redis-server runs (and as agents start the
      // managed engines): with the kernel's autogroup scheduling, processes sharing the session of the benchmark
      // client are scheduled as one group with it, which favours their request-reply round trips.
      handProcs.push(spawn('redis-server', [path.join(d, 'redis.conf')], { cwd: d, stdio: 'ignore', detached: true }));
    }
    const addrs = Array.from({ length: 6 }, (_, i) => `${HAND_HOST}:${HAND_PORT + i}`);
    for (const a of addrs) {
      const [h, p] = a.split(':');
      for (let t = 0; ; t++) {
        try { execFileSync('redis-cli', [...cli, '-h', h!, '-p', p!, 'ping'], { stdio: 'ignore' }); break; } catch { if (t > 100) throw new Error(`${a} did not start`); await sleep(50); }
      }
    }
    execFileSync('redis-cli', [...cli, '--cluster', 'create', ...addrs, '--cluster-replicas', '1', '--cluster-yes'], { stdio: 'ignore' });
    for (let t = 0; ; t++) {
      const info = execFileSync('redis-cli', [...cli, '-h', HAND_HOST, '-p', String(HAND_PORT), 'cluster', 'info'], { encoding: 'utf8' });
      if (info.includes('cluster_state:ok')) break;
      if (t > 200) throw new Error('hand-made cluster did not reach cluster_state:ok');
      await sleep(50);
    }
    return { target: { name: 'hand-made TLS', host: HAND_HOST, port: HAND_PORT, ...auth, caFile: certs.ca }, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** redis-cli on one member of a target, as its benchmark user. */
function cli(t: Target, host: string, port: number, ...args: string[]): string {
  return execFileSync('redis-cli', ['-h', host, '-p', String(port), '--user', t.username, '--pass', t.password, '--no-auth-warning', ...(t.caFile ? ['--tls', '--cacert', t.caFile] : []), ...args], { encoding: 'utf8' });
}

/** The target's primaries (host, port) from CLUSTER NODES. */
function primariesOf(t: Target): { host: string; port: number }[] {
  return cli(t, t.host, t.port, 'CLUSTER', 'NODES').split('\n').filter((l) => / (myself,)?master /.test(l)).map((l) => {
    const addr = l.split(' ')[1]!.split('@')[0]!;
    return { host: addr.slice(0, addr.lastIndexOf(':')), port: Number(addr.slice(addr.lastIndexOf(':') + 1)) };
  });
}

/** Calls of `command` the target's primaries have served so far, and their replicas online. */
function served(t: Target, command: string): { calls: number; replicas: number } {
  let calls = 0;
  let replicas = 0;
  for (const p of primariesOf(t)) {
    const info = cli(t, p.host, p.port, 'INFO', 'all');
    calls += Number(new RegExp(`cmdstat_${command}:calls=(\\d+)`).exec(info)?.[1] ?? 0);
    replicas += (info.match(/^slave\d+:.*state=online/gm) ?? []).length;
  }
  return { calls, replicas };
}

/** requests per second redis-benchmark reports for `command` (set or get) at pipeline `p`; checked against what the servers counted. */
async function measure(t: Target, command: 'set' | 'get', pipeline: number): Promise<number> {
  const before = served(t, command);
  const args = [
    '-h', t.host, '-p', String(t.port), '--user', t.username, '-a', t.password, '--cluster',
    ...(t.caFile ? ['--tls', '--cacert', t.caFile] : []),
    '-t', command, '-n', String(REQUESTS * pipeline), '-c', String(CLIENTS), '-P', String(pipeline), '-d', '100', '-r', '100000', '--csv',
  ];
  const { stdout } = await run('redis-benchmark', args, { maxBuffer: 1 << 20 });
  // --csv: a header, then "SET","123456.79",... per test.
  const row = stdout.split('\n').find((l) => l.toUpperCase().startsWith(`"${command.toUpperCase()}"`));
  if (!row) throw new Error(`no ${command} figure from redis-benchmark: ${stdout}`);
  // Every request reached a primary of this target, whose replicas are all online: the figure is what it says.
  const after = served(t, command);
  const requests = REQUESTS * pipeline;
  if (after.calls - before.calls < requests || after.replicas < 3) {
    throw new Error(`${t.name}: the primaries served ${after.calls - before.calls} of ${requests} ${command.toUpperCase()}s, ${after.replicas} of 3 replicas online`);
  }
  return Number(JSON.parse(`[${row}]`)[1]);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

const dir = mkdtempSync(path.join(os.tmpdir(), 'strata-tls-bench-'));
const stack = await startStack({ endWithLauncher: true, dir, addressPrefix: '127.0.96', port: 0, nodes: 3, fastPostgres: true, extraEnv: { STRATA_LOG_LEVEL: 'warn' } });
let hand: Awaited<ReturnType<typeof startHandMadeTls>> | undefined;
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.once(sig, () => {
    stack.kill();
    for (const p of handProcs) p.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    process.exit(130);
  });
}
try {
  const api = async <T>(method: string, p: string, body?: unknown): Promise<T> => {
    const res = await fetch(stack.url + p, { method, headers: { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
    return (await res.json()) as T;
  };
  const managedCluster = async (name: string, tls: 'off' | 'required'): Promise<Target> => {
    const { cluster } = await api<{ cluster: { id: string } }>('POST', '/v1/clusters', { name, shards: 3, replicasPerShard: 1, memoryMbPerShard: MEMORY_MB, durability: 'none', tls });
    for (let t = 0; (await api<ClusterT>('GET', `/v1/clusters/${cluster.id}`)).status.phase !== 'ready'; t++) {
      if (t > 600) throw new Error(`${name} did not become ready`);
      await sleep(100);
    }
    const conn = await api<Connection>('GET', `/v1/clusters/${cluster.id}/connection`);
    const [host, port] = [conn.seeds[0]!.slice(0, conn.seeds[0]!.lastIndexOf(':')), Number(conn.seeds[0]!.split(':').at(-1))];
    let caFile: string | undefined;
    if (conn.caCertificate) writeFileSync((caFile = path.join(dir, `${name}-ca.pem`)), conn.caCertificate);
    return { name: tls === 'required' ? 'managed TLS' : 'managed plain', host, port, username: conn.username, password: conn.password, caFile };
  };
  const managedTls = await managedCluster('managed-tls', 'required');
  const managedPlain = await managedCluster('managed-plain', 'off');
  hand = await startHandMadeTls(path.join(dir, 'hand-made'));
  const targets = [managedTls, managedPlain, hand.target];

  const redis = execFileSync('redis-server', ['--version'], { encoding: 'utf8' }).match(/v=(\S+)/)?.[1];
  console.log(`3 shards x 1 replica, ${MEMORY_MB} MB each, durability none, redis ${redis}, ${os.cpus().length} cores, load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  console.log('managed: Strata (control plane, 3 agents sampling every engine, PostgreSQL running); hand-made TLS: redis-server x6 with openssl certificates + redis-cli --cluster create --tls');
  console.log(`redis-benchmark --cluster, ${CLIENTS} clients, 100-byte values, ${REQUESTS.toLocaleString('en')} requests x pipeline per measurement\n`);

  for (const pipeline of PIPELINES) {
    for (const command of ['set', 'get'] as const) {
      const figures = new Map<string, number[]>(targets.map((t) => [t.name, []]));
      for (let round = 0; round < ROUNDS; round++) {
        const order = targets.map((_, i) => targets[(i + round) % targets.length]!);
        const line: string[] = [];
        for (const t of order) {
          const rps = await measure(t, command, pipeline);
          figures.get(t.name)!.push(rps);
          line.push(`${t.name} ${Math.round(rps).toLocaleString('en')}`);
        }
        console.log(`${command.toUpperCase()} P${pipeline} round ${round + 1}: ${line.join('  ')} req/s`);
      }
      const m = (name: string) => median(figures.get(name)!);
      const vsHand = m('managed TLS') / m('hand-made TLS');
      const vsPlain = m('managed TLS') / m('managed plain');
      console.log(
        `${command.toUpperCase()} P${pipeline}: median managed TLS ${Math.round(m('managed TLS')).toLocaleString('en')}, managed plain ${Math.round(m('managed plain')).toLocaleString('en')}, hand-made TLS ${Math.round(m('hand-made TLS')).toLocaleString('en')} req/s; ` +
          `managed TLS / hand-made TLS ${vsHand.toFixed(3)} (goal >= 0.95${vsHand >= 0.95 ? ', met' : ', not met'}); managed TLS / managed plain ${vsPlain.toFixed(3)} (TLS cost ${((1 - vsPlain) * 100).toFixed(1)} %)\n`,
      );
    }
  }
} finally {
  await hand?.stop();
  await stack.stop();
  rmSync(dir, { recursive: true, force: true });
}
