/**
 * Rules a cluster spec must keep whatever the nodes hold: pure, with no
 * dependency, so the console asks the same function the server does.
 */
import type { Fencing } from './domain';

/**
 * Why a spec cannot run, naming the field at fault (null: it can): the one
 * rule a create and a change both ask. Fencing refuses every write of a
 * primary without a replica, so it needs one per shard. `changed`: the
 * fields a change touches (the one it names; a create names fencing).
 */
export function specProblem(spec: { replicasPerShard: number; fencing?: Fencing }, changed?: readonly string[]): { field: 'fencing' | 'replicasPerShard'; reason: string } | null {
  if ((spec.fencing ?? 'off') === 'on' && spec.replicasPerShard < 1) {
    const field = !changed || changed.includes('fencing') ? 'fencing' : 'replicasPerShard';
    return { field, reason: 'write fencing needs at least one replica per shard: a fenced primary without a replica refuses every write' };
  }
  return null;
}
