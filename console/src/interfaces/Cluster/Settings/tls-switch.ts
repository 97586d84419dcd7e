import type { Cluster, TlsMode } from '@strata/api';

export const TLS_OPTIONS: Record<TlsMode, { title: string; description: string }> = {
  off: { title: 'Off', description: 'Plain text only.' },
  preferred: { title: 'Preferred (both)', description: 'Plain text and TLS both served while applications move: the protocol served now keeps its ports, the other is served on a second port per instance.' },
  required: { title: 'Required', description: 'TLS only (rediss://, with the cluster\'s CA); plain text gets nothing.' },
};

/** Why TLS cannot be switched in place on this cluster (null: it can). */
export function tlsSwitchBlocked(cluster: Cluster): string | null {
  if (cluster.spec.engineVersion === '7') {
    return 'Turning TLS on or off in place needs the valkey-8 engine: Redis 7.0 announces one client port per instance, so while both protocols were served, '
      + 'cluster clients of one would be sent to the other\'s port. Create a cluster with the TLS you want and restore a backup into it.';
  }
  return null;
}

/** What a switch from the cluster's TLS to `to` does, in the order it happens (the confirm dialog's list). */
export function tlsSwitchImpact(from: TlsMode, to: TlsMode): string[] {
  const out: string[] = [];
  if (from === 'off') out.push('Every instance gets a certificate from the cluster\'s CA and starts serving TLS on a second port beside plain text; the connection details (Overview) then show a rediss:// URI and the CA.');
  if (from === 'required') out.push('Every instance starts serving plain text on a second port beside TLS; the connection details (Overview) then show a redis:// URI.');
  if (to === 'preferred') out.push('Both protocols stay served: move your applications to the new URI at your pace, then switch again to close the old protocol.');
  if (to === 'required') out.push('Plain text then closes on every instance: clients still on redis:// are disconnected and refused. Move them to the TLS URI first (Preferred).');
  if (to === 'off') out.push('TLS then closes on every instance: clients still on rediss:// are disconnected and refused. Move them to the plain-text URI first (Preferred).');
  out.push('No restart: replicas first, then primaries; replication follows with a partial resynchronisation and no acknowledged write is lost.');
  return out;
}
