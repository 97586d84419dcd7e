/**
 * `npm run chaos -- --fault <name> --mode <default|fenced|both> --seconds N
 * [--runs K] [--shards N] [--clients N] [--client-hosts client|spread]
 * [--no-baseline] [--json FILE]`: a Jepsen-style check of what a
 * network or process fault costs. Starts its own stack with every node as a
 * host (network namespaces on a private bridge; needs root), runs the fault
 * `runs` times per mode on a fresh cluster (3 shards, or --shards, one
 * replica each) with clients appending unique
 * integers to lists (half of them acknowledged with WAIT 1), all on this
 * machine or spread over it and every node host (chaos/client-placement.ts),
 * and prints, per
 * fault, mode and side (Strata; and Redis alone: the same with Strata's fast
 * failover off), the acknowledged appends lost, the loss window, unexpected
 * and duplicate elements, moments with two primaries for a slot, the first
 * acknowledged write after the fault and the failed/unknown shares; then,
 * per fault and mode, whether Strata's per-run losses are greater than
 * Redis alone's (chaos/loss-comparison.ts); with clients spread, the
 * acknowledged appends lost by the clients on each side of the fault.
 * Bounded: each fault heals after --seconds, clients on node hosts are
 * processes with a deadline that also stop when this one ends, and the
 * stack, its namespaces and its rules are removed at the end, also on Ctrl-C.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { FAULTS, healAll, type FaultName } from './nemesis';
import { runChaos, type ChaosMode, type ChaosRunResult } from './chaos/run';
import { compareLosses, type LossComparison } from './chaos/loss-comparison';
import { CLIENT_HOSTS, CLIENT_SIDES, figuresBySide, type ClientHosts } from './chaos/client-placement';
import { killWorkers } from './chaos/remote-clients';
import { startStack, type Stack } from './stack';

const { values: a } = parseArgs({
  options: {
    fault: { type: 'string', default: 'minority' }, mode: { type: 'string', default: 'both' }, seconds: { type: 'string', default: '8' },
    runs: { type: 'string', default: '1' }, shards: { type: 'string', default: '3' }, percent: { type: 'string', default: '30' }, 'no-baseline': { type: 'boolean' }, json: { type: 'string' }, clients: { type: 'string' }, 'client-hosts': { type: 'string', default: 'client' }, help: { type: 'boolean' },
  },
});

const usage = `usage: npm run chaos -- --fault <${Object.keys(FAULTS).join('|')}|all> --mode <default|fenced|both> --seconds N [--runs K] [--shards N] [--clients N] [--client-hosts client|spread] [--no-baseline] [--json FILE]

faults (on the host of the second shard's primary; the first's with --shards 1):
${Object.entries(FAULTS).map(([k, v]) => `  ${k.padEnd(18)} ${v}`).join('\n')}
modes: default (fencing off), fenced (write fencing on), both
client hosts (where the appending clients run; --clients: 4 with client, a pair per host with spread):
${Object.entries(CLIENT_HOSTS).map(([k, v]) => `  ${k.padEnd(18)} ${v}`).join('\n')}
baseline: every run is repeated with Strata's fast failover off (Redis alone) unless --no-baseline`;

if (a.help) {
  console.log(usage);
  process.exit(0);
}
const faults = (a.fault === 'all' ? Object.keys(FAULTS) : a.fault!.split(',')) as FaultName[];
const modes: ChaosMode[] = a.mode === 'both' ? ['default', 'fenced'] : [a.mode as ChaosMode];
const seconds = Number(a.seconds);
const runs = Number(a.runs);
const clientHosts = a['client-hosts'] as ClientHosts;
const clients = a.clients === undefined ? undefined : Number(a.clients);
const problems = [
  ...faults.filter((f) => !(f in FAULTS)).map((f) => `unknown fault ${f}`),
  ...modes.filter((m) => m !== 'default' && m !== 'fenced').map((m) => `unknown mode ${m}`),
  ...(!(seconds >= 1 && seconds <= 120) ? ['--seconds must be 1..120'] : []),
  ...(!(Number.isInteger(runs) && runs >= 1 && runs <= 100) ? ['--runs must be 1..100'] : []),
  ...(!(Number.isInteger(Number(a.shards)) && Number(a.shards) >= 1 && Number(a.shards) <= 6) ? ['--shards must be 1..6'] : []),
  ...(!(clientHosts in CLIENT_HOSTS) ? [`unknown --client-hosts ${clientHosts}`] : []),
  ...(clients !== undefined && !(Number.isInteger(clients) && clients >= 1 && clients <= 32) ? ['--clients must be 1..32'] : []),
  ...(!(Number(a.percent) >= 1 && Number(a.percent) <= 100) ? ['--percent must be 1..100'] : []),
  ...(process.getuid?.() !== 0 ? ['chaos runs put nodes in network namespaces: run as root'] : []),
];
if (problems.length) {
  console.error(`${problems.join('\n')}\n\n${usage}`);
  process.exit(2);
}

const sides = a['no-baseline'] ? ['strata'] as const : ['strata', 'redis-alone'] as const;
const results: (ChaosRunResult & { side: string; run: number })[] = [];
const failures: { side: string; fault: FaultName; mode: ChaosMode; run: number; error: string }[] = [];
let stack: Stack | undefined;
let dir: string | undefined;
const cleanUp = async () => {
  healAll();
  killWorkers();
  await stack?.stop().catch(() => undefined);
  stack = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
};
// Listening for good: nemesis.ts raises the signal again once it healed its faults (and tsx relays Ctrl-C to a
// process that got it already), which would end this one before the stack's stop and this run's files are done.
let interrupted = false;
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    if (interrupted) return;
    interrupted = true;
    void cleanUp().finally(() => process.exit(130));
  });
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
try {
  for (const side of sides) {
    dir = mkdtempSync(path.join(os.tmpdir(), 'strata-chaos-'));
    console.log(`[chaos] starting a stack (nodes as hosts, ${side === 'strata' ? 'Strata\'s fast failover on' : 'fast failover off: Redis alone'})…`);
    stack = await startStack({ endWithLauncher: true,
      dir, addressPrefix: process.env.STRATA_CHAOS_PREFIX ?? '127.0.93', port: 0, fastPostgres: true, nodes: 3, network: 'netns',
      // The product's own detection timings: a host cut off is declared down once its engines' peers confirm it (4.5 s).
      extraEnv: { STRATA_FAST_FAILOVER: side === 'strata' ? 'true' : 'false' },
    });
    for (const fault of faults) {
      for (const mode of modes) {
        for (let run = 1; run <= runs; run++) {
          let r: ChaosRunResult;
          try {
            r = await runChaos(stack, { fault, mode, seconds, ...(clients !== undefined ? { clients } : {}), clientHosts, shards: Number(a.shards), percent: Number(a.percent), name: `chaos-${fault}-${mode}-${run}-${Date.now().toString(36)}`.slice(0, 40), log: (l) => console.log(`[chaos] ${side} ${mode} #${run}: ${l}`) });
          } catch (err) {
            // A run that could not be judged (e.g. the cluster never became ready) is reported, and the others go on.
            failures.push({ side, fault, mode, run, error: (err as Error).message });
            console.log(`[chaos] ${side} ${fault} ${mode} #${run}: NOT JUDGED: ${(err as Error).message}`);
            continue;
          }
          results.push({ ...r, side, run });
          // Written after every run: a long table interrupted keeps what it measured.
          if (a.json) writeFileSync(a.json, JSON.stringify({ seconds, runs, clientHosts, results, failures, complete: false }, null, 2));
          console.log(`[chaos] ${side} ${fault} ${mode} #${run}: lost ${r.lost.wait} WAIT / ${r.lost.plain} plain of ${r.acknowledged.wait} / ${r.acknowledged.plain} acknowledged; two-primary moments ${r.twoPrimaryMoments}; failed ${pct(r.failedShare)}, unknown ${pct(r.unknownShare)}`);
          if (clientHosts === 'spread') console.log(`[chaos] ${side} ${fault} ${mode} #${run}: lost by client (fault on ${r.faultHost}): ${r.clients.map((c) => `${c.client} ${c.kind} on ${c.host}${c.host === r.faultHost ? ' (fault host)' : ''} ${c.lost}/${c.acknowledged}`).join(', ')}`);
        }
      }
    }
    await cleanUp();
  }
} finally {
  await cleanUp();
}

const rows = [['fault', 'mode', 'side', 'runs', 'acked WAIT/plain', 'lost WAIT', 'lost plain', 'loss window ms', 'unexpected', 'dup', '2-primary moments', 'first ok after fault ms', 'longest gap ms', 'failed', 'unknown']];
for (const fault of faults) for (const mode of modes) for (const side of sides) {
  const rs = results.filter((r) => r.fault === fault && r.mode === mode && r.side === side);
  const sum = (f: (r: ChaosRunResult) => number) => rs.reduce((s, r) => s + f(r), 0);
  const max = (f: (r: ChaosRunResult) => number) => Math.max(0, ...rs.map(f));
  rows.push([fault, mode, side, String(rs.length), `${sum((r) => r.acknowledged.wait)}/${sum((r) => r.acknowledged.plain)}`, String(sum((r) => r.lost.wait)), String(sum((r) => r.lost.plain)),
    String(max((r) => r.lossWindowMs)), String(sum((r) => r.unexpected)), String(sum((r) => r.duplicates)), String(sum((r) => r.twoPrimaryMoments)),
    String(max((r) => r.firstOkAfterFaultMs ?? 0)), String(max((r) => r.longestGapMs)),
    pct(sum((r) => r.failedShare * r.ops) / Math.max(1, sum((r) => r.ops))), pct(sum((r) => r.unknownShare * r.ops) / Math.max(1, sum((r) => r.ops)))]);
}
const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
for (const f of failures) console.log(`[chaos] not judged: ${f.side} ${f.fault} ${f.mode} #${f.run}: ${f.error}`);
console.log('');
for (const r of rows) console.log(r.map((c, i) => c.padEnd(widths[i]!)).join('  '));

// Where the lost appends' clients ran, relative to the fault: only meaningful with clients on several hosts.
if (clientHosts === 'spread') {
  console.log('\nacknowledged appends lost by the clients on each side of the fault (lost / acknowledged, WAIT 1 and plain):');
  for (const fault of faults) for (const mode of modes) for (const side of sides) {
    const bySide = results.filter((r) => r.fault === fault && r.mode === mode && r.side === side).map((r) => figuresBySide(r.clients));
    const cell = (s: (typeof CLIENT_SIDES)[number]) => {
      const f = bySide.map((b) => b[s]).filter((x) => x !== undefined);
      if (!f.length) return `${s}: no clients`;
      const sum = (g: (x: (typeof f)[number]) => number) => f.reduce((n, x) => n + g(x), 0);
      return `${s}: WAIT ${sum((x) => x.lost.wait)}/${sum((x) => x.acknowledged.wait)}, plain ${sum((x) => x.lost.plain)}/${sum((x) => x.acknowledged.plain)}`;
    };
    console.log(`${fault} ${mode} ${side}: ${CLIENT_SIDES.map(cell).join('; ')}`);
  }
}

// Does Strata lose more than Redis alone? By rank over the runs (a few lumpy runs decide totals).
const comparisons: { fault: FaultName; mode: ChaosMode; kind: 'wait' | 'plain'; comparison: LossComparison }[] = [];
if (sides.length === 2) {
  console.log('');
  for (const fault of faults) for (const mode of modes) for (const kind of ['wait', 'plain'] as const) {
    const lost = (side: string) => results.filter((r) => r.fault === fault && r.mode === mode && r.side === side).map((r) => r.lost[kind]);
    const c = compareLosses(lost('strata'), lost('redis-alone'));
    comparisons.push({ fault, mode, kind, comparison: c });
    console.log(`${fault} ${mode}, lost ${kind === 'wait' ? 'WAIT 1' : 'plain'} appends per run: median ${c.medianStrata} (Strata) vs ${c.medianBaseline} (Redis alone), one-sided Mann-Whitney p = ${c.p.toFixed(3)}: Strata ${c.losesMore ? 'LOSES MORE' : 'does not lose more'}`);
  }
}
if (failures.length) process.exitCode = 1;
if (a.json) {
  writeFileSync(a.json, JSON.stringify({ seconds, runs, clientHosts, results, failures, comparisons, complete: true }, null, 2));
  console.log(`\n[chaos] every run written to ${a.json}`);
}
