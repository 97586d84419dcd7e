/**
 * Client certificates API: issue one (certificate and key in the answer,
 * once), list those issued, revoke one. Only a TLS cluster has a CA (and
 * instances that verify them). Issuing and revoking change what the
 * instances trust, so both ask the reconciler for a pass (a `sync-trust`
 * per instance).
 */
import { randomUUID } from 'node:crypto';
import { Router } from 'express';
import { CLIENT_CERTIFICATE_VALIDITY_DAYS, type ClientCertificate, type ClientCertificateList, type ClientCertificateWithKey } from '@strata/api';
import { clientTrustDigest } from '@strata/engine';
import { mountOperation } from '../http/operation-router';
import { AppError, notFound, unprocessable } from '../errors';
import type { ClusterRow, ClusterStore } from '../stores/cluster.store';
import type { EventStore } from '../stores/event.store';
import type { ObservedState } from '../observed/observed-state';
import type { SecretBox } from '../crypto/secret-box';
import { issueRevocableClientCertificate } from '../crypto/cluster-ca';
import { desiredClientTrust, openSecrets } from '../services/cluster-secrets';
import type { ClientCertificateRow, ClientCertificateStore } from './client-certificate.store';
import { trustApplied } from './trust-applied';

const BASE = '/v1';
const DAY_MS = 86_400_000;

export function clientCertificateRoutes(d: {
  store: ClientCertificateStore; clusters: ClusterStore; box: SecretBox; observed: ObservedState; events: EventStore;
  requestPass: (clusterId: string) => Promise<void>;
}): Router {
  const r = Router();

  const clusterOf = async (id: string, organizationId: string): Promise<ClusterRow> => {
    const c = await d.clusters.get(id, organizationId);
    if (!c) throw notFound('Cluster');
    return c;
  };

  const changeable = (c: ClusterRow, what: string) => {
    if (c.status.phase === 'deleting' || c.status.phase === 'failed') {
      throw new AppError(409, 'invalid_state', 'Conflict', `Cluster ${c.name} is ${c.status.phase}: it ${what}.`);
    }
  };

  /** Every running instance loaded the cluster's client trust as it is now (a plain-text cluster has none to load). */
  const applied = async (c: ClusterRow): Promise<boolean> => {
    const bundle = desiredClientTrust(openSecrets(d.box, c.secretsEnc), await d.store.trustedIssuers(c.id));
    if (bundle === null) return true;
    const digest = clientTrustDigest(bundle);
    return trustApplied(await d.clusters.instances(c.id), (id, nodeId) => d.observed.instance(id, nodeId), digest);
  };

  const view = (row: ClientCertificateRow, isApplied: boolean): ClientCertificate => ({
    id: row.id, name: row.name, serialNumber: row.serialNumber, createdAt: row.createdAt.toISOString(), expiresAt: row.expiresAt.toISOString(),
    revokedAt: row.revokedAt?.toISOString() ?? null, revocable: row.issuerCertificate !== null, applied: isApplied,
  });

  // The cluster is looked up before the body is read: another organization's cluster is a 404 whatever the body.
  mountOperation(r, BASE, 'createClientCertificate', async ({ req, res, id, body }) => {
    const c = await clusterOf(id, req.principal!.organizationId);
    changeable(c, 'issues no certificates');
    const ca = openSecrets(d.box, c.secretsEnc).tlsCa;
    if (c.spec.tls !== 'required' || !ca) {
      throw unprocessable('tls_off', 'TLS is off', `Cluster ${c.name} does not use TLS: it has no CA to sign client certificates.`,
        [{ field: 'tls', message: 'client certificates need a cluster created with tls required' }]);
    }
    const days = body.validityDays ?? CLIENT_CERTIFICATE_VALIDITY_DAYS.default;
    const issued = await issueRevocableClientCertificate(ca, body.name, { validityMs: days * DAY_MS });
    const row = await d.store.insert({
      id: randomUUID(), clusterId: c.id, name: body.name, serialNumber: issued.serialNumber, expiresAt: issued.expiresAt, issuerCertificate: issued.issuerCertificate,
    });
    await d.requestPass(c.id);
    res.set('Cache-Control', 'no-store');
    const out: ClientCertificateWithKey = { clientCertificate: view(row, false), certificate: issued.certificate, privateKey: issued.privateKey };
    return out;
  });

  mountOperation(r, BASE, 'listClientCertificates', async ({ req, id }) => {
    const c = await clusterOf(id, req.principal!.organizationId);
    const isApplied = await applied(c);
    const out: ClientCertificateList = { items: (await d.store.list(c.id)).map((row) => view(row, isApplied)) };
    return out;
  });

  mountOperation(r, BASE, 'revokeClientCertificate', async ({ req, id }) => {
    const c = await clusterOf(id, req.principal!.organizationId);
    const certificateId = typeof req.params.certificateId === 'string' ? req.params.certificateId : '';
    const found = /^[0-9a-f-]{36}$/i.test(certificateId) ? await d.store.get(c.id, certificateId) : null;
    if (!found) throw notFound('Client certificate');
    if (!found.issuerCertificate) {
      throw new AppError(409, 'not_revocable', 'Conflict',
        `Client certificate ${found.name} was signed by the cluster's CA itself: it cannot be revoked and stays valid until ${found.expiresAt.toISOString()}.`);
    }
    if (!found.revokedAt) changeable(c, 'cannot change its client certificates');
    const row = found.revokedAt ? found : (await d.store.revoke(c.id, found.id))!;
    // Recorded once (its dedupe key), also when a call that revoked it did not get to record it: a second call does.
    await d.events.record(c, {
      type: 'client-certificate-revoked', certificateId: row.id, name: row.name, serialNumber: row.serialNumber,
      message: `Client certificate ${row.name} (serial ${row.serialNumber}) revoked: every instance refuses it at the TLS handshake once it has reloaded its trust (no restart); open connections stay.`,
    }, `client-certificate-revoked:${row.id}`);
    if (found.revokedAt) {
      const isApplied = await applied(c);
      // A call that revoked it may have died before asking for a pass (or asked another control plane): ask again.
      if (!isApplied) await d.requestPass(c.id);
      return view(row, isApplied);
    }
    await d.requestPass(c.id);
    return view(row, false);
  });

  return r;
}
