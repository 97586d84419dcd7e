/**
 * Rules a cluster spec must keep whatever the nodes hold: pure, with no
 * dependency, so the console asks the same function the server does.
 */
import type { Fencing, TlsClientAuth } from './domain';

/**
 * Why a spec cannot run, naming the field at fault (null: it can): the one
 * rule a create and a change both ask. Fencing refuses every write of a
 * primary without a replica, so it needs one per shard. `changed`: the
 * fields a change touches (the one it names; a create names fencing).
 * Client certificates are a TLS setting: they need `tls: required`.
 */
export function specProblem(
  spec: { replicasPerShard: number; fencing?: Fencing; tls?: 'off' | 'preferred' | 'required'; tlsClientAuth?: TlsClientAuth },
  changed?: readonly string[],
): { field: 'fencing' | 'replicasPerShard' | 'tlsClientAuth'; reason: string } | null {
  if ((spec.tlsClientAuth ?? 'none') !== 'none' && spec.tls !== 'required') {
    return { field: 'tlsClientAuth', reason: 'client certificates need TLS: set tls to required' };
  }
  if ((spec.fencing ?? 'off') === 'on' && spec.replicasPerShard < 1) {
    const field = !changed || changed.includes('fencing') ? 'fencing' : 'replicasPerShard';
    return { field, reason: 'write fencing needs at least one replica per shard: a fenced primary without a replica refuses every write' };
  }
  return null;
}
