import type { AgentStatusReport } from '@strata/api';
import type { NodeStore } from '../stores/node.store';
import type { ObservedState } from '../observed/observed-state';

/**
 * What the control plane does with a node's status report, wherever it came
 * from: POST /v1/agent/status (changes, reported at once) or carried by the
 * once-a-second metrics push (the steady heartbeat).
 */
export async function acceptStatusReport(d: { nodes: NodeStore; observed: ObservedState }, nodeId: string, report: AgentStatusReport): Promise<void> {
  await d.nodes.heartbeat(nodeId, report.memoryMb, report.agentVersion);
  d.observed.record(nodeId, report);
}
