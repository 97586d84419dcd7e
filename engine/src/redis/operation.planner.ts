/**
 * The operation planner: for the step an operation is at, a pure function
 * from (what the operation is to reach, the stored topology, what agents
 * observe, what its tasks did) to the typed actions to take now and the
 * step's verdict. The control plane applies the actions with the same
 * applier healing uses and asks again on every pass, so a plan only ever
 * says what to do next. Healing's actions come from `planHealing`.
 */
import type { InstanceRole } from '../domain';
import type { OperationAction } from './cluster-action';
import { isHealthyMember, primaryNodeId, type MemberObservation } from './member-health';
import { shardLabel } from '../shard-label';

/** One stored instance with what its node reports. */
export interface OpInstance {
  id: string;
  shard: number;
  role: InstanceRole;
  engineId: string | null;
  /** host:port, for the words a step shows. */
  label: string;
  /** Its node's name, for the words a step shows. */
  nodeName: string;
  obs: MemberObservation | null;
  /** Its agent saw it exit (it holds it, or reports a crash time). */
  crashed: boolean;
  /** When its node last reported (ms epoch); null when not since the control plane started. */
  nodeReportedAt: number | null;
  /** Its node is down (silent past the node-down timeout, or confirmed by its engines' peers); absent: it is not. */
  nodeDown?: boolean;
}

/** What one of the operation's tasks did last (null: never asked). */
export interface TaskView {
  state: 'pending' | 'leased' | 'succeeded' | 'failed';
  /** When it last changed (ms epoch). */
  updatedAt: number;
}

export type StepVerdict =
  | { kind: 'done'; detail?: string }
  | { kind: 'wait'; detail: string; fraction?: number }
  | { kind: 'failed'; code: string; message: string };

export type { Settings, OperationAction } from './cluster-action';

export interface StepPlan {
  actions: OperationAction[];
  verdict: StepVerdict;
}

const running = (i: OpInstance) => i.obs?.process === 'running';

/**
 * The instances that are healthy members (the one rule: `isHealthyMember`);
 * `forgetting`: copies replaced after a node loss that members may still
 * know until they forgot them.
 */
export function healthyIds(instances: readonly Pick<OpInstance, 'id' | 'shard' | 'role' | 'engineId' | 'obs'>[], forgetting = 0): Set<string> {
  const out = new Set<string>();
  for (const i of instances) {
    const primary = instances.find((p) => p.shard === i.shard && p.role === 'primary');
    const primaryId = i.role === 'replica' ? primaryNodeId(primary && { engineId: primary.engineId, obs: primary.obs }) : null;
    if (isHealthyMember({ role: i.role, obs: i.obs }, { primaryNodeId: primaryId, maxKnownNodes: instances.length + forgetting })) out.add(i.id);
  }
  return out;
}

// ---- create-cluster: plan -> start-instances -> form-cluster -> verify

export interface CreateInput {
  instances: OpInstance[];
  /** The form-cluster task. */
  form: TaskView | null;
  /** Does an agent serve the cluster's stable endpoint? null: it has none. */
  endpointServed: boolean | null;
  now: number;
  /** Nodes that still disagree this long after form-cluster succeeded: form again. */
  reformAfterMs: number;
  /** Replaced copies members may still know (see healthyIds). */
  forgetting?: number;
  /** A restore into another layout: each backup file's restore-keys task and its progress (load-data). */
  restore?: RestoreFileView[];
}

/** One backup file of a restore that moves keys: its task and how many of its keys are in. */
export interface RestoreFileView {
  backupShard: number;
  /**
   * The load round: how many times an engine of the new cluster restarted (or its primary failed over) since the
   * restore began. Keys moved before that may be gone with it, so every file is moved again in each new round.
   */
  round: number;
  /** This round's task. */
  task: TaskView | null;
  /** A task of an earlier round that still runs (its file is moved again once it ended: one move of a file at a time). */
  earlierRunning: boolean;
  /** Keys moved (or skipped as expired) so far, of the file's total (null: not known yet). */
  done: number;
  total: number | null;
}

export type CreateStep = 'plan' | 'start-instances' | 'form-cluster' | 'load-data' | 'verify';

