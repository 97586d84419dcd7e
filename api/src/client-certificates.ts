/**
 * Client certificates of a TLS cluster (mTLS): issued by the cluster's CA
 * for applications that connect to a cluster requiring them. The private
 * key is in the answer once; Strata records the certificate's name, serial
 * and expiry, never the key. Each certificate is signed by a one-off issuer
 * of its own that the instances trust; revoking it drops that issuer from
 * their trust (Redis has no revocation list), so it is refused at the next
 * handshake and no other certificate changes.
 */
import { z, Id, Timestamp, safeString } from './common';

export const CLIENT_CERTIFICATE_VALIDITY_DAYS = { min: 1, max: 3650, default: 365 } as const;

export const CreateClientCertificateRequest = z
  .strictObject({
    name: safeString()
      .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, '1-64 letters, digits, "_", "." or "-", starting with a letter or digit (no spaces)')
      .describe("what the certificate is for (e.g. the application); its subject's common name"),
    validityDays: z.number().int().min(CLIENT_CERTIFICATE_VALIDITY_DAYS.min).max(CLIENT_CERTIFICATE_VALIDITY_DAYS.max).optional()
      .describe(`days it is valid (default ${CLIENT_CERTIFICATE_VALIDITY_DAYS.default}); never past the cluster's CA`),
  })
  .openapi('CreateClientCertificateRequest');
export type CreateClientCertificateRequest = z.infer<typeof CreateClientCertificateRequest>;

export const ClientCertificate = z
  .object({
    id: Id,
    name: z.string(),
    serialNumber: z.string().describe('hex, as openssl x509 -serial prints it'),
    createdAt: Timestamp,
    expiresAt: Timestamp,
    revokedAt: Timestamp.nullable().describe('when it was revoked (null: it was not); a revoked certificate is refused at the TLS handshake once applied'),
    revocable: z.boolean().describe('false: signed by the cluster\'s CA itself, so it stays valid until it expires (revoking it is refused with code not_revocable)'),
    applied: z.boolean().describe('every running instance trusts it (or, revoked, no longer does); a fresh certificate works once applied, within seconds'),
  })
  .openapi('ClientCertificate');
export type ClientCertificate = z.infer<typeof ClientCertificate>;

export const ClientCertificateWithKey = z
  .object({
    clientCertificate: ClientCertificate,
    certificate: z.string().describe('PEM of the certificate, signed by the cluster\'s CA (save as client.crt)'),
    privateKey: z.string().describe('PEM (PKCS #8) of its private key, shown once: Strata does not keep it (save as client.key)'),
  })
  .openapi('ClientCertificateWithKey');
export type ClientCertificateWithKey = z.infer<typeof ClientCertificateWithKey>;

export const ClientCertificateList = z.object({ items: z.array(ClientCertificate) }).openapi('ClientCertificateList');
export type ClientCertificateList = z.infer<typeof ClientCertificateList>;
