import { shardLabel, type ClusterEvent, type ClusterPhase, type Topology } from '@strata/api';

const CAUSE: Record<string, string> = {
  'process-crash': 'crashed',
  'node-lost': 'was lost with its node',
  switchover: 'was switched over',
  engine: 'failed',
};

type FailoverEvent = Extract<ClusterEvent, { type: 'failover' }>;

const seconds = (ms: number) => (ms < 10_000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms / 1000)} s`);

/**
 * What happened to a degraded cluster, one plain sentence per shard in
 * trouble, from the topology and the recent events: "Shard 2's primary on
 * node-2 crashed; node-3 took over 0.15 s later; rebuilding a replica on
 * node-1: 40%". Failovers older than `recentMs` are history, not the story.
 */
export function degradedSummary(topology: Topology | undefined, events: readonly ClusterEvent[] | undefined, phase: ClusterPhase, now: number, recentMs = 5 * 60_000): string[] {
  if (!topology || (phase !== 'degraded' && phase !== 'failed')) return [];
  const out: string[] = [];
  for (const shard of [...topology.shards].sort((a, b) => a.index - b.index)) {
    const parts: string[] = [];
    const failover = events?.find((e): e is FailoverEvent => e.type === 'failover' && e.shard === shard.index && now - Date.parse(e.at) < recentMs);
    const unwell = shard.instances.filter((i) => i.health !== 'healthy' || i.sync);
    if (!failover && unwell.length === 0) continue;
    if (failover) parts.push(failoverSentence(failover));
    for (const i of unwell) {
      if (i.sync) {
        const pct = i.sync.totalBytes ? `${Math.round((100 * i.sync.receivedBytes) / i.sync.totalBytes)}%` : `${(i.sync.receivedBytes / 1048576).toFixed(1)} MB copied`;
        parts.push(`rebuilding a replica on ${i.nodeName}: ${pct}`);
      } else if (i.health === 'down') {
        parts.push(failover && failover.oldPrimary.instanceId === i.id ? `the old primary is down; Strata restarts it as a replica` : `the ${i.role} on ${i.nodeName} is down`);
      } else if (i.health === 'starting') {
        parts.push(failover && failover.oldPrimary.instanceId === i.id ? `the old primary is restarting as a replica` : `the ${i.role === 'primary' ? 'primary' : 'replica'} on ${i.nodeName} is starting`);
      } else if (i.health === 'unknown') {
        parts.push(`${i.nodeName} is not reporting`);
      }
    }
    const [first, ...rest] = parts;
    if (first) out.push([failover ? first : `${shardLabel(shard.index)}: ${first}`, ...rest].join('; ') + '.');
  }
  return out;
}

/** "Shard 2's primary on node-2 crashed; node-3 took over 0.15 s later" */
function failoverSentence(f: FailoverEvent): string {
  const from = f.detectedAt ? Date.parse(f.detectedAt) : null;
  const after = from !== null ? ` ${seconds(Math.max(0, Date.parse(f.promotedAt) - from))} later` : '';
  return `${shardLabel(f.shard)}'s primary on ${f.oldPrimary.nodeName} ${CAUSE[f.cause] ?? 'failed'}; ${f.newPrimary.nodeName} took over${after}`;
}

/**
 * What a ready cluster went through lately: one sentence per failover of the
 * last `recentMs` (newest per shard). A failover can heal within a second or
 * two, before anyone looked; the page still says what happened.
 */
export function recoveredSummary(events: readonly ClusterEvent[] | undefined, phase: ClusterPhase, now: number, recentMs = 2 * 60_000): string[] {
  if (phase !== 'ready' || !events) return [];
  const newest = new Map<number, FailoverEvent>();
  for (const e of events) {
    if (e.type !== 'failover' || now - Date.parse(e.at) >= recentMs || newest.has(e.shard)) continue;
    newest.set(e.shard, e);
  }
  return [...newest.values()].sort((a, b) => a.shard - b.shard).map((f) => `${failoverSentence(f)}; healthy again.`);
}
