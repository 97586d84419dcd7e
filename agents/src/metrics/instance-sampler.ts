import type { Redis } from 'ioredis';
import type { InstanceMetricSample, ObservedClusterView } from '@strata/api';
import { CommandClassifier } from '@strata/engine/redis-admin';
import { diffSnapshots, parseLatencyHistogramReply, type BucketCounts, type RawSnapshot } from '@strata/engine/metrics';
import { INFO_SECTIONS, scanInfo, type ScannedInfo } from './info-scan';
import { VIEW_COMMAND_NAMES, VIEW_COMMANDS, viewFromReplies } from './cluster-view';

/**
 * Samples one engine instance over a long-lived admin connection (the
 * agent's shared per-instance connection; `connect` hands it out and
 * replaces it when it dropped). The first reading only primes the counters;
 * every later one yields the deltas since the previous successful reading.
 *
 * A reading is one pipelined round trip: INFO, and `LATENCY HISTOGRAM` for
 * the read and write commands the instance has run (only their latency is
 * used; none at all on an instance that never served a read or write). Only
 * what changed is parsed: commandstats lines that differ from the previous
 * reading, histograms whose call count moved. A read or write command seen
 * for the first time has its histogram read at once, in a second round trip.
 *
 * With `observe`, the same round trip also reads how the instance sees the
 * cluster (the status report's view: CLUSTER MYID, INFO, NODES; the
 * replication section comes with INFO), kept in `lastView`.
 */
export class InstanceSampler {
  private prev?: RawSnapshot;
  private prevInfo?: ScannedInfo;
  private readonly classifier = new CommandClassifier();
  /** Command names whose class is known. */
  private readonly classified = new Set<string>();
  /** Read and write commands with calls: the histograms each reading asks for. */
  private tracked: string[] = [];
  private readonly trackedSet = new Set<string>();
  /** The latest histogram of each tracked command and the call count it was read at. */
  private histograms = new Map<string, { calls: number; buckets: BucketCounts }>();
  /** Commands the previous reading sent after its INFO: this reading's INFO counts them (not the customer's). */
  private sentBefore: ReadonlyMap<string, number> = new Map();
  /** The cluster view read by the last reading (with `observe`), null when the instance did not answer as a cluster node. */
  lastView?: { atMs: number; view: ObservedClusterView | null };

  constructor(
    readonly target: { instanceId: string; clusterId: string },
    private readonly connect: () => Promise<Redis>,
    private readonly opts: { observe?: boolean } = {},
  ) {}

