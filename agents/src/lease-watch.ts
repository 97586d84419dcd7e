/**
 * Whether a running task still holds its lease, from its heartbeats' answers.
 * Once the control plane refuses a heartbeat (it took the task back, e.g.
 * after declaring this node down), the task is no longer this node's: it
 * stops at its next safe point. A task the control plane may hand to another
 * node (`movable`: a slot migration) also stops once no heartbeat was
 * answered for a whole lease, so two nodes never run it at once for long;
 * any other task rides out a control-plane outage (only its node can run it).
 */
import { TASK_LEASE_MS } from '@strata/api';

export type HeartbeatAnswer = { kind: 'renewed'; stop: boolean } | { kind: 'refused' } | { kind: 'unanswered' };

export class LeaseWatch {
  private renewedAt: number;

  constructor(now: number, private readonly movable: boolean, private readonly leaseMs = TASK_LEASE_MS) {
    this.renewedAt = now;
  }

  /** Why the task must stop now (null: it may go on). */
  answer(a: HeartbeatAnswer, now: number): string | null {
    if (a.kind === 'renewed') {
      this.renewedAt = now;
      return a.stop ? 'the control plane asks the task to stop at a safe point' : null;
    }
    if (a.kind === 'refused') return 'the task is no longer leased by this node (the control plane took it back); stopping at a safe point';
    const silent = now - this.renewedAt;
    return this.movable && silent > this.leaseMs ? `lease not renewed for ${silent} ms (the control plane may hand the task to another node); stopping at a safe point` : null;
  }
}
