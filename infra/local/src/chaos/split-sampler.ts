/**
 * Samples, a few times a second, which node claims which slots, each by its
 * own view (the "myself" line of CLUSTER NODES): a slot two nodes claim at
 * once is a moment with two primaries for it (a cut-off primary that has not
 * yet noticed the failover on the other side).
 */
import type { SlotRouter } from './list-appender';
import type { SplitSample } from './history';

export function claimedSlots(clusterNodes: string): number[] {
  const myself = clusterNodes.split('\n').find((l) => l.split(' ')[2]?.includes('myself'));
  if (!myself) return [];
  const f = myself.trim().split(' ');
  if (!f[2]!.includes('master')) return [];
  const out: number[] = [];
  for (const r of f.slice(8)) {
    if (r.startsWith('[')) continue;
    const [a, b] = r.split('-').map(Number);
    for (let s = a!; s <= (b ?? a!); s++) out.push(s);
  }
  return out;
}

export function doublyClaimed(claims: readonly (readonly number[])[]): number {
  const count = new Uint8Array(16384);
  let doubled = 0;
  for (const slots of claims) {
    for (const s of slots) {
      const n = (count[s] ?? 0) + 1;
      count[s] = n;
      if (n === 2) doubled++;
    }
  }
  return doubled;
}

export function startSplitSampler(o: { router: SlotRouter; addresses: () => string[]; t0: number; everyMs?: number }): { stop: () => Promise<SplitSample[]> } {
  const samples: SplitSample[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const views = await Promise.all(o.addresses().map((a) => o.router.conn(a).call('CLUSTER', 'NODES').then((r) => String(r), () => null)));
      samples.push({ at: Date.now() - o.t0, doublyClaimedSlots: doublyClaimed(views.filter((v): v is string => v !== null).map(claimedSlots)) });
      await new Promise((r) => setTimeout(r, o.everyMs ?? 250));
    }
  })();
  return { stop: async () => { running = false; await loop; return samples; } };
}
