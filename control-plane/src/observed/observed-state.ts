import type { AgentStatusReport, ObservedInstance } from '@strata/api';

interface NodeObservation {
  receivedAt: number;
  report: AgentStatusReport;
}

/**
 * The latest status report of every node, kept in memory. The reconciler
 * trusts this, not task completion. After a restart it is empty until each
 * agent reports again (within a second): until then a node is "unknown".
 */
export class ObservedState {
  private readonly byNode = new Map<string, NodeObservation>();
  private readonly byInstance = new Map<string, { nodeId: string; instance: ObservedInstance; receivedAt: number }>();
  private readonly listeners = new Set<(nodeId: string, clusterIds: Set<string>, changed: Set<string>) => void>();
  /** Redis node id of an engine -> the nodes whose engines said last that they cannot reach it. */
  private readonly flaggedBy = new Map<string, Set<string>>();
  /** Instance id -> since when its node has reported it running in a cluster (without a break). */
  private readonly runningSince = new Map<string, number>();

  private readonly startedAt: number;

  /**
   * @param staleAfterMs what a node said stops counting once it has been
   * silent this long: its instances are unknown, never healthy.
   * @param witnessFreshMs a node vouches for the reachability of its cluster
   * peers only this long after its report (agents report every second).
   * @param witnessSettleMs ...and only with an engine it has reported running
   * in the cluster for this long: a copy just started (a rebuilt replica) has
   * not yet had Redis's node timeout (2 s) to flag a dead peer.
   */
  constructor(private readonly now: () => number = Date.now, readonly staleAfterMs = 5000, readonly witnessFreshMs = 2500, readonly witnessSettleMs = 5000) {
    this.startedAt = now();
  }

  /**
   * How long this process has not heard from the node: since its last report,
   * or since this process started. The control plane's own outage never
   * counts against a node (after a restart every node gets a fresh chance).
   */
  silentForMs(nodeId: string): number {
    return this.now() - (this.lastReportAt(nodeId) ?? this.startedAt);
  }

  record(nodeId: string, report: AgentStatusReport): void {
    const prev = this.byNode.get(nodeId);
    const receivedAt = this.now();
    const clusterIds = new Set<string>();
    const before = new Map<string, string>();
    for (const i of prev?.report.instances ?? []) {
      this.byInstance.delete(i.instanceId);
      clusterIds.add(i.clusterId);
      before.set(i.instanceId, fingerprint(i));
    }
    this.byNode.set(nodeId, { receivedAt, report });
    this.recordFlags(nodeId, prev?.report, report);
    for (const i of prev?.report.instances ?? []) if (!report.instances.some((x) => x.instanceId === i.instanceId)) this.runningSince.delete(i.instanceId);
    for (const i of report.instances) {
      if (i.state !== 'running' || !i.cluster?.myId) this.runningSince.delete(i.instanceId);
      else if (!this.runningSince.has(i.instanceId)) this.runningSince.set(i.instanceId, receivedAt);
    }
    const changed = new Set<string>();
    for (const i of report.instances) {
      this.byInstance.set(i.instanceId, { nodeId, instance: i, receivedAt });
      clusterIds.add(i.clusterId);
      if (before.get(i.instanceId) !== fingerprint(i)) changed.add(i.clusterId);
      before.delete(i.instanceId);
    }
    for (const gone of prev?.report.instances ?? []) if (before.has(gone.instanceId)) changed.add(gone.clusterId);
    for (const l of this.listeners) l(nodeId, clusterIds, changed);
  }

  /**
   * Called on every report with the clusters it mentions and those whose
   * instances changed in a way the reconciler cares about (process state,
   * role, cluster state, replication link, slots).
   */
  onReport(listener: (nodeId: string, clusterIds: Set<string>, changed: Set<string>) => void): void {
    this.listeners.add(listener);
  }

  /**
   * Has this process not heard from the node yet, while still within the
   * first `staleAfterMs` after its start? Then nothing is known either way
   * (every agent reports within a second). Past that, a node never heard
   * from is simply silent: its instances are unknown.
   */
  awaitingFirstReport(nodeId: string): boolean {
    return this.lastReportAt(nodeId) === null && this.now() - this.startedAt <= this.staleAfterMs;
  }

  /** When this node last reported (ms epoch), or null if not since this process started. */
  lastReportAt(nodeId: string): number | null {
    return this.byNode.get(nodeId)?.receivedAt ?? null;
  }