  async sample(ts: number): Promise<InstanceMetricSample | null> {
    const client = await this.connect();
    const asked = this.tracked;
    const pipeline = client.pipeline().call('INFO', ...INFO_SECTIONS);
    if (asked.length) pipeline.call('LATENCY', 'HISTOGRAM', ...asked);
    if (this.opts.observe) for (const [command, sub] of VIEW_COMMANDS) pipeline.call(command, sub);
    const replies = await pipeline.exec();
    if (!replies) throw new Error('no reply');
    const metricReplies = asked.length ? 2 : 1;
    for (const [err] of replies.slice(0, metricReplies)) if (err) throw err;
    const atMs = Date.now();
    const sent = new Map<string, number>([['info', 1]]);
    if (asked.length) sent.set('latency|histogram', 1);
    const infoText = String(replies[0]![1]);

    if (this.opts.observe) {
      const viewReplies = new Map<string, unknown>([['INFO REPLICATION', infoSection(infoText, 'Replication')]]);
      VIEW_COMMANDS.forEach((c, i) => {
        const [err, value] = replies[metricReplies + i]!;
        if (err) return;
        viewReplies.set(c.join(' '), value);
        sent.set(VIEW_COMMAND_NAMES[i]!, 1);
      });
      this.lastView = { atMs, view: await viewFromReplies(viewReplies) };
    }

    const info = scanInfo(infoText, this.prevInfo);
    const restarted = this.prevInfo !== undefined && this.prevInfo.runId !== info.runId;
    if (restarted) this.histograms = new Map();

    const unknown: string[] = [];
    for (const name of info.commands.keys()) if (!this.classified.has(name)) unknown.push(name);
    if (unknown.length) {
      await this.classifier.learn(client, unknown);
      for (const name of unknown) this.classified.add(name);
      if (unknown.some((n) => !n.includes('|'))) sent.set('command|info', 1);
    }

    const histograms = asked.length ? this.absorb(replies[1]![1], restarted) : this.histograms;
    const fresh: string[] = [];
    for (const [name, stat] of info.commands) {
      if (stat.calls > 0 && !this.trackedSet.has(name) && this.classifier.classOf(name) !== 'other') fresh.push(name);
    }
    if (fresh.length) {
      for (const name of fresh) this.trackedSet.add(name);
      this.tracked = [...this.tracked, ...fresh];
      this.absorbInto(histograms, await client.call('LATENCY', 'HISTOGRAM', ...fresh), true);
      sent.set('latency|histogram', (sent.get('latency|histogram') ?? 0) + 1);
    }
    this.histograms = histograms;

    const latency = new Map<string, BucketCounts>();
    for (const [name, h] of histograms) latency.set(name, h.buckets);
    const snap: RawSnapshot = {
      atMs, runId: info.runId, role: info.role, commands: info.commands, latency, clients: info.clients, usedMemory: info.usedMemory,
      maxMemory: info.maxMemory, keys: info.keys, evicted: info.evicted, expired: info.expired, hits: info.hits, misses: info.misses,
      netIn: info.netIn, netOut: info.netOut, cpuSeconds: info.cpuSeconds, replicas: info.replicas,
    };
    const prev = this.prev;
    const own = this.sentBefore;
    this.prev = snap;
    this.prevInfo = info;
    this.sentBefore = sent;
    if (!prev) return null;
    return { instanceId: this.target.instanceId, clusterId: this.target.clusterId, ts, ...diffSnapshots(prev, snap, this.classifier.classOf, own) };
  }

  /**
   * The histograms of a `LATENCY HISTOGRAM <tracked…>` reply. A command whose
   * call count did not move keeps its previous buckets unparsed; one missing
   * from the reply has no calls (since a restart) and no histogram.
   */
  private absorb(reply: unknown, restarted: boolean): Map<string, { calls: number; buckets: BucketCounts }> {
    return this.absorbInto(new Map(), reply, restarted);
  }

  private absorbInto(into: Map<string, { calls: number; buckets: BucketCounts }>, reply: unknown, restarted: boolean) {
    if (!Array.isArray(reply)) return into;
    for (let i = 0; i + 1 < reply.length; i += 2) {
      const name = String(reply[i]).toLowerCase();
      const body = reply[i + 1];
      const calls = Array.isArray(body) ? callsOf(body) : -1;
      const known = restarted ? undefined : this.histograms.get(name);
      if (known && known.calls === calls) into.set(name, known);
      else {
        const parsed = parseLatencyHistogramReply([reply[i], body]).get(name);
        if (parsed) into.set(name, parsed);
      }
    }
    return into;
  }
}

/** One section of an INFO reply (`# Name` up to the next header), as `INFO <name>` would answer. */
export function infoSection(text: string, name: string): string {
  const start = text.indexOf(`# ${name}\r\n`);
  if (start < 0) return '';
  const end = text.indexOf('\r\n# ', start + name.length + 4);
  return text.slice(start, end < 0 ? text.length : end + 2);
}

/** `calls` of one command's LATENCY HISTOGRAM entry (`['calls', n, 'histogram_usec', […]]`). */
function callsOf(body: unknown[]): number {
  for (let j = 0; j + 1 < body.length; j += 2) if (String(body[j]) === 'calls') return Number(body[j + 1]);
  return -1;
}
