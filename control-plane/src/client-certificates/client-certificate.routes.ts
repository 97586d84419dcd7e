/**
 * Client certificates API: issue one (certificate and key in the answer,
 * once) and list those issued. Only a TLS cluster has a CA to sign them.
 */
import { randomUUID } from 'node:crypto';
import { Router } from 'express';
import { CLIENT_CERTIFICATE_VALIDITY_DAYS, type ClientCertificate, type ClientCertificateList, type ClientCertificateWithKey } from '@strata/api';
import { mountOperation } from '../http/operation-router';
import { AppError, notFound, unprocessable } from '../errors';
import type { ClusterRow, ClusterStore } from '../stores/cluster.store';
import type { SecretBox } from '../crypto/secret-box';
import { issueClientCertificate } from '../crypto/cluster-ca';
import { openSecrets } from '../services/cluster-secrets';
import type { ClientCertificateRow, ClientCertificateStore } from './client-certificate.store';

const BASE = '/v1';
const DAY_MS = 86_400_000;

const view = (r: ClientCertificateRow): ClientCertificate => ({
  id: r.id, name: r.name, serialNumber: r.serialNumber, createdAt: r.createdAt.toISOString(), expiresAt: r.expiresAt.toISOString(),
});

export function clientCertificateRoutes(d: { store: ClientCertificateStore; clusters: ClusterStore; box: SecretBox }): Router {
  const r = Router();

  const clusterOf = async (id: string, organizationId: string): Promise<ClusterRow> => {
    const c = await d.clusters.get(id, organizationId);
    if (!c) throw notFound('Cluster');
    return c;
  };

  // The cluster is looked up before the body is read: another organization's cluster is a 404 whatever the body.
  mountOperation(r, BASE, 'createClientCertificate', async ({ req, res, id, body }) => {
    const c = await clusterOf(id, req.principal!.organizationId);
    if (c.status.phase === 'deleting' || c.status.phase === 'failed') {
      throw new AppError(409, 'invalid_state', 'Conflict', `Cluster ${c.name} is ${c.status.phase}: it issues no certificates.`);
    }
    const ca = openSecrets(d.box, c.secretsEnc).tlsCa;
    if (c.spec.tls !== 'required' || !ca) {
      throw unprocessable('tls_off', 'TLS is off', `Cluster ${c.name} does not use TLS: it has no CA to sign client certificates.`,
        [{ field: 'tls', message: 'client certificates need a cluster created with tls required' }]);
    }
    const days = body.validityDays ?? CLIENT_CERTIFICATE_VALIDITY_DAYS.default;
    const issued = await issueClientCertificate(ca, body.name, { validityMs: days * DAY_MS });
    const row = await d.store.insert({ id: randomUUID(), clusterId: c.id, name: body.name, serialNumber: issued.serialNumber, expiresAt: issued.expiresAt });
    res.set('Cache-Control', 'no-store');
    const out: ClientCertificateWithKey = { clientCertificate: view(row), certificate: issued.certificate, privateKey: issued.privateKey };
    return out;
  });

  mountOperation(r, BASE, 'listClientCertificates', async ({ req, id }) => {
    const c = await clusterOf(id, req.principal!.organizationId);
    const out: ClientCertificateList = { items: (await d.store.list(c.id)).map(view) };
    return out;
  });

  return r;
}