export function planCreateStep(step: CreateStep, input: CreateInput): StepPlan {
  const all = input.instances;
  const total = all.length;
  const lost = step === 'plan' ? null : nodeLostDuringCreate(all, !!input.restore);
  if (lost) return { actions: [], verdict: lost };
  switch (step) {
    case 'plan': {
      // Placement happened when the request was accepted; this step records it.
      const nodes = new Set(all.map((i) => i.nodeName)).size;
      return { actions: [], verdict: { kind: 'done', detail: `${total} instances on ${nodes} nodes` } };
    }
    case 'start-instances': {
      const up = all.filter(running).length;
      const actions: OperationAction[] = all.filter((i) => !running(i)).map((i) => ({ kind: 'start', shard: i.shard, instanceId: i.id }));
      return { actions, verdict: up === total ? { kind: 'done', detail: `${total} of ${total} running` } : { kind: 'wait', detail: `${up} of ${total} running`, fraction: up / total } };
    }
    case 'form-cluster': {
      const healthy = healthyIds(all, input.forgetting);
      if (input.form?.state === 'succeeded' || all.every((i) => healthy.has(i.id))) return { actions: [], verdict: { kind: 'done' } };
      return { actions: [{ kind: 'form' }], verdict: { kind: 'wait', detail: 'meeting nodes, assigning 16384 slots, attaching replicas' } };
    }
    case 'load-data': return planLoadData(input.restore ?? []);
    case 'verify': {
      const healthy = healthyIds(all, input.forgetting);
      const formed = all.filter((i) => healthy.has(i.id)).length;
      // Ready means usable through the connection URI: an agent must serve the endpoint it names.
      if (formed === total && input.endpointServed === false) {
        return { actions: [], verdict: { kind: 'wait', detail: `${total} of ${total} nodes agree; waiting for an agent to serve the endpoint`, fraction: 0.99 } };
      }
      // Every instance's Redis id is known from the start (replicas are matched to their primary by it).
      if (formed === total) return { actions: [{ kind: 'remember-ids', instanceIds: all.map((i) => i.id) }], verdict: { kind: 'done', detail: `${total} of ${total} nodes agree` } };
      // The form task succeeded but the nodes disagree later: form again (idempotent).
      const reform = input.form?.state === 'succeeded' && input.now - input.form.updatedAt > input.reformAfterMs;
      return { actions: reform ? [{ kind: 'form' }] : [], verdict: { kind: 'wait', detail: `${formed} of ${total} nodes agree`, fraction: formed / total } };
    }
  }
}

/**
 * A node holding instances of a cluster being created went down: the create
 * fails, naming it. A new cluster is not made whole around a lost node (its
 * copies would be placed again and, once formed, its slots taken over): it
 * holds nothing yet that a new create would not give back, so a new create
 * (placement skips down nodes) is the quick and safe way on.
 */
function nodeLostDuringCreate(all: OpInstance[], restoring: boolean): Extract<StepVerdict, { kind: 'failed' }> | null {
  return nodeDownFailure(all, 'while the cluster was being created',
    `Delete this cluster (the delete does not wait for the node) and ${restoring ? 'restore' : 'create'} it again: placement skips nodes that are down.`);
}

/**
 * An operation that cannot go on without a node that went down: `node_down`, naming the node(s) and the copies they
 * held (`during`: when, in words; `advice`: what to do next). Null while no instance's node is down.
 */
export function nodeDownFailure(instances: readonly OpInstance[], during: string, advice: string): Extract<StepVerdict, { kind: 'failed' }> | null {
  const down = instances.filter((i) => i.nodeDown);
  if (!down.length) return null;
  const nodes = [...new Set(down.map((i) => i.nodeName))];
  const held = down.map((i) => `${i.label} (${shardLabel(i.shard)} ${i.role})`).join(', ');
  return { kind: 'failed', code: 'node_down', message: `node ${nodes.join(', ')} went down ${during}; it held ${held}. ${advice}` };
}

/** Load rounds a restore goes through before it fails (each engine restart or failover during the load starts one). */
export const MAX_LOAD_ROUNDS = 5;

/**
 * A restore into another layout: one restore-keys task per backup file (the
 * applier hands each out again after a failure, up to its attempts). Done
 * when every file's keys are in; the detail shows each file's progress.
 */
