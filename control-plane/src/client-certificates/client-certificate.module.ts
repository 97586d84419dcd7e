/** Wires the client certificate store and routes (called from main.ts). */
import type pg from 'pg';
import type { ClusterStore } from '../stores/cluster.store';
import type { EventStore } from '../stores/event.store';
import type { ObservedState } from '../observed/observed-state';
import type { SecretBox } from '../crypto/secret-box';
import { ClientCertificateStore } from './client-certificate.store';
import { clientCertificateRoutes } from './client-certificate.routes';

export function createClientCertificateModule(d: {
  pool: pg.Pool; clusters: ClusterStore; box: SecretBox; observed: ObservedState; events: EventStore;
  /** Asks the reconciler for a pass over the cluster (its client trust changed). */
  requestPass: (clusterId: string) => Promise<void>;
}) {
  const store = new ClientCertificateStore(d.pool);
  return { store, router: clientCertificateRoutes({ ...d, store }) };
}
