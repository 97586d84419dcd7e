/** Which primary serves each of the 16384 slots, from CLUSTER SLOTS, updated by MOVED replies. */
export const SLOTS = 16384;

export interface SlotRangeOwner {
  start: number;
  end: number;
  host: string;
  port: number;
}

/** Parses a CLUSTER SLOTS reply (as a full RESP value). */
export function parseClusterSlots(reply: unknown): SlotRangeOwner[] {
  if (!Array.isArray(reply)) throw new Error('CLUSTER SLOTS: not an array');
  return reply.map((entry) => {
    const [start, end, primary] = entry as [number, number, [string, number, ...unknown[]]];
    return { start: Number(start), end: Number(end), host: String(primary[0]), port: Number(primary[1]) };
  });
}

export class SlotMap {
  /** endpoint index per slot, -1 = unknown */
  readonly owner = new Int16Array(SLOTS).fill(-1);
  readonly endpoints: string[] = [];

  static from(ranges: SlotRangeOwner[]): SlotMap {
    const m = new SlotMap();
    m.apply(ranges);
    return m;
  }

  apply(ranges: SlotRangeOwner[]): void {
    for (const r of ranges) {
      const idx = this.indexOf(`${r.host}:${r.port}`);
      for (let s = r.start; s <= r.end; s++) this.owner[s] = idx;
    }
  }

  /** Index of an endpoint, added when new. */
  indexOf(endpoint: string): number {
    let i = this.endpoints.indexOf(endpoint);
    if (i === -1) {
      i = this.endpoints.length;
      this.endpoints.push(endpoint);
    }
    return i;
  }

  /** Endpoints that own at least one slot. */
  primaries(): string[] {
    const used = new Set<number>();
    for (const o of this.owner) if (o >= 0) used.add(o);
    return [...used].map((i) => this.endpoints[i]!);
  }
}

/** "MOVED 3999 127.0.0.1:6381" / "ASK 3999 127.0.0.1:6381" -> parts, or undefined. */
export function parseRedirect(message: string): { kind: 'MOVED' | 'ASK'; slot: number; endpoint: string } | undefined {
  const m = /^(MOVED|ASK) (\d+) (\S+)$/.exec(message);
  if (!m) return undefined;
  let endpoint = m[3]!;
  // Redis 7 may answer ":port" when it does not know its own address.
  if (endpoint.startsWith(':')) endpoint = `127.0.0.1${endpoint}`;
  return { kind: m[1] as 'MOVED' | 'ASK', slot: Number(m[2]), endpoint };
}
