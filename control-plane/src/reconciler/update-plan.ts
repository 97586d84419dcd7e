/**
 * What an update-cluster or switchover operation stores as its plan: the
 * state it is to reach, once. Its steps follow from it (engine's
 * updateStepNames); their titles and progress are the operation's steps as
 * the API shows them. The plan the PATCH answered with is not stored.
 * (Rows written before this carry `vertical` and `public` too; nothing reads them.)
 */
import type { ClusterSpec, SlotRange } from '@strata/api';
import { stageName, type TlsLayout, type TlsStageRef, type TlsTarget, type UpdateDesired } from '@strata/engine';
import type { StepDef } from './steps';

export interface UpdatePlanRecord extends UpdateDesired {
  kind: 'update';
  from: ClusterSpec;
  to: ClusterSpec;
  originalSlots: SlotRange[][];
  targetSlots: SlotRange[][];
  added: string[];
  removed: string[];
}

export interface SwitchoverPlanRecord {
  kind: 'switchover';
  shard: number;
  targetInstanceId: string;
  fromInstanceId: string;
}

/** A rolling restart: the instances in the order they restart (restartOrder when it began). */
export interface RestartPlanRecord {
  kind: 'restart';
  order: string[];
  /** maintenance_window: it starts only inside the cluster's maintenance window (absent: at once). */
  when?: 'now' | 'maintenance_window';
}

export const ROTATE_CA_STEPS = [
  { name: 'trust-new-ca', title: 'Every instance trusts the new CA beside the old one', weight: 0.2 },
  { name: 'reissue', title: 'Every instance serves a certificate from the new CA (chained to the old one), without a restart', weight: 0.4 },
  { name: 'retire-old-ca', title: 'The old CA is retired: no instance trusts it any more', weight: 0.2 },
  { name: 'reissue-final', title: 'Every instance serves a certificate from the new CA alone', weight: 0.2 },
] as const;

/** A CA rotation: how long the old CA stays trusted once every instance serves the new one. */
export interface RotateCaPlanRecord {
  kind: 'rotate-ca';
  retireAfterSeconds: number;
}

export const RESTART_STEPS = [
  { name: 'restart', title: 'Restart every instance: replicas first, then each primary after a data-safe switchover, one at a time', weight: 1 },
] as const;

export const UPDATE_STEP_TITLES: Record<string, string> = {
  'rollback-configure': 'Cancelled: put memory, durability and eviction back',
  'rollback-migrate': 'Cancelled: move slots back to where they were',
  'rollback-remove': 'Cancelled: remove the instances this change added',
  'rollback-finish': 'Cancelled: restore the previous spec',
};

export const SWITCHOVER_STEPS = [
  { name: 'switchover', title: 'Promote the replica once it has caught up (CLUSTER FAILOVER, no acknowledged write lost)', weight: 1 },
] as const;

/** An in-place TLS switch (valkey-8): the layout it started from, what was asked, and each stage with the layout after it. */
export interface TlsSwitchPlanRecord {
  kind: 'tls-switch';
  from: TlsLayout;
  to: TlsTarget;
  stages: { step: TlsStageRef; after: TlsLayout }[];
}

const SERVED: Record<TlsLayout, string> = {
  plain: 'plain text only',
  'plain+tls': "plain text on each instance's port and TLS on a second port",
  'tls+plain': "TLS on each instance's port and plain text on a second port",
  tls: 'TLS only',
};

/** A stage as an operation step: what every instance serves once it is done. */
export function tlsStageStep(s: { step: TlsStageRef; after: TlsLayout }, weight: number): StepDef {
  const order = 'replicas before primaries, without a restart';
  return { name: stageName(s.step), title: `Every instance serves ${SERVED[s.after]} (${order})`, weight };
}

export const tlsServedWords = (layout: TlsLayout): string => SERVED[layout];