function planLoadData(files: RestoreFileView[]): StepPlan {
  const round = Math.max(0, ...files.map((f) => f.round));
  if (round > MAX_LOAD_ROUNDS) {
    return { actions: [], verdict: { kind: 'failed', code: 'restore_engines_unstable', message: `engines of the new cluster restarted or failed over ${round} times during the load; every file was moved again after each, and the restore gives up rather than loop. Check the nodes (memory, the engines' logs), delete this cluster and restore again.` } };
  }
  const unfinished = files.filter((f) => f.task?.state !== 'succeeded');
  const actions: OperationAction[] = unfinished.filter((f) => !f.earlierRunning).map((f) => ({ kind: 'restore-keys', backupShard: f.backupShard, round: f.round }));
  const keys = (f: RestoreFileView) => (f.earlierRunning ? 'waiting for its earlier move to end' : f.total === null ? 'starting' : `${f.done}/${f.total} keys`);
  const why = 'an engine of the new cluster restarted or failed over during the load';
  const each = files.map((f) => `shard ${f.backupShard}: ${f.task?.state === 'succeeded' ? `done${f.total === null ? '' : ` (${f.total} keys)`}` : keys(f)}`).join(', ');
  if (!unfinished.length) return { actions, verdict: { kind: 'done', detail: `${files.length} backup file(s) loaded${round ? ` in round ${round + 1} (${why})` : ''}: ${each}` } };
  const detail = (round ? `loading again, round ${round + 1} (${why}): ` : '') + each;
  const total = files.reduce((n, f) => n + (f.total ?? 0), 0);
  const done = files.reduce((n, f) => n + (f.task?.state === 'succeeded' ? f.total ?? 0 : f.done), 0);
  return { actions, verdict: { kind: 'wait', detail, fraction: total ? done / total : 0 } };
}

// ---- delete-cluster: stop-instances -> remove-records

export interface DeleteInput {
  instances: OpInstance[];
  /** Each instance's remove task, by instance id. */
  removal: Map<string, TaskView>;
}

/**
 * An instance is gone when its remove task succeeded and its node has
 * reported since then without it: the agent stopped the process and deleted
 * its data.
 */
export function isGone(i: OpInstance, removal: TaskView | null | undefined): boolean {
  return removal?.state === 'succeeded' && i.nodeReportedAt !== null && i.nodeReportedAt > removal.updatedAt && !i.obs;
}

export type DeleteStep = 'stop-instances' | 'remove-records';

export function planDeleteStep(step: DeleteStep, input: DeleteInput): StepPlan {
  // The record itself is removed by the reconciler after the operation is saved.
  if (step === 'remove-records') return { actions: [], verdict: { kind: 'done' } };
  const notGone = input.instances.filter((i) => !isGone(i, input.removal.get(i.id)));
  // A delete does not wait for a down node: what it runs of the cluster is removed when it reports again (its remove
  // tasks stay queued for it, and the orphan sweep removes any engine of a cluster that no longer exists).
  const onDownNodes = notGone.filter((i) => i.nodeDown);
  const left = notGone.filter((i) => !onDownNodes.includes(i));
  const total = input.instances.length;
  const gone = total - left.length;
  const actions: OperationAction[] = notGone.map((i) => ({ kind: 'remove', instanceId: i.id }));
  const downNote = onDownNodes.length
    ? `; ${onDownNodes.length} on down node ${[...new Set(onDownNodes.map((i) => i.nodeName))].join(', ')} removed when it reports again`
    : '';
  if (!left.length) return { actions, verdict: { kind: 'done', detail: `${total - onDownNodes.length} instances removed${downNote}` } };
  const waitingOn = [...new Set(left.map((i) => i.nodeName))];
  return { actions, verdict: { kind: 'wait', detail: `${gone} of ${total} removed; waiting on ${waitingOn.join(', ')}`, fraction: total ? gone / total : 1 } };
}

// ---- switchover: switchover

export interface SwitchoverInput {
  instances: OpInstance[];
  /** The replica the user chose (or Strata chose) to promote. */
  targetInstanceId: string;
}

export function planSwitchoverStep(input: SwitchoverInput): StepPlan {
  const target = input.instances.find((i) => i.id === input.targetInstanceId);
  if (!target) return { actions: [], verdict: { kind: 'failed', code: 'instance_gone', message: 'the replica to promote no longer exists' } };
  const v = target.obs?.view;
  if (v && v.role === 'primary' && v.slotsOwned > 0 && v.state === 'ok') return { actions: [], verdict: { kind: 'done', detail: `${target.label} is the primary` } };
  return { actions: [{ kind: 'switchover-to', shard: target.shard, instanceId: target.id }], verdict: { kind: 'wait', detail: 'waiting for the replica to catch up and take over' } };
}
