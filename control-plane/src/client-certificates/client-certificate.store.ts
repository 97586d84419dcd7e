/** Client certificates as recorded (table client_certificates): name, serial and expiry, never the key. */
import type pg from 'pg';

export interface ClientCertificateRow {
  id: string;
  clusterId: string;
  name: string;
  serialNumber: string;
  createdAt: Date;
  expiresAt: Date;
}

const toRow = (r: any): ClientCertificateRow => ({
  id: r.id, clusterId: r.cluster_id, name: r.name, serialNumber: r.serial_number, createdAt: r.created_at, expiresAt: r.expires_at,
});

export class ClientCertificateStore {
  constructor(private readonly pool: pg.Pool) {}

  async insert(row: Omit<ClientCertificateRow, 'createdAt'>): Promise<ClientCertificateRow> {
    const r = await this.pool.query(
      'INSERT INTO client_certificates (id, cluster_id, name, serial_number, expires_at) VALUES ($1, $2, $3, $4, $5) RETURNING *',
      [row.id, row.clusterId, row.name, row.serialNumber, row.expiresAt],
    );
    return toRow(r.rows[0]);
  }

  /** Oldest first. */
  async list(clusterId: string): Promise<ClientCertificateRow[]> {
    const r = await this.pool.query('SELECT * FROM client_certificates WHERE cluster_id = $1 ORDER BY created_at, id', [clusterId]);
    return r.rows.map(toRow);
  }
}
