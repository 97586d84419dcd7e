/**
 * One long-lived admin connection per engine instance, shared by status
 * observation and tasks (failover), instead of a new connection for every
 * look. A connection that closed (the engine died or restarted) is replaced
 * on the next use.
 */
import type { Redis } from 'ioredis';
import { connectAdmin, type AdminLogin } from '@strata/engine/redis-admin';

interface Entry {
  client: Promise<Redis>;
  /** The login it was made with: a changed password or CA makes a new connection. */
  login: string;
}

export class InstanceConnections {
  private readonly byInstance = new Map<string, Entry>();

  constructor(private readonly d: { address: string; timeoutMs: number }) {}

  async get(instanceId: string, port: number, credentials: AdminLogin): Promise<Redis> {
    const existing = this.byInstance.get(instanceId);
    const login = JSON.stringify([credentials.password, credentials.tls?.ca ?? null]);
    if (existing && existing.login === login) {
      const client = await existing.client.catch(() => null);
      if (client && client.status === 'ready') return client;
      client?.disconnect();
    } else if (existing) {
      void existing.client.then((c) => c.disconnect(), () => {});
    }
    const client = connectAdmin({ host: this.d.address, port, ...credentials }, this.d.timeoutMs);
    this.byInstance.set(instanceId, { client, login });
    client.catch(() => { if (this.byInstance.get(instanceId)?.client === client) this.byInstance.delete(instanceId); });
    return client;
  }

  /** A connection of its own (a long scan's pipelines would delay the shared one); the caller disconnects it. */
  dedicated(port: number, credentials: AdminLogin): Promise<Redis> {
    return connectAdmin({ host: this.d.address, port, ...credentials }, this.d.timeoutMs);
  }

  drop(instanceId: string): void {
    const e = this.byInstance.get(instanceId);
    this.byInstance.delete(instanceId);
    void e?.client.then((c) => c.disconnect(), () => {});
  }

  closeAll(): void {
    for (const id of [...this.byInstance.keys()]) this.drop(id);
  }
}
