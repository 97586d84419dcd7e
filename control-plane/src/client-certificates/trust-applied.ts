/**
 * Whether a cluster's client trust (which issuers its instances accept) has
 * reached every instance that may serve: what `applied` says of a client
 * certificate. An instance whose node does not report (silent: its engine
 * may well be serving) has not applied it; one its node reports stopped
 * serves nobody.
 */
export function trustApplied(
  instances: readonly { id: string; nodeId: string }[],
  observe: (instanceId: string, nodeId: string) => { state: string; trustDigest?: string | null } | null,
  digest: string,
): boolean {
  return instances.every((i) => {
    const o = observe(i.id, i.nodeId);
    return o !== null && (o.state !== 'running' || o.trustDigest === digest);
  });
}