  /**
   * The latest observation of an instance. With `nodeId`, only what that node
   * reported counts: a node cannot vouch for an instance placed elsewhere.
   */
  instance(instanceId: string, nodeId?: string): ObservedInstance | null {
    const o = this.byInstance.get(instanceId);
    if (!o || (nodeId && o.nodeId !== nodeId)) return null;
    if (this.now() - o.receivedAt > this.staleAfterMs) return null;
    return o.instance;
  }

  /**
   * Do the cluster peers of every engine this node ran say they cannot reach
   * it? True when, for each engine of the node's last report (with its Redis
   * node id), every other node that reported within `witnessFreshMs` an
   * engine of the same cluster running for `witnessSettleMs` flags it
   * `fail?` or `fail`, and there is at least one such node. One peer's suspicion is not enough: an
   * asymmetric cut (the node unreachable from one peer, reachable from
   * another) is no dead host. What tells a dead or cut-off host from a
   * stopped agent whose engines keep serving (see node-liveness.ts).
   */
  unreachableByPeers(nodeId: string): boolean {
    const engines = this.nodeInstances(nodeId).filter((i) => i.cluster?.myId);
    if (!engines.length) return false;
    return engines.every((e) => {
      const witnesses = this.witnesses(e.clusterId, nodeId);
      const by = this.flaggedBy.get(e.cluster!.myId);
      return witnesses.length > 0 && witnesses.every((w) => by?.has(w));
    });
  }

  /**
   * Nodes other than `exceptNodeId` that reported within `witnessFreshMs` an engine of the cluster running for at
   * least `witnessSettleMs`.
   */
  private witnesses(clusterId: string, exceptNodeId: string): string[] {
    const out: string[] = [];
    const settledBefore = this.now() - this.witnessSettleMs;
    for (const [id, o] of this.byNode) {
      if (id === exceptNodeId || this.now() - o.receivedAt > this.witnessFreshMs) continue;
      if (o.report.instances.some((i) => i.clusterId === clusterId && (this.runningSince.get(i.instanceId) ?? Infinity) <= settledBefore)) out.push(id);
    }
    return out;
  }

  private recordFlags(nodeId: string, prev: AgentStatusReport | undefined, report: AgentStatusReport): void {
    for (const i of prev?.instances ?? []) {
      for (const id of i.cluster?.unreachablePeers ?? []) {
        const by = this.flaggedBy.get(id);
        by?.delete(nodeId);
        if (by && !by.size) this.flaggedBy.delete(id);
      }
    }
    for (const i of report.instances) {
      for (const id of i.cluster?.unreachablePeers ?? []) (this.flaggedBy.get(id) ?? this.flaggedBy.set(id, new Set()).get(id)!).add(nodeId);
    }
  }

  /** Has this node been silent past the staleness limit (or never reported since this process started)? */
  isSilent(nodeId: string): boolean {
    const at = this.lastReportAt(nodeId);
    return at === null || this.now() - at > this.staleAfterMs;
  }

  /**
   * Ports of every engine the node reported last, whether or not Strata still
   * wants it (a deleted or replaced copy still being removed holds its port
   * until its process is gone).
   */
  enginePorts(nodeId: string): number[] {
    return this.byNode.get(nodeId)?.report.instances.map((i) => i.port) ?? [];
  }

  /** Warm spare ports the node reported last (empty if it has not reported recently). */
  sparePorts(nodeId: string, maxAgeMs = 3000): number[] {
    const o = this.byNode.get(nodeId);
    return o && this.now() - o.receivedAt < maxAgeMs ? (o.report.sparePorts ?? []) : [];
  }

  /** Cluster endpoint ports the node says its agent is serving (empty once it is silent). */
  endpointPorts(nodeId: string): number[] {
    const o = this.byNode.get(nodeId);
    return o && !this.isSilent(nodeId) ? (o.report.endpointPorts ?? []) : [];
  }

  /** Every instance a node reported within the staleness limit (what it said last). */
  *freshInstances(): IterableIterator<ObservedInstance> {
    const now = this.now();
    for (const o of this.byInstance.values()) if (now - o.receivedAt <= this.staleAfterMs) yield o.instance;
  }

  nodeInstances(nodeId: string): ObservedInstance[] {
    return this.byNode.get(nodeId)?.report.instances ?? [];
  }
}

/** What about an instance makes a reconcile pass worth running at once (peers it cannot reach included: a host that died shows there first). */
function fingerprint(i: ObservedInstance): string {
  const v = i.cluster;
  return [i.state, i.held, v?.role, v?.state, v?.myId, v?.primaryId, v?.primaryLinkUp, v?.slotsOwned, v?.openSlots.length, v?.knownNodes, v?.syncInProgress, v?.configEpoch, v?.unreachablePeers?.join(','), i.usersDigest, i.certificateExpiresAt, i.trustDigest].join('|');
}
