// Seeded PRNG for the curriculum: every problem, test input and corpus sample derives from (seed, family, index).
export class Rng {
  private a: number;

  constructor(seed: number) {
    this.a = seed >>> 0;
  }

  /** Derive an independent stream from a seed and a string key (family name, purpose, ...). */
  static from(seed: number, ...keys: (string | number)[]): Rng {
    let h = (seed ^ 0x9e3779b9) >>> 0;
    for (const k of keys) {
      const s = String(k);
      for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
      h = Math.imul(h ^ (h >>> 13), 0x5bd1e995) >>> 0;
    }
    return new Rng(h);
  }

  /** mulberry32: uniform in [0, 1). */
  next(): number {
    this.a = (this.a + 0x6d2b79f5) >>> 0;
    let t = this.a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [lo, hi] inclusive. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  pick<T>(xs: readonly T[]): T {
    if (xs.length === 0) throw new Error('pick from empty list');
    return xs[Math.floor(this.next() * xs.length)];
  }

  bool(p = 0.5): boolean {
    return this.next() < p;
  }

  /** A list of n ints in [lo, hi]. */
  ints(n: number, lo: number, hi: number): number[] {
    return Array.from({ length: n }, () => this.int(lo, hi));
  }

  /** A word of n letters from the alphabet. */
  word(n: number, alphabet = 'abcdefghijklmnopqrstuvwxyz'): string {
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet[Math.floor(this.next() * alphabet.length)];
    return s;
  }

  shuffle<T>(xs: readonly T[]): T[] {
    const out = xs.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }
}
