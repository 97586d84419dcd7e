/** Database users API: add, list, rotate a password, delete. Every change asks the reconciler for a pass. */
import { randomBytes } from 'node:crypto';
import { Router } from 'express';
import { DEFAULT_ROTATION_GRACE_SECONDS, type DatabaseUser, type DatabaseUserList, type DatabaseUserWithPassword } from '@strata/api';
import { DATABASE_USER_NAME, databaseUsersDigest, isReservedDatabaseUserName, NO_USERS_DIGEST, sha256Hex } from '@strata/engine';
import { mountOperation } from '../http/operation-router';
import { AppError, conflict, notFound, validationFailed } from '../errors';
import type { ClusterRow, ClusterStore } from '../stores/cluster.store';
import type { ObservedState } from '../observed/observed-state';
import type { SecretBox } from '../crypto/secret-box';
import { openSecrets } from '../services/cluster-secrets';
import { desiredAcls, type DatabaseUserRow, type DatabaseUserStore } from './database-user.store';

const BASE = '/v1';

/** 32 random bytes as hex: 64 characters. */
const newPassword = () => randomBytes(32).toString('hex');

export function databaseUserRoutes(d: {
  store: DatabaseUserStore; clusters: ClusterStore; observed: ObservedState; box: SecretBox; requestPass: (clusterId: string) => Promise<void>;
}): Router {
  const r = Router();

  /** The cluster (404 for another organization's), refusing changes while it is deleted. */
  const clusterOf = async (id: string, organizationId: string, change: boolean): Promise<ClusterRow> => {
    const c = await d.clusters.get(id, organizationId);
    if (!c) throw notFound('Cluster');
    if (change && (c.status.phase === 'deleting' || c.status.phase === 'failed')) {
      throw new AppError(409, 'invalid_state', 'Conflict', `Cluster ${c.name} is ${c.status.phase}: its users cannot change.`);
    }
    return c;
  };

  /** Every running instance has the cluster's users as they are now. */
  const applied = async (c: ClusterRow, rows: DatabaseUserRow[]): Promise<boolean> => {
    const digest = databaseUsersDigest(desiredAcls(rows));
    const instances = await d.clusters.instances(c.id);
    return instances.every((i) => {
      const o = d.observed.instance(i.id, i.nodeId);
      return !o || o.state !== 'running' || (o.usersDigest ?? NO_USERS_DIGEST) === digest;
    });
  };

  const view = (u: DatabaseUserRow, isApplied: boolean): DatabaseUser => ({
    name: u.name, preset: u.preset, keyPatterns: u.keyPatterns, channelPatterns: u.channelPatterns,
    createdAt: u.createdAt.toISOString(), passwordRotatedAt: u.passwordRotatedAt?.toISOString() ?? null,
    previousPasswordExpiresAt: u.previousPasswordSha256 && u.previousExpiresAt && u.previousExpiresAt.getTime() > Date.now() ? u.previousExpiresAt.toISOString() : null,
    applied: isApplied,
  });

  const userName = (raw: string | string[] | undefined): string => {
    const name = typeof raw === 'string' ? raw : '';
    if (!DATABASE_USER_NAME.test(name)) throw notFound('Database user');
    return name;
  };

  // The cluster is looked up before the body is read: another organization's cluster is a 404 whatever the body.
  mountOperation(r, BASE, 'createDatabaseUser', async (input) => {
    const { req, res } = input;
    const c = await clusterOf(input.id, req.principal!.organizationId, true);
    const body = input.body;
    const secrets = openSecrets(d.box, c.secretsEnc);
    if (isReservedDatabaseUserName(body.name, [secrets.customerUser, secrets.internalUser])) {
      throw validationFailed([{ field: 'name', message: `"${body.name}" is reserved by Strata (the cluster's own users, "default" and names starting with "strata")` }]);
    }
    const password = body.password ?? newPassword();
    const row = await d.store.insert({
      clusterId: c.id, name: body.name, preset: body.preset, keyPatterns: body.keyPatterns ?? [], channelPatterns: body.channelPatterns ?? [],
      passwordSha256: sha256Hex(password),
    });
    if (!row) throw conflict('name_taken', `Cluster ${c.name} already has a user named ${body.name}.`, [{ field: 'name', message: 'already exists on this cluster' }]);
    await d.requestPass(c.id);
    res.location(`/v1/clusters/${c.id}/users/${row.name}`);
    const out: DatabaseUserWithPassword = { user: view(row, false), password };
    return out;
  });

  mountOperation(r, BASE, 'listDatabaseUsers', async ({ req, id }) => {
    const c = await clusterOf(id, req.principal!.organizationId, false);
    const rows = await d.store.list(c.id);
    const isApplied = await applied(c, rows);
    const out: DatabaseUserList = { items: rows.map((u) => view(u, isApplied)) };
    return out;
  });

  mountOperation(r, BASE, 'rotateDatabaseUser', async (input) => {
    const { req } = input;
    const c = await clusterOf(input.id, req.principal!.organizationId, true);
    const name = userName(req.params.name);
    const body = input.body;
    const password = body.password ?? newPassword();
    const graceMs = (body.graceSeconds ?? DEFAULT_ROTATION_GRACE_SECONDS) * 1000;
    const row = await d.store.rotate(c.id, name, sha256Hex(password), new Date(Date.now() + graceMs));
    if (!row) throw notFound('Database user');
    await d.requestPass(c.id);
    const out: DatabaseUserWithPassword = { user: view(row, false), password };
    return out;
  });

  mountOperation(r, BASE, 'deleteDatabaseUser', async ({ req, id }) => {
    const c = await clusterOf(id, req.principal!.organizationId, true);
    const name = userName(req.params.name);
    if (!(await d.store.delete(c.id, name))) throw notFound('Database user');
    await d.requestPass(c.id);
  });

  return r;
}
