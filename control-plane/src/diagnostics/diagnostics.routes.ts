/** Diagnostics API: the merged slow log and its reset, key scans (big and hot keys), the per-shard heat view. */
import { Router } from 'express';
import type { KeyScanList } from '@strata/api';
import { parseUuid } from '../http/validate';
import { mountOperation } from '../http/operation-router';
import type { DiagnosticsService } from './diagnostics.service';

const BASE = '/v1';

export function diagnosticsRoutes(d: { service: DiagnosticsService }): Router {
  const r = Router();
  const cluster = (id: string | string[] | undefined) => parseUuid(id, 'Cluster');

  mountOperation(r, BASE, 'getSlowLog', async ({ req, query }) =>
    d.service.slowLog(req.principal!.organizationId, cluster(req.params.id), query.limit));

  mountOperation(r, BASE, 'resetSlowLog', async ({ req }) => d.service.resetSlowLog(req.principal!.organizationId, cluster(req.params.id)));

  mountOperation(r, BASE, 'startKeyScan', async ({ req, res, body }) => {
    const clusterId = cluster(req.params.id);
    const scan = await d.service.startKeyScan(req.principal!.organizationId, clusterId, body);
    res.location(`/v1/clusters/${clusterId}/diagnostics/key-scans/${scan.id}`);
    return scan;
  });

  mountOperation(r, BASE, 'listKeyScans', async ({ req }) => {
    const out: KeyScanList = { items: await d.service.keyScans(req.principal!.organizationId, cluster(req.params.id)) };
    return out;
  });

  mountOperation(r, BASE, 'getKeyScan', async ({ req }) =>
    d.service.keyScan(req.principal!.organizationId, cluster(req.params.id), parseUuid(req.params.scanId, 'Key scan')));

  mountOperation(r, BASE, 'getHeat', async ({ req, query }) => d.service.heat(req.principal!.organizationId, cluster(req.params.id), query.window));

  return r;
}
