import { EventEmitter } from 'node:events';
import { AgentTask, TASK_LEASE_MS, TASKS_WITHOUT_CREDENTIALS, TaskPayload, TaskRequest, type DatabaseUserAcl, type StorageCredentials, type StorageRef } from '@strata/api';
import type { TaskRow, TaskStore } from '../stores/task.store';
import type { ClusterStore } from '../stores/cluster.store';
import type { SecretBox } from '../crypto/secret-box';
import type { NodeStore } from '../stores/node.store';
import { issueClientCertificate, issueInstanceCertificate } from '../crypto/cluster-ca';
import { engineCredentials, openSecrets } from './cluster-secrets';
import { DEFAULT_RENEW_BEFORE_DAYS, instanceCertValidityMs } from '@strata/engine';

/** The common name of the client certificate Strata's own connections present. */
export const STRATA_CLIENT_NAME = 'strata-internal';
const DEFAULT_VALIDITY_MS = instanceCertValidityMs(DEFAULT_RENEW_BEFORE_DAYS * 86_400_000);

/**
 * Hands tasks to agents: long-polls wait on an in-process signal (or a short
 * re-check interval, for tasks enqueued by another process) and secrets (with
 * the cluster's database users as they are now) are added to the payload only
 * on the way out.
 */
export class TaskBroker {
  private readonly signal = new EventEmitter().setMaxListeners(0);

  constructor(private readonly d: {
    tasks: TaskStore; clusters: ClusterStore; box: SecretBox; nodes: NodeStore;
    /** The cluster endpoint host (null: none): instance certificates name it beside the node's address. */
    endpointHost: string | null;
    /** How long an instance certificate issued now is valid (the renewal policy's, `instanceCertValidityMs`). */
    certificateValidityMs?: number;
    /** The cluster's database users as every instance must have them now (added to the credentials). */
    databaseUsers?: (clusterId: string) => Promise<DatabaseUserAcl[]>;
    /** The issuers of the cluster's live client certificates, which its instances trust beside the CA (added to the credentials). */
    clientTrustIssuers?: (clusterId: string) => Promise<string[]>;
    /** The access key pair of a backup's S3 storage (undefined for the local directory). */
    storageCredentials?: (ref: StorageRef) => Promise<StorageCredentials | undefined>;
    /** An import's source password, opened (undefined: none). */
    importPassword?: (backupId: string) => Promise<string | undefined>;
  }) {}

  notify(nodeId: string): void {
    this.signal.emit(nodeId);
  }

  async lease(nodeId: string, waitMs: number, abort: AbortSignal): Promise<AgentTask | null> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const row = await this.d.tasks.lease(nodeId, TASK_LEASE_MS);
      if (row) {
        const payload = await this.withSecrets(row);
        if (payload) return AgentTask.parse({ id: row.id, attempt: row.attempt, leaseExpiresAt: row.leaseUntil!.toISOString(), payload });
        await this.d.tasks.complete(row.id, nodeId, 'failed', 'cluster no longer exists');
        continue;
      }
      const left = deadline - Date.now();
      if (left <= 0 || abort.aborted) return null;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(t);
          this.signal.off(nodeId, done);
          abort.removeEventListener('abort', done);
          resolve();
        };
        const t = setTimeout(done, Math.min(left, 1000));
        this.signal.on(nodeId, done);
        abort.addEventListener('abort', done);
      });
    }
  }

  private async withSecrets(row: TaskRow): Promise<TaskPayload | null> {
    const request = TaskRequest.parse(row.payload);
    // An import has no cluster: the source's password and the storage's key pair travel only inside the task.
    if (request.kind === 'import-shard') {
      const sourcePassword = await this.d.importPassword?.(request.backupId);
      return TaskPayload.parse({ ...request, ...(sourcePassword ? { sourcePassword } : {}), storageCredentials: await this.d.storageCredentials?.(request.storage) });
    }
    if ((TASKS_WITHOUT_CREDENTIALS as readonly string[]).includes(request.kind)) return TaskPayload.parse(request);
    const cluster = await this.d.clusters.get(row.clusterId);
    if (!cluster) return null;
    const secrets = openSecrets(this.d.box, cluster.secretsEnc);
    // A task that runs an instance gets a certificate for it, issued now for the node it runs on (the CA key stays here).
    const runsInstance = request.kind === 'ensure-instance' || request.kind === 'configure-instance' || request.kind === 'renew-certificate' || request.kind === 'tls-switch';
    const instanceCertificate = secrets.tlsCa && runsInstance ? await this.instanceCertificate(secrets.tlsCa, row.nodeId) : undefined;
    // Every task on a TLS cluster gets a client certificate for Strata's own connections (presented when the instances ask for one:
    // the cluster requires client certificates, now or after an in-place change). Valid as long as an instance's: the agent keeps the
    // one its instance tasks brought until the instance's certificate is renewed, which brings a fresh one.
    const clientCertificate = secrets.tlsCa ? await issueClientCertificate(secrets.tlsCa, STRATA_CLIENT_NAME, { validityMs: this.d.certificateValidityMs ?? DEFAULT_VALIDITY_MS }) : undefined;
    const databaseUsers = (await this.d.databaseUsers?.(cluster.id)) ?? [];
    const trustedIssuers = secrets.tlsCa ? (await this.d.clientTrustIssuers?.(cluster.id)) ?? [] : [];
    const served = { layout: cluster.tlsLayout, bus: cluster.tlsBus, tlsSwitch: request.kind === 'tls-switch' };
    const credentials = { ...engineCredentials(secrets, { instance: instanceCertificate, client: clientCertificate, trustedIssuers }, served), databaseUsers };
    // Backup storage credentials travel only inside the task on its way to the agent.
    const storage = (ref: StorageRef) => this.d.storageCredentials?.(ref);
    if (request.kind === 'backup-shard') return TaskPayload.parse({ ...request, credentials, storageCredentials: await storage(request.storage) });
    if (request.kind === 'restore-keys') {
      return TaskPayload.parse({ ...request, file: { ...request.file, storageCredentials: await storage(request.file.storage) }, credentials });
    }
    if (request.kind === 'ensure-instance' && request.seed) {
      return TaskPayload.parse({ ...request, seed: { ...request.seed, storageCredentials: await storage(request.seed.storage) }, credentials });
    }
    return TaskPayload.parse({ ...request, credentials });
  }

  private async instanceCertificate(ca: { certificate: string; privateKey: string }, nodeId: string) {
    const node = await this.d.nodes.get(nodeId);
    if (!node) throw new Error(`node ${nodeId} is not registered`);
    return issueInstanceCertificate(ca, [node.address, ...(this.d.endpointHost ? [this.d.endpointHost] : [])], { validityMs: this.d.certificateValidityMs });
  }
}
