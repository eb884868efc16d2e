// Float64 reference for LoRA: loss and gradients of the adapter factors, the ground truth for the LoRA kernels.
//
// With W_eff = W + s·B·A (s = alpha / r) the model is the base model on merged weights, so the whole-model float64
// reference gives dL/dW_eff = G for every adapted Linear, and the chain rule through the product gives
// dL/dA = s·Bᵀ·G [r, in] and dL/dB = s·G·Aᵀ [out, r]. The base stays frozen (its gradient is not returned).
import type { BatchInput } from '../reference';
import { referenceLoss, type Objective } from '../reference-grad';
import type { Layout } from '../layout';
import { mergeLora, type LoraAdapters } from './lora';

export interface LoraGrads {
  loss: number;
  logits: Float64Array;
  /** By base weight name: gradients of A [r, in] and B [out, r]. */
  grads: Map<string, { dA: Float64Array; dB: Float64Array }>;
}

/** Adapters with float64 copies of their factors (the reference and finite differences perturb these). */
export function loraToF64(adapters: LoraAdapters): LoraAdapters {
  const pairs = new Map(
    [...adapters.pairs].map(([k, p]) => [k, { base: p.base, A: Float64Array.from(p.A), B: Float64Array.from(p.B) }]),
  );
  return { config: adapters.config, pairs };
}

export function loraReferenceLoss(
  layout: Layout,
  base: Float64Array,
  adapters: LoraAdapters,
  input: BatchInput,
  obj: Objective,
  withGrads = true,
): LoraGrads {
  const merged = mergeLora(base, adapters);
  const r = referenceLoss(layout, merged, input, obj, withGrads);
  const grads = new Map<string, { dA: Float64Array; dB: Float64Array }>();
  if (!r.grads) return { loss: r.loss, logits: r.logits, grads };
  const { rank, alpha } = adapters.config;
  const s = alpha / rank;
  for (const [name, { base: t, A, B }] of adapters.pairs) {
    const [out, inp] = t.shape;
    const G = r.grads.subarray(t.offset, t.offset + t.size);
    const dA = new Float64Array(rank * inp);
    const dB = new Float64Array(out * rank);
    for (let o = 0; o < out; o++) {
      for (let k = 0; k < rank; k++) {
        const b = B[o * rank + k];
        let acc = 0;
        for (let i = 0; i < inp; i++) {
          const g = G[o * inp + i];
          dA[k * inp + i] += s * b * g;
          acc += g * A[k * inp + i];
        }
        dB[o * rank + k] = s * acc;
      }
    }
    grads.set(name, { dA, dB });
  }
  return { loss: r.loss, logits: r.logits, grads };
}
