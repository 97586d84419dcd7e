/** Wires the database user store and routes (called from main.ts). */
import type pg from 'pg';
import type { ClusterStore } from '../stores/cluster.store';
import type { ObservedState } from '../observed/observed-state';
import type { SecretBox } from '../crypto/secret-box';
import { DatabaseUserStore } from './database-user.store';
import { databaseUserRoutes } from './database-user.routes';

export function createDatabaseUserModule(d: {
  pool: pg.Pool; clusters: ClusterStore; observed: ObservedState; box: SecretBox;
  /** Asks the reconciler for a pass over the cluster (its users changed). */
  requestPass: (clusterId: string) => Promise<void>;
}) {
  const store = new DatabaseUserStore(d.pool);
  return { store, router: databaseUserRoutes({ ...d, store }) };
}
