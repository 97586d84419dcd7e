/**
 * Client certificates as recorded (table client_certificates): name, serial,
 * expiry, the one-off issuer the instances trust for it, and when it was
 * revoked; never the key.
 */
import type pg from 'pg';

export interface ClientCertificateRow {
  id: string;
  clusterId: string;
  name: string;
  serialNumber: string;
  createdAt: Date;
  expiresAt: Date;
  /** PEM of the issuer that signed it and nothing else; null: signed by the cluster's CA (not revocable). */
  issuerCertificate: string | null;
  revokedAt: Date | null;
}

const toRow = (r: any): ClientCertificateRow => ({
  id: r.id, clusterId: r.cluster_id, name: r.name, serialNumber: r.serial_number, createdAt: r.created_at, expiresAt: r.expires_at,
  issuerCertificate: r.issuer_certificate ?? null, revokedAt: r.revoked_at ?? null,
});

export class ClientCertificateStore {
  constructor(private readonly pool: pg.Pool) {}

  async insert(row: Omit<ClientCertificateRow, 'createdAt' | 'revokedAt'>): Promise<ClientCertificateRow> {
    const r = await this.pool.query(
      'INSERT INTO client_certificates (id, cluster_id, name, serial_number, expires_at, issuer_certificate) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *',
      [row.id, row.clusterId, row.name, row.serialNumber, row.expiresAt, row.issuerCertificate],
    );
    return toRow(r.rows[0]);
  }

  /** Oldest first, revoked ones included. */
  async list(clusterId: string): Promise<ClientCertificateRow[]> {
    const r = await this.pool.query('SELECT * FROM client_certificates WHERE cluster_id = $1 ORDER BY created_at, id', [clusterId]);
    return r.rows.map(toRow);
  }

  async get(clusterId: string, id: string): Promise<ClientCertificateRow | null> {
    const r = await this.pool.query('SELECT * FROM client_certificates WHERE cluster_id = $1 AND id = $2', [clusterId, id]);
    return r.rows[0] ? toRow(r.rows[0]) : null;
  }

  /** Marks it revoked (a second call keeps the first time); null: no such certificate. */
  async revoke(clusterId: string, id: string): Promise<ClientCertificateRow | null> {
    const r = await this.pool.query(
      'UPDATE client_certificates SET revoked_at = COALESCE(revoked_at, now()) WHERE cluster_id = $1 AND id = $2 RETURNING *', [clusterId, id],
    );
    return r.rows[0] ? toRow(r.rows[0]) : null;
  }

  /** The issuers the cluster's instances trust at `now`: of its certificates neither revoked nor expired, oldest first. */
  async trustedIssuers(clusterId: string, now = new Date()): Promise<string[]> {
    const r = await this.pool.query(
      `SELECT issuer_certificate FROM client_certificates
        WHERE cluster_id = $1 AND issuer_certificate IS NOT NULL AND revoked_at IS NULL AND expires_at > $2 ORDER BY created_at, id`,
      [clusterId, now],
    );
    return r.rows.map((x) => x.issuer_certificate as string);
  }
}
