/**
 * The Mann–Whitney U test (Wilcoxon rank-sum) of two samples, two-sided. A rank test: it makes no
 * assumption about how run times are distributed, and one slow outlier run cannot carry it. Small
 * samples without ties get the exact distribution of U; otherwise the normal approximation with
 * the tie correction and a continuity correction.
 */
export interface MannWhitneyResult {
  /** U of the first sample: how many (a, b) pairs have a > b (ties count one half). */
  u1: number;
  u2: number;
  /** Two-sided p-value. */
  p: number;
  method: 'exact' | 'normal';
}

/** Samples up to this size (each) without ties are tested exactly. */
const EXACT_LIMIT = 20;

export function mannWhitneyU(a: readonly number[], b: readonly number[]): MannWhitneyResult {
  const n1 = a.length;
  const n2 = b.length;
  if (n1 === 0 || n2 === 0) throw new RangeError('both samples need at least one value');
  const all = [...a.map((value) => ({ value, first: true })), ...b.map((value) => ({ value, first: false }))];
  all.sort((x, y) => x.value - y.value);
  const ranks = new Array<number>(all.length);
  let tieTerm = 0;
  for (let i = 0; i < all.length; ) {
    let j = i;
    while (j + 1 < all.length && all[j + 1]?.value === all[i]?.value) j++;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) ranks[k] = rank;
    const t = j - i + 1;
    tieTerm += t ** 3 - t;
    i = j + 1;
  }
  let r1 = 0;
  all.forEach((item, i) => {
    if (item.first) r1 += ranks[i] ?? 0;
  });
  const u1 = r1 - (n1 * (n1 + 1)) / 2;
  const u2 = n1 * n2 - u1;
  if (tieTerm === 0 && n1 <= EXACT_LIMIT && n2 <= EXACT_LIMIT) {
    return { u1, u2, p: exactTwoSided(Math.min(u1, u2), n1, n2), method: 'exact' };
  }
  const n = n1 + n2;
  const mean = (n1 * n2) / 2;
  const variance = ((n1 * n2) / 12) * (n + 1 - tieTerm / (n * (n - 1)));
  if (variance === 0) return { u1, u2, p: 1, method: 'normal' };
  const z = (Math.abs(u1 - mean) - 0.5) / Math.sqrt(variance);
  return { u1, u2, p: Math.min(1, 2 * (1 - normalCdf(Math.max(0, z)))), method: 'normal' };
}

/** P(U ≤ u) × 2 under the null hypothesis, from the count of rank arrangements (no ties). */
function exactTwoSided(u: number, n1: number, n2: number): number {
  // counts[m][k]: arrangements of m first-sample and k second-sample values, by U; built up
  // with the recurrence f(m, k, u) = f(m-1, k, u-k) + f(m, k-1, u)
  const max = n1 * n2;
  let previous: number[][] = [];
  for (let m = 0; m <= n1; m++) {
    const row: number[][] = [];
    for (let k = 0; k <= n2; k++) {
      const f = new Array<number>(max + 1).fill(0);
      if (m === 0 || k === 0) f[0] = 1;
      else {
        const left = previous[k] ?? [];
        const down = row[k - 1] ?? [];
        for (let x = 0; x <= m * k; x++) f[x] = (x >= k ? (left[x - k] ?? 0) : 0) + (down[x] ?? 0);
      }
      row.push(f);
    }
    previous = row;
  }
  const dist = previous[n2] ?? [];
  const total = dist.reduce((s, c) => s + c, 0);
  let tail = 0;
  for (let x = 0; x <= Math.floor(u); x++) tail += dist[x] ?? 0;
  return Math.min(1, (2 * tail) / total);
}

/** The standard normal distribution function (Abramowitz and Stegun 7.1.26, error below 1.5e-7). */
export function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const poly =
    t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-x * x);
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError('the median of no values');
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}
