// Deterministic parameter initialisation from a seed (same numbers in Node and the browser).
import type { Layout } from './layout';

export interface InitOptions {
  /** Std of linear and embedding weights (GPT-2 / Qwen2 use 0.02). */
  std?: number;
  /** Std of bias entries; 0 (the HF default) except in tests that want every gradient path to be non-trivial. */
  biasStd?: number;
  /** Perturbation of norm weights around 1; 0 by default, non-zero in gradient checks. */
  normJitter?: number;
}

/** mulberry32: tiny, fast, and identical everywhere; good enough for weights. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Standard normal draws by Box–Muller from a uniform source. */
export function gaussian(rand: () => number): () => number {
  let spare: number | undefined;
  return () => {
    if (spare !== undefined) {
      const s = spare;
      spare = undefined;
      return s;
    }
    const u = Math.max(rand(), 1e-12);
    const v = rand();
    const r = Math.sqrt(-2 * Math.log(u));
    spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  };
}

/**
 * Fills a flat parameter array. Each tensor draws from its own stream (seed mixed with the tensor index) so that
 * adding a tensor does not change the others. Residual output projections (o_proj, down_proj) are scaled by
 * 1/sqrt(2·layers), as in GPT-2, so the residual stream's variance does not grow with depth.
 */
export function initParams(layout: Layout, seed: number, opts: InitOptions = {}): Float32Array {
  const std = opts.std ?? 0.02;
  const flat = new Float32Array(layout.totalFloats);
  const residualScale = 1 / Math.sqrt(2 * Math.max(1, layout.config.layers));
  layout.tensors.forEach((t, i) => {
    const normal = gaussian(seededRandom((seed ^ Math.imul(i + 1, 0x9e3779b1)) >>> 0));
    const out = flat.subarray(t.offset, t.offset + t.size);
    switch (t.kind) {
      case 'norm':
        for (let j = 0; j < t.size; j++) out[j] = 1 + (opts.normJitter ?? 0) * normal();
        break;
      case 'bias':
        for (let j = 0; j < t.size; j++) out[j] = (opts.biasStd ?? 0) * normal();
        break;
      default: {
        const isResidualOut = t.name.endsWith('o_proj.weight') || t.name.endsWith('down_proj.weight');
        const s = isResidualOut ? std * residualScale : std;
        for (let j = 0; j < t.size; j++) out[j] = s * normal();
      }
    }
  });
  return flat;
}
