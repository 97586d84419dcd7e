import type { ReactNode } from 'react';
import type { ClusterPhase, InstanceHealth, NodeStatus, OperationState, StepState } from '@strata/api';

export type Tone = 'success' | 'info' | 'warning' | 'danger' | 'neutral';

/** Colour + text, never colour alone. `pulse` marks something in progress. */
export function Badge({ tone, children, pulse, testId }: { tone: Tone; children: ReactNode; pulse?: boolean; testId?: string }) {
  return (
    <span className={`badge badge-${tone}`} data-testid={testId}>
      <span className={pulse ? 'badge-dot pulse' : 'badge-dot'} aria-hidden="true" />
      {children}
    </span>
  );
}

const PHASES: Record<ClusterPhase, { label: string; tone: Tone; pulse?: boolean }> = {
  provisioning: { label: 'Provisioning', tone: 'info', pulse: true },
  ready: { label: 'Ready', tone: 'success' },
  updating: { label: 'Updating', tone: 'info', pulse: true },
  degraded: { label: 'Degraded', tone: 'warning' },
  deleting: { label: 'Deleting', tone: 'neutral', pulse: true },
  failed: { label: 'Failed', tone: 'danger' },
};

export function ClusterStatusBadge({ phase }: { phase: ClusterPhase }) {
  const p = PHASES[phase];
  return (
    <Badge tone={p.tone} pulse={p.pulse} testId="cluster-status">
      {p.label}
    </Badge>
  );
}

const OP_STATES: Record<OperationState, { label: string; tone: Tone; pulse?: boolean }> = {
  pending: { label: 'Pending', tone: 'neutral', pulse: true },
  running: { label: 'Running', tone: 'info', pulse: true },
  succeeded: { label: 'Succeeded', tone: 'success' },
  failed: { label: 'Failed', tone: 'danger' },
  cancelled: { label: 'Cancelled', tone: 'neutral' },
};

export function OperationStateBadge({ state }: { state: OperationState }) {
  const s = OP_STATES[state];
  return (
    <Badge tone={s.tone} pulse={s.pulse}>
      {s.label}
    </Badge>
  );
}

export function NodeStatusBadge({ status }: { status: NodeStatus }) {
  const label = { online: 'Online', offline: 'Offline', down: 'Down' }[status];
  return <Badge tone={status === 'online' ? 'success' : status === 'offline' ? 'warning' : 'danger'}>{label}</Badge>;
}

const HEALTH: Record<InstanceHealth, { label: string; cls: string }> = {
  healthy: { label: 'Healthy', cls: 'dot-success' },
  starting: { label: 'Starting', cls: 'dot-info pulse' },
  down: { label: 'Down', cls: 'dot-danger' },
  unknown: { label: 'Unknown', cls: 'dot-neutral' },
};

/** A health dot with its text (visible next to it, so screen readers and colour-blind users get it too). */
export function HealthDot({ health }: { health: InstanceHealth }) {
  const h = HEALTH[health];
  return (
    <span className="health" data-health={health}>
      <span className={`dot ${h.cls}`} aria-hidden="true" />
      <span className="health-label">{h.label}</span>
    </span>
  );
}

export const STEP_ICONS: Record<StepState, { label: string; cls: string }> = {
  pending: { label: 'Pending', cls: 'step-pending' },
  running: { label: 'In progress', cls: 'step-running' },
  succeeded: { label: 'Done', cls: 'step-succeeded' },
  failed: { label: 'Failed', cls: 'step-failed' },
};
