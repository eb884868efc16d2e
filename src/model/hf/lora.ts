// LoRA adapters in PEFT's terms: rank-r factors A [r, in] and B [out, r] per target Linear, scaled by alpha / r;
// W_eff = W + (alpha / r) · B · A. Shapes, deterministic init and merging on the CPU (host arrays).
import type { Layout, LayerTensors, TensorSpec } from '../layout';
import { gaussian, seededRandom } from '../init';

/** PEFT's target_modules names for a Qwen2 decoder layer. */
export const LORA_TARGETS = ['q_proj', 'k_proj', 'v_proj', 'o_proj', 'gate_proj', 'up_proj', 'down_proj'] as const;
export type LoraTarget = (typeof LORA_TARGETS)[number];

export interface LoraConfig {
  rank: number;
  alpha: number;
  targets: LoraTarget[];
}

/** One adapted Linear: the base weight it modifies and its factors. */
export interface LoraPair {
  /** The base weight (HF [out, in]). */
  base: TensorSpec;
  /** [rank, in], row-major. */
  A: Float32Array | Float64Array;
  /** [out, rank], row-major. */
  B: Float32Array | Float64Array;
}

export interface LoraAdapters {
  config: LoraConfig;
  /** By base weight name, e.g. model.layers.0.self_attn.q_proj.weight. */
  pairs: Map<string, LoraPair>;
}

const BY_TARGET: Record<LoraTarget, keyof LayerTensors> = {
  q_proj: 'q',
  k_proj: 'k',
  v_proj: 'v',
  o_proj: 'o',
  gate_proj: 'gate',
  up_proj: 'up',
  down_proj: 'down',
};

export function validateLoraConfig(c: LoraConfig): LoraConfig {
  if (!Number.isInteger(c.rank) || c.rank <= 0) throw new Error(`LoRA: rank must be a positive integer, got ${c.rank}`);
  if (!(c.alpha > 0)) throw new Error(`LoRA: alpha must be > 0, got ${c.alpha}`);
  if (!c.targets.length) throw new Error('LoRA: no target modules');
  const bad = c.targets.filter((t) => !(LORA_TARGETS as readonly string[]).includes(t));
  if (bad.length)
    throw new Error(
      `LoRA: unknown target module${bad.length > 1 ? 's' : ''} ${bad.join(', ')} (have ${LORA_TARGETS.join(', ')})`,
    );
  return c;
}

/** The base weights the config adapts, in layer order then target order. */
export function loraTargets(layout: Layout, config: LoraConfig): TensorSpec[] {
  validateLoraConfig(config);
  return layout.layers.flatMap((L) => config.targets.map((t) => L[BY_TARGET[t]] as TensorSpec));
}

/** Parameter count of the adapters (A and B of every target). */
export function loraParamCount(layout: Layout, config: LoraConfig): number {
  return loraTargets(layout, config).reduce((a, t) => a + config.rank * (t.shape[0] + t.shape[1]), 0);
}

/**
 * Adapters from a seed. PEFT starts B at zero (the adapted model equals the base); `bStd` > 0 gives both factors
 * random values, which tests and export fixtures need so that every factor changes the output.
 */
export function initLora(
  layout: Layout,
  config: LoraConfig,
  seed: number,
  opts: { aStd?: number; bStd?: number } = {},
): LoraAdapters {
  const pairs = new Map<string, LoraPair>();
  loraTargets(layout, config).forEach((base, i) => {
    const [out, inp] = base.shape;
    const normal = gaussian(seededRandom((seed ^ Math.imul(i + 1, 0x85ebca6b)) >>> 0));
    const aStd = opts.aStd ?? 1 / Math.sqrt(inp);
    const A = Float32Array.from({ length: config.rank * inp }, () => aStd * normal());
    const B = Float32Array.from({ length: out * config.rank }, () => (opts.bStd ?? 0) * normal());
    pairs.set(base.name, { base, A, B });
  });
  return { config, pairs };
}

/**
 * Base parameters with every adapter merged in (W + alpha/r · B·A), as a new flat array of the same precision;
 * each B·A entry is summed in float64.
 */
export function mergeLora<T extends Float32Array | Float64Array>(params: T, adapters: LoraAdapters): T {
  const merged = params.slice() as T;
  const { rank: r, alpha } = adapters.config;
  const scale = alpha / r;
  for (const { base, A, B } of adapters.pairs.values()) {
    const [out, inp] = base.shape;
    for (let o = 0; o < out; o++) {
      for (let i = 0; i < inp; i++) {
        let s = 0;
        for (let k = 0; k < r; k++) s += B[o * r + k] * A[k * inp + i];
        merged[base.offset + o * inp + i] += scale * s;
      }
    }
  }
  return merged;
}
