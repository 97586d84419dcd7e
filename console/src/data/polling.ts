import type { ClusterPhase, OperationState } from '@strata/api';

/** Poll fast while something is changing, slowly otherwise. */
export const FAST_POLL_MS = 1000;
export const SLOW_POLL_MS = 4000;

const TRANSITIONAL: Record<ClusterPhase, boolean> = {
  provisioning: true,
  updating: true,
  deleting: true,
  ready: false,
  degraded: false,
  failed: false,
};

export function isTransitional(phase: ClusterPhase): boolean {
  return TRANSITIONAL[phase];
}

export function isOperationActive(state: OperationState): boolean {
  return state === 'pending' || state === 'running';
}
