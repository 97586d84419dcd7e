/** Backup API: start one of a cluster, list a cluster's, get one. */
import { Router } from 'express';
import type { BackupList } from '@strata/api';
import { parseUuid } from '../http/validate';
import { mountOperation } from '../http/operation-router';
import { notFound } from '../errors';
import type { ClusterStore } from '../stores/cluster.store';
import type { BackupStore } from './backup.store';
import type { BackupService } from './backup.service';

const BASE = '/v1';

export function backupRoutes(d: { store: BackupStore; service: BackupService; clusters: ClusterStore }): Router {
  const r = Router();

  mountOperation(r, BASE, 'startBackup', async ({ req, res, body }) => {
    const clusterId = parseUuid(req.params.id, 'Cluster');
    const b = await d.service.start(req.principal!.organizationId, clusterId, body);
    res.location(`/v1/backups/${b.id}`);
    return { backup: await d.service.view(b) };
  });

  mountOperation(r, BASE, 'listClusterBackups', async ({ req }) => {
    const clusterId = parseUuid(req.params.id, 'Cluster');
    const orgId = req.principal!.organizationId;
    const rows = await d.store.listForCluster(clusterId, orgId);
    // A deleted cluster's backups are still listed; an unknown cluster without any is a 404.
    if (!rows.length && !(await d.clusters.get(clusterId, orgId))) throw notFound('Cluster');
    const out: BackupList = { items: await Promise.all(rows.map((b) => d.service.view(b))) };
    return out;
  });

  mountOperation(r, BASE, 'getBackup', async ({ req }) => {
    const b = await d.store.get(parseUuid(req.params.id, 'Backup'), req.principal!.organizationId);
    if (!b) throw notFound('Backup');
    return { backup: await d.service.view(b) };
  });

  return r;
}
