/** Backup API: start, list, get, cancel and delete backups; a cluster's schedule; the organization's storage. */
import { Router } from 'express';
import type { BackupList, BackupScheduleResponse } from '@strata/api';
import { S3Storage } from '@strata/engine/backup';
import { parseUuid } from '../http/validate';
import { dropUnreadBody } from '../http/unread-body';
import { mountOperation } from '../http/operation-router';
import { AppError, notFound, unprocessable } from '../errors';
import type { ClusterStore } from '../stores/cluster.store';
import type { BackupStore } from './backup.store';
import type { BackupService } from './backup.service';
import type { BackupUploads } from './backup-upload';
import type { BackupStorageStore } from './backup-storage.store';
import type { BackupScheduleStore } from './backup-schedule.store';
import { nextBackupAt } from './backup-schedule.planner';

const BASE = '/v1';
/** What is read and dropped of a refused upload's body before its connection is closed (dropUnreadBody). */
const DRAIN_MAX = 64 * 1024 * 1024;

export function backupRoutes(d: {
  store: BackupStore; service: BackupService; uploads: BackupUploads; clusters: ClusterStore; storage: BackupStorageStore; schedules: BackupScheduleStore; now: () => Date;
  /** A refused upload's connection is closed once its body sends no byte for this long. */
  uploadIdleTimeoutMs: number;
}): Router {
  const drop = { maxBytes: DRAIN_MAX, idleMs: d.uploadIdleTimeoutMs };
  const r = Router();

  mountOperation(r, BASE, 'startBackup', async ({ req, res, body }) => {
    const clusterId = parseUuid(req.params.id, 'Cluster');
    const b = await d.service.start(req.principal!.organizationId, clusterId, body);
    res.location(`/v1/backups/${b.id}`);
    return { backup: await d.service.view(b) };
  });

  mountOperation(r, BASE, 'importBackup', async ({ req, res, body }) => {
    const b = await d.service.importFrom(req.principal!.organizationId, body);
    res.location(`/v1/backups/${b.id}`);
    return { backup: await d.service.view(b) };
  });

  mountOperation(r, BASE, 'uploadBackup', async ({ req, res, query }) => {
    const { name } = query;
    if (!req.is('application/octet-stream')) {
      // Answered before the body is read: the client reads the 415 while the rest of the body is read and dropped (bounded).
      dropUnreadBody(req, drop);
      throw new AppError(415, 'unsupported_media_type', 'Unsupported media type', 'Send the RDB file as the raw body with Content-Type: application/octet-stream; nothing was stored.');
    }
    const length = req.headers['content-length'] !== undefined ? Number(req.headers['content-length']) : null;
    let b;
    try {
      b = await d.uploads.receive(req.principal!.organizationId, { name, body: req, length });
    } catch (err) {
      // Refused before the whole body arrived: the rest is read and dropped so that the client gets the answer
      // (closing a socket with unread data resets it, and the answer with it), bounded.
      dropUnreadBody(req, drop);
      throw err;
    }
    res.location(`/v1/backups/${b.id}`);
    return { backup: await d.service.view(b) };
  });

  mountOperation(r, BASE, 'listBackups', async ({ req, query }) => {
    const rows = await d.store.listForOrganization(req.principal!.organizationId, {
      status: query.status, trigger: query.trigger, clusterDeleted: query.clusterDeleted === undefined ? undefined : query.clusterDeleted === 'true',
    });
    const out: BackupList = { items: await Promise.all(rows.map((b) => d.service.view(b))) };
    return out;
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

  mountOperation(r, BASE, 'cancelBackup', async ({ req }) => {
    const b = await d.service.cancel(req.principal!.organizationId, parseUuid(req.params.id, 'Backup'));
    return { backup: await d.service.view(b) };
  });

  mountOperation(r, BASE, 'deleteBackup', async ({ req }) => {
    await d.service.delete(req.principal!.organizationId, parseUuid(req.params.id, 'Backup'));

  });

  const scheduleView = async (clusterId: string): Promise<BackupScheduleResponse> => {
    const s = await d.schedules.get(clusterId);
    return { schedule: s?.schedule ?? null, nextAt: s?.nextAt.toISOString() ?? null };
  };
  const ownCluster = async (req: { params: { id?: unknown }; principal?: { organizationId: string } }) => {
    const c = await d.clusters.get(parseUuid(req.params.id as string, 'Cluster'), req.principal!.organizationId);
    if (!c) throw notFound('Cluster');
    return c;
  };

  mountOperation(r, BASE, 'getBackupSchedule', async ({ req }) => scheduleView((await ownCluster(req)).id));

  mountOperation(r, BASE, 'setBackupSchedule', async ({ req, body }) => {
    const c = await ownCluster(req);
    await d.schedules.set(c.id, c.organizationId, body, nextBackupAt(body, d.now()));
    // Retention by age applies to every backup of the cluster, those taken before included.
    await d.store.setExpiry(c.id, body.keepDays);
    return scheduleView(c.id);
  });

  mountOperation(r, BASE, 'deleteBackupSchedule', async ({ req }) => {
    const c = await ownCluster(req);
    await d.schedules.remove(c.id);
    await d.store.setExpiry(c.id, null);

  });

  mountOperation(r, BASE, 'getBackupStorage', async ({ req }) => d.storage.view(req.principal!.organizationId));

  mountOperation(r, BASE, 'setBackupStorage', async ({ req, body }) => {
    const orgId = req.principal!.organizationId;
    const { ref, credentials } = d.storage.draft(orgId, body);
    const s3 = new S3Storage(ref, credentials);
    try {
      await s3.check();
    } catch (err) {
      const msg = (err as Error).message;
      const field = /credentials/.test(msg) ? 'accessKeyId' : /no bucket/.test(msg) ? 'bucket' : 'endpoint';
      throw unprocessable('storage_invalid', 'Backup storage cannot be used', `Nothing was changed: ${msg}.`, [{ field, message: msg.replace(/^storage: /, '') }]);
    } finally {
      s3.destroy();
    }
    await d.storage.save(orgId, ref, credentials);
    return d.storage.view(orgId);
  });

  mountOperation(r, BASE, 'deleteBackupStorage', async ({ req }) => {
    await d.storage.clear(req.principal!.organizationId);

  });

  return r;
}
