import type { ClusterPhase, TopologyInstance } from '@strata/api';

export interface ShownRole {
  /** One word per instance: Primary, Replica, Down or Starting. */
  label: 'Primary' | 'Replica' | 'Down' | 'Starting';
  tone: 'info' | 'neutral' | 'danger' | 'warning';
  /** A plain sentence under the row, when there is something to say. */
  note: string | null;
}

/**
 * The single role a console row shows for an instance. A stopped instance
 * is "Down" (not a second "Primary" beside the replica that took over); one
 * starting is "Starting"; a running one shows the role it reports itself
 * (the recorded role lags a failover by a moment). A preferred primary now
 * serving as a replica says that Strata moves it back.
 */
export function shownRole(i: TopologyInstance, phase: ClusterPhase): ShownRole {
  const recorded = i.role === 'primary' ? 'Primary' : 'Replica';
  if (phase === 'provisioning') return { label: recorded, tone: i.role === 'primary' ? 'info' : 'neutral', note: null };
  if (i.health === 'down') {
    return { label: 'Down', tone: 'danger', note: i.role === 'primary' ? 'was the primary; stopped. Its replica takes over, then Strata restarts it as a replica.' : 'stopped; Strata restarts it.' };
  }
  if (i.health === 'starting' || i.health === 'unknown') {
    const note = i.health === 'unknown' ? 'its node is not reporting.' : i.role === 'primary' && i.observedRole !== 'primary' ? 'restarting; it rejoins as a replica.' : 'starting and joining the cluster.';
    return { label: 'Starting', tone: 'warning', note };
  }
  const role = (i.observedRole ?? i.role) === 'primary' ? 'Primary' : 'Replica';
  const note = role === 'Replica' && i.preferredRole === 'primary' ? 'placed as primary; Strata moves it back once the cluster is stable' : null;
  return { label: role, tone: role === 'Primary' ? 'info' : 'neutral', note };
}
