/**
 * Does Strata lose more acknowledged writes than Redis alone under the same
 * fault? Losses per run are lumpy (most runs lose a handful, a few lose
 * hundreds, on either side), so totals are decided by a few runs. The
 * comparison is by rank: a one-sided Mann-Whitney U test of the per-run
 * losses, with each side's median. Up to `EXACT_MAX` runs in all the p-value
 * is exact (every way to split the pooled mid-ranks, ties included); above,
 * the normal approximation with tie and continuity corrections. "Loses more" means p < `alpha` that Strata's losses are
 * stochastically greater.
 */
export interface LossComparison {
  medianStrata: number;
  medianBaseline: number;
  /** One-sided p-value that Strata's per-run losses are greater (1 when there is nothing to compare). */
  p: number;
  losesMore: boolean;
}

export const median = (xs: number[]): number => {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** The standard normal's upper tail, P(Z > z) (Abramowitz and Stegun 26.2.17, error < 7.5e-8). */
function upperTail(z: number): number {
  if (z < 0) return 1 - upperTail(-z);
  const t = 1 / (1 + 0.2316419 * z);
  const poly = t * (0.319381530 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
  return (Math.exp((-z * z) / 2) / Math.sqrt(2 * Math.PI)) * poly;
}

/** Pooled runs up to which the p-value is computed exactly. */
export const EXACT_MAX = 80;

/**
 * P(R >= r1) when `n1` of the pooled mid-ranks are drawn at random: the share of the C(n, n1) subsets whose rank
 * sum reaches the observed one. Counted by rank sum (doubled, so mid-ranks are integers) one item at a time.
 */
function exactUpperTail(ranks: number[], n1: number, r1: number): number {
  const doubled = ranks.map((r) => Math.round(r * 2));
  const max = doubled.reduce((a, b) => a + b, 0);
  // ways[k][s]: subsets of k items (of those seen so far) with doubled rank sum s.
  const ways = Array.from({ length: n1 + 1 }, () => new Float64Array(max + 1));
  ways[0]![0] = 1;
  for (const d of doubled) {
    for (let k = n1; k >= 1; k--) {
      const to = ways[k]!;
      const from = ways[k - 1]!;
      for (let s = max; s >= d; s--) if (from[s - d]) to[s] = to[s]! + from[s - d]!;
    }
  }
  const all = ways[n1]!;
  const target = Math.round(r1 * 2);
  let total = 0;
  let tail = 0;
  for (let s = 0; s <= max; s++) {
    total += all[s]!;
    if (s >= target) tail += all[s]!;
  }
  return tail / total;
}

export function compareLosses(strata: number[], baseline: number[], alpha = 0.05): LossComparison {
  const n1 = strata.length;
  const n2 = baseline.length;
  const out = { medianStrata: median(strata), medianBaseline: median(baseline) };
  if (!n1 || !n2) return { ...out, p: 1, losesMore: false };
  // Mid-ranks of the pooled samples.
  const pooled = [...strata.map((v) => ({ v, s: true })), ...baseline.map((v) => ({ v, s: false }))].sort((a, b) => a.v - b.v);
  const ranks = new Array<number>(pooled.length);
  let tieTerm = 0;
  for (let i = 0; i < pooled.length;) {
    let j = i;
    while (j + 1 < pooled.length && pooled[j + 1]!.v === pooled[i]!.v) j++;
    for (let k = i; k <= j; k++) ranks[k] = (i + j) / 2 + 1;
    const t = j - i + 1;
    tieTerm += t * t * t - t;
    i = j + 1;
  }
  const r1 = pooled.reduce((sum, x, i) => sum + (x.s ? ranks[i]! : 0), 0);
  if (n1 + n2 <= EXACT_MAX) {
    const p = exactUpperTail(ranks, n1, r1);
    return { ...out, p, losesMore: p < alpha };
  }
  const u = r1 - (n1 * (n1 + 1)) / 2;
  const n = n1 + n2;
  const variance = ((n1 * n2) / 12) * (n + 1 - tieTerm / (n * (n - 1)));
  if (variance <= 0) return { ...out, p: 1, losesMore: false };
  // Continuity correction toward the null.
  const z = (u - (n1 * n2) / 2 - 0.5) / Math.sqrt(variance);
  const p = upperTail(z);
  return { ...out, p, losesMore: p < alpha };
}
