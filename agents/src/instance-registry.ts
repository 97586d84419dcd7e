import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { EngineCredentials, InstanceSpec } from '@strata/api';

/** What this node is asked to run, persisted so a restarted agent knows it. */
export interface InstanceRecord {
  spec: InstanceSpec;
  credentials: EngineCredentials;
  /** The role the instance last reported: a crashed former primary waits for the control plane before restarting. */
  lastRole?: 'primary' | 'replica';
  /** Digest of the database users the engine was last given (at its start, or by sync-users). */
  usersDigest?: string;
  /** When the certificate the engine serves expires (ms epoch): the one in its directory when it started or last reloaded its tls-* files. */
  certificateExpiresAt?: number;
  /** Digest of the CA file the engine loaded (its client trust) when it started or last reloaded its tls-* files. */
  trustDigest?: string;
}

export class InstanceRegistry {
  private readonly file: string;
  private readonly records = new Map<string, InstanceRecord>();

  constructor(readonly dataDir: string) {
    this.file = path.join(dataDir, 'instances.json');
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    if (existsSync(this.file)) {
      for (const r of JSON.parse(readFileSync(this.file, 'utf8')) as InstanceRecord[]) this.records.set(r.spec.instanceId, r);
    }
  }

  instanceDir(instanceId: string): string {
    return path.join(this.dataDir, 'instances', instanceId);
  }

  all(): InstanceRecord[] {
    return [...this.records.values()];
  }

  get(instanceId: string): InstanceRecord | undefined {
    return this.records.get(instanceId);
  }

  put(record: InstanceRecord): void {
    const prev = this.records.get(record.spec.instanceId);
    this.records.set(record.spec.instanceId, { lastRole: prev?.lastRole, usersDigest: prev?.usersDigest, certificateExpiresAt: prev?.certificateExpiresAt, trustDigest: prev?.trustDigest, ...record });
    this.save();
  }

  /** Remembers the role an instance last reported (written only when it changes). */
  setLastRole(instanceId: string, role: 'primary' | 'replica'): void {
    const r = this.records.get(instanceId);
    if (!r || r.lastRole === role) return;
    r.lastRole = role;
    this.save();
  }

  delete(instanceId: string): void {
    this.records.delete(instanceId);
    this.save();
  }

  private save(): void {
    writeFileSync(this.file + '.tmp', JSON.stringify(this.all(), null, 2), { mode: 0o600 });
    renameSync(this.file + '.tmp', this.file);
  }
}
