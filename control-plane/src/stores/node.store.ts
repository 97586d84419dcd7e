import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { Db } from '../db/tx';

export interface NodeRow {
  id: string;
  name: string;
  address: string;
  memoryMb: number;
  agentVersion: string | null;
  lastHeartbeatAt: Date | null;
  /** Taken out of placement; its instances move to other nodes. */
  draining: boolean;
  createdAt: Date;
}

const toNode = (r: any): NodeRow => ({
  id: r.id, name: r.name, address: r.address, memoryMb: r.memory_mb, agentVersion: r.agent_version,
  lastHeartbeatAt: r.last_heartbeat_at, draining: r.draining, createdAt: r.created_at,
});

export class NodeStore {
  constructor(private readonly pool: pg.Pool) {}

  async create(n: { name: string; address: string; memoryMb: number; agentVersion: string; credentialHash: string }, db: Db = this.pool): Promise<NodeRow> {
    const r = await db.query(
      `INSERT INTO nodes (id, name, address, memory_mb, agent_version, credential_hash) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
      [randomUUID(), n.name, n.address, n.memoryMb, n.agentVersion, n.credentialHash],
    );
    return toNode(r.rows[0]);
  }

  async byCredential(credentialHash: string): Promise<NodeRow | null> {
    const r = await this.pool.query('SELECT * FROM nodes WHERE credential_hash = $1', [credentialHash]);
    return r.rows[0] ? toNode(r.rows[0]) : null;
  }

  async list(db: Db = this.pool): Promise<NodeRow[]> {
    const r = await db.query('SELECT * FROM nodes ORDER BY name');
    return r.rows.map(toNode);
  }

  async get(id: string, db: Db = this.pool): Promise<NodeRow | null> {
    const r = await db.query('SELECT * FROM nodes WHERE id = $1', [id]);
    return r.rows[0] ? toNode(r.rows[0]) : null;
  }

  async setDraining(id: string, draining: boolean, db: Db = this.pool): Promise<NodeRow | null> {
    const r = await db.query('UPDATE nodes SET draining = $2 WHERE id = $1 RETURNING *', [id, draining]);
    return r.rows[0] ? toNode(r.rows[0]) : null;
  }

  async heartbeat(id: string, memoryMb: number, agentVersion: string): Promise<void> {
    await this.pool.query('UPDATE nodes SET last_heartbeat_at = now(), memory_mb = $2, agent_version = $3 WHERE id = $1', [id, memoryMb, agentVersion]);
  }
}
