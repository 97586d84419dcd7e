/** Step ids and titles of each operation kind, in order, with their share of progress. */
export const CREATE_STEPS = [
  { name: 'plan', title: 'Plan placement of primaries and replicas', weight: 0.05 },
  { name: 'start-instances', title: 'Start redis-server instances on the nodes', weight: 0.45 },
  { name: 'form-cluster', title: 'Form the cluster: meet nodes, assign slots, attach replicas', weight: 0.35 },
  { name: 'verify', title: 'Wait until every node agrees and replicas are in sync', weight: 0.15 },
] as const;

/** A restore into another layout than the backup's: the keys are moved in once the cluster is formed, before it is ready. */
export const CREATE_STEPS_LOADING_KEYS = [
  { name: 'plan', title: 'Plan placement of primaries and replicas', weight: 0.05 },
  { name: 'start-instances', title: 'Start redis-server instances on the nodes', weight: 0.2 },
  { name: 'form-cluster', title: 'Form the cluster: meet nodes, assign slots, attach replicas', weight: 0.15 },
  { name: 'load-data', title: "Load the backup: each file into a temporary engine, its keys moved by slot into the new cluster", weight: 0.5 },
  { name: 'verify', title: 'Wait until every node agrees and replicas are in sync', weight: 0.1 },
] as const;

export const DELETE_STEPS = [
  { name: 'stop-instances', title: 'Stop instances and remove their data', weight: 0.9 },
  { name: 'remove-records', title: 'Remove the cluster record', weight: 0.1 },
] as const;

export type StepDef = { readonly name: string; readonly title: string; readonly weight: number };
