/**
 * Database users: every running instance holds the cluster's users as
 * desired now (a rotated-out password only until its grace period ends).
 * Asks the pure planner which instances lag and has the applier send each a
 * `sync-users` task. Instances that start later (healing, resharding, spares,
 * restores) get the users from the config their agent writes at start.
 */
import { databaseUsersDigest, planUserSync, type ClusterAction } from '@strata/engine';
import type { ClusterContext } from './cluster-context';
import { applyAction } from './apply-actions';
import { desiredAcls, nextExpiry } from '../database-users/database-user.store';

export type SyncUsersAction = Extract<ClusterAction, { kind: 'sync-users' }>;

/** What the users need: the instances to sync, and when a grace period ends (a pass is needed then). */
export function planUsersFor(ctx: ClusterContext, now = Date.now()): { actions: SyncUsersAction[]; expiresAt: number | null } {
  const users = ctx.databaseUsers?.users ?? [];
  const desiredDigest = databaseUsersDigest(desiredAcls(users, now));
  const actions = planUserSync({
    desiredDigest, generation: ctx.databaseUsers?.generation ?? 0,
    instances: ctx.instances.map((i) => {
      const o = ctx.observe(i.id);
      return { id: i.id, running: o?.state === 'running', usersDigest: o?.usersDigest ?? null };
    }),
  });
  return { actions, expiresAt: nextExpiry(users, now) };
}

/** Plans and applies. `pending`: users still to sync or a grace period still running (the cluster is not settled). */
export async function syncDatabaseUsers(ctx: ClusterContext, now = Date.now()): Promise<{ pending: boolean }> {
  const plan = planUsersFor(ctx, now);
  for (const a of plan.actions) await applyAction(ctx, a);
  return { pending: plan.actions.length > 0 || plan.expiresAt !== null };
}
