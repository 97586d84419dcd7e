/**
 * Where an organization's backups go, and the one place that turns a
 * storage ref into an open storage: S3 refs name a sealed access key pair
 * (table backup_storage_credentials, never changed once written), opened
 * here for the control plane's own reads and writes, and for agents' tasks
 * on their way out (task-broker.ts).
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { BackupStorage as BackupStorageView, SetBackupStorageRequest, StorageCredentials, StorageRef } from '@strata/api';
import { openStorage, type BackupStorage } from '@strata/engine/backup';
import type { SecretBox } from '../crypto/secret-box';

export class BackupStorageStore {
  constructor(private readonly d: { pool: pg.Pool; box: SecretBox; local: StorageRef }) {}

  /** The ref new backups of an organization are written to: its S3 storage, else the local directory. */
  async refFor(organizationId: string): Promise<StorageRef> {
    const r = await this.d.pool.query('SELECT ref FROM backup_storage_configs WHERE organization_id = $1', [organizationId]);
    return (r.rows[0]?.ref as StorageRef | undefined) ?? this.d.local;
  }

  async view(organizationId: string): Promise<BackupStorageView> {
    const r = await this.d.pool.query('SELECT ref, access_key_hint, updated_at FROM backup_storage_configs WHERE organization_id = $1', [organizationId]);
    const row = r.rows[0];
    if (!row) return { kind: 'local', endpoint: null, bucket: null, region: null, prefix: null, accessKeyId: null, updatedAt: null };
    const ref = row.ref as Extract<StorageRef, { kind: 's3' }>;
    return {
      kind: 's3', endpoint: ref.endpoint, bucket: ref.bucket, region: ref.region, prefix: ref.prefix, accessKeyId: row.access_key_hint, updatedAt: row.updated_at.toISOString(),
    };
  }

  /** A ref for a configuration that is not stored yet (to check it first), with its credentials. */
  draft(organizationId: string, req: SetBackupStorageRequest): { ref: Extract<StorageRef, { kind: 's3' }>; credentials: StorageCredentials } {
    void organizationId;
    return {
      ref: { kind: 's3', endpoint: req.endpoint.replace(/\/+$/, ''), bucket: req.bucket, region: req.region, prefix: req.prefix, credentialsId: randomUUID() },
      credentials: { accessKeyId: req.accessKeyId, secretAccessKey: req.secretAccessKey },
    };
  }

  async save(organizationId: string, ref: Extract<StorageRef, { kind: 's3' }>, credentials: StorageCredentials): Promise<void> {
    const client = await this.d.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('INSERT INTO backup_storage_credentials (id, organization_id, sealed) VALUES ($1, $2, $3)', [
        ref.credentialsId, organizationId, this.d.box.seal(JSON.stringify(credentials)),
      ]);
      await client.query(
        `INSERT INTO backup_storage_configs (organization_id, ref, access_key_hint) VALUES ($1, $2, $3)
         ON CONFLICT (organization_id) DO UPDATE SET ref = excluded.ref, access_key_hint = excluded.access_key_hint, updated_at = now()`,
        [organizationId, JSON.stringify(ref), `…${credentials.accessKeyId.slice(-4)}`],
      );
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK');
      throw err;
    } finally {
      client.release();
    }
  }

  /** Back to the local directory (existing backups keep their storage). */
  async clear(organizationId: string): Promise<void> {
    await this.d.pool.query('DELETE FROM backup_storage_configs WHERE organization_id = $1', [organizationId]);
  }

  /** The access key pair an S3 ref names; undefined for the local directory. */
  async credentials(ref: StorageRef): Promise<StorageCredentials | undefined> {
    if (ref.kind !== 's3') return undefined;
    const r = await this.d.pool.query('SELECT sealed FROM backup_storage_credentials WHERE id = $1', [ref.credentialsId]);
    if (!r.rows[0]) throw new Error(`the credentials of storage s3://${ref.bucket} are gone`);
    return JSON.parse(this.d.box.open(r.rows[0].sealed)) as StorageCredentials;
  }

  async open(ref: StorageRef): Promise<BackupStorage> {
    return openStorage(ref, await this.credentials(ref));
  }
}
