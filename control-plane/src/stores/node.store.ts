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
  /** Set once the agent's credential is revoked: its requests are refused. */
  credentialRevokedAt: Date | null;
}

const toNode = (r: any): NodeRow => ({
  id: r.id, name: r.name, address: r.address, memoryMb: r.memory_mb, agentVersion: r.agent_version,
  lastHeartbeatAt: r.last_heartbeat_at, draining: r.draining, createdAt: r.created_at, credentialRevokedAt: r.credential_revoked_at ?? null,
});

/** How long a node credential lookup is reused (a credential only ever ends by `revokeCredential`, which drops it here). */
const CREDENTIAL_CACHE_MS = 30_000;
/** A heartbeat is written to PostgreSQL at most this often per node (memory and version changes at once). */
const HEARTBEAT_PERSIST_MS = 15_000;

/**
 * Nodes. Agents call every second, so the two things they touch on every
 * call stay in memory: the credential lookup (cached) and the heartbeat
 * (kept here, written through at most every HEARTBEAT_PERSIST_MS; rows read
 * through this store carry the newest heartbeat either way).
 */
export class NodeStore {
  private readonly byHash = new Map<string, { id: string; until: number }>();
  private readonly beats = new Map<string, { at: Date; persistedAt: number; memoryMb: number; agentVersion: string }>();

  constructor(private readonly pool: pg.Pool) {}

  /** A row with the newest heartbeat this process has seen. */
  private fresh(r: any): NodeRow {
    const n = toNode(r);
    return { ...n, ...this.beatOf(n) };
  }

  async create(n: { name: string; address: string; memoryMb: number; agentVersion: string; credentialHash: string }, db: Db = this.pool): Promise<NodeRow> {
    const r = await db.query(
      `INSERT INTO nodes (id, name, address, memory_mb, agent_version, credential_hash) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
      [randomUUID(), n.name, n.address, n.memoryMb, n.agentVersion, n.credentialHash],
    );
    return toNode(r.rows[0]);
  }

  async byCredential(credentialHash: string): Promise<NodeRow | null> {
    const hit = this.byHash.get(credentialHash);
    if (hit && hit.until > Date.now()) {
      const n = this.cachedRows.get(hit.id);
      if (n) return { ...n, ...this.beatOf(n) };
    }
    const r = await this.pool.query('SELECT * FROM nodes WHERE credential_hash = $1 AND credential_revoked_at IS NULL', [credentialHash]);
    if (!r.rows[0]) return null;
    const n = this.fresh(r.rows[0]);
    if (this.byHash.size > 100_000) this.byHash.clear();
    this.byHash.set(credentialHash, { id: n.id, until: Date.now() + CREDENTIAL_CACHE_MS });
    this.cachedRows.set(n.id, n);
    return n;
  }

  /**
   * Revokes a node's credential: from now on its agent's requests are refused (401). The row stays,
   * marked; the node goes silent, then down, and its copies are rebuilt elsewhere. Null: no such node.
   */
  async revokeCredential(id: string): Promise<NodeRow | null> {
    const r = await this.pool.query('UPDATE nodes SET credential_revoked_at = COALESCE(credential_revoked_at, now()) WHERE id = $1 RETURNING *', [id]);
    for (const [hash, hit] of this.byHash) if (hit.id === id) this.byHash.delete(hash);
    this.cachedRows.delete(id);
    return r.rows[0] ? this.fresh(r.rows[0]) : null;
  }

  private readonly cachedRows = new Map<string, NodeRow>();
  private beatOf(n: NodeRow): Partial<NodeRow> {
    const b = this.beats.get(n.id);
    return b && (!n.lastHeartbeatAt || b.at > n.lastHeartbeatAt) ? { lastHeartbeatAt: b.at, memoryMb: b.memoryMb, agentVersion: b.agentVersion } : {};
  }

  async list(db: Db = this.pool): Promise<NodeRow[]> {
    const r = await db.query('SELECT * FROM nodes ORDER BY name');
    return r.rows.map((row) => this.fresh(row));
  }

  async get(id: string, db: Db = this.pool): Promise<NodeRow | null> {
    const r = await db.query('SELECT * FROM nodes WHERE id = $1', [id]);
    return r.rows[0] ? this.fresh(r.rows[0]) : null;
  }

  async setDraining(id: string, draining: boolean, db: Db = this.pool): Promise<NodeRow | null> {
    const r = await db.query('UPDATE nodes SET draining = $2 WHERE id = $1 RETURNING *', [id, draining]);
    this.cachedRows.delete(id);
    return r.rows[0] ? this.fresh(r.rows[0]) : null;
  }

  /**
   * How long the node has been silent, as far as this process can tell, or
   * null if it never reported. A heartbeat this process did not receive
   * comes from PostgreSQL, written up to HEARTBEAT_PERSIST_MS before the
   * node's last report (to a control plane that has since restarted): that
   * much is forgiven, so a restarted control plane does not call every node
   * offline, and refuse to place anything, until each reports again.
   */
  silentForMs(n: NodeRow, now = Date.now()): number | null {
    if (!n.lastHeartbeatAt) return null;
    const slack = this.beats.has(n.id) ? 0 : HEARTBEAT_PERSIST_MS;
    return Math.max(0, now - n.lastHeartbeatAt.getTime() - slack);
  }

  /** The node reported: remembered now, written to PostgreSQL when something changed or every HEARTBEAT_PERSIST_MS. */
  async heartbeat(id: string, memoryMb: number, agentVersion: string): Promise<void> {
    const now = Date.now();
    const prev = this.beats.get(id);
    const unchanged = prev && prev.memoryMb === memoryMb && prev.agentVersion === agentVersion && now - prev.persistedAt < HEARTBEAT_PERSIST_MS;
    const beat = { at: new Date(now), persistedAt: unchanged ? prev.persistedAt : now, memoryMb, agentVersion };
    this.beats.set(id, beat);
    if (unchanged) return;
    try {
      await this.pool.query('UPDATE nodes SET last_heartbeat_at = $4, memory_mb = $2, agent_version = $3 WHERE id = $1', [id, memoryMb, agentVersion, beat.at]);
    } catch (err) {
      beat.persistedAt = 0; // written with the next report
      throw err;
    }
  }
}
