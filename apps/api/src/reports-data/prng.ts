/** Deterministic randomness for the data generator: same seed, same data, on every machine. */

/** 32-bit string/number hash (FNV-1a over the decimal text, then a final avalanche). */
export function hashSeed(...parts: (string | number)[]): number {
  let h = 0x811c9dc5;
  for (const part of parts) {
    const s = String(part);
    for (let i = 0; i < s.length; i++) {
      h ^= s.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    h ^= 0x7c;
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** sfc32: small, fast, good enough statistically; returns a [0, 1) generator. */
export function createRng(seed: number): Rng {
  let a = 0x9e3779b9 ^ seed;
  let b = 0x243f6a88 ^ Math.imul(seed, 0x85ebca6b);
  let c = 0xb7e15162 ^ Math.imul(seed, 0xc2b2ae35);
  let d = 1;
  const next = () => {
    a |= 0;
    b |= 0;
    c |= 0;
    d |= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 12; i++) next();
  const rng = next as Rng;
  rng.int = (min, max) => min + Math.floor(next() * (max - min + 1));
  rng.pick = (items) => items[Math.floor(next() * items.length)]!;
  rng.normal = () => {
    const u = Math.max(next(), 1e-12);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * next());
  };
  rng.noise = (sigma) => Math.exp(sigma * rng.normal() - (sigma * sigma) / 2);
  return rng;
}

export interface Rng {
  (): number;
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  normal(): number;
  /** Log-normal multiplicative noise with mean 1. */
  noise(sigma: number): number;
}

/** Sampling by weight in O(log n) (cumulative table + binary search). */
export class WeightedSampler<T> {
  readonly items: readonly T[];
  private readonly cumulative: Float64Array;
  readonly total: number;

  constructor(items: readonly T[], weights: readonly number[]) {
    this.items = items;
    this.cumulative = new Float64Array(weights.length);
    let sum = 0;
    weights.forEach((w, i) => {
      sum += Math.max(0, w);
      this.cumulative[i] = sum;
    });
    this.total = sum;
  }

  sample(rng: Rng): T {
    const x = rng() * this.total;
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cumulative[mid]! > x) hi = mid;
      else lo = mid + 1;
    }
    return this.items[lo]!;
  }
}

/** Zipf weights 1/k^s for k = 1..n (long tail). */
export function zipfWeights(n: number, s: number): number[] {
  return Array.from({ length: n }, (_, k) => 1 / Math.pow(k + 1, s));
}
