/**
 * Write fencing for the reconciler's cluster lease. Two control planes share
 * PostgreSQL; the one holding a cluster's lease drives its operation and
 * healing. A holder paused past its lease (SIGSTOP, a long GC, a stalled
 * host) may resume with a pass half done: it read the operation and tasks
 * before the pause and would save outdated steps or enqueue a task the new
 * holder already ran. So every write a worker makes on the lease's behalf
 * runs in a transaction whose first statement checks the lease's owner and
 * epoch (the fencing token, new at every take) and locks the cluster's row
 * until the transaction ends; a lease taken over since throws `LeaseLost`
 * and the transaction writes nothing. The worker then drops that cluster's
 * work (reconciler.ts) instead of failing.
 */
import type { Db } from '../db/tx';
import type { ClusterLease } from '../stores/cluster.store';

export class LeaseLost extends Error {
  constructor(readonly lease: ClusterLease) {
    super(`the reconcile lease of cluster ${lease.clusterId} (epoch ${lease.epoch}) was taken over by another worker; nothing was written`);
    this.name = 'LeaseLost';
  }
}

/** Runs `fn` in one transaction (or, without one, statement by statement on the pool: unit tests of single steps). */
export type Transaction = <T>(fn: (db: Db | undefined) => Promise<T>) => Promise<T>;

/**
 * The transaction every write of `lease`'s worker goes through: `holds`
 * (ClusterStore.holdsLease) runs first in it; false throws LeaseLost before
 * `fn` runs.
 */
export function fencedTransaction(
  lease: ClusterLease,
  holds: (lease: ClusterLease, db: Db | undefined) => Promise<boolean>,
  transaction?: Transaction,
): Transaction {
  return (fn) => {
    const run = async (db: Db | undefined) => {
      if (!(await holds(lease, db))) throw new LeaseLost(lease);
      return fn(db);
    };
    return transaction ? transaction(run) : run(undefined);
  };
}
