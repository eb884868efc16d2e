// Where the sampler's forward reads its Linear weights: the learner's own fp32 parameters here; the quantized
// rollout copy (rollout-weights.ts) and LoRA (hf/lora-gpu.ts) implement the same interface.
import { linearForward } from './forward';
import { stackedIn, type Stacking } from './decode-fused';
import type { GpuModel } from './model';
import type { TensorSpec } from './layout';

/** Where a forward reads its Linear weights; everything else (embedding, norms, biases, RoPE) is the model's. */
export interface DecodeWeights extends Stacking {
  readonly model: GpuModel;
  readonly label: string;
  /** y[M, out] (+)= x[M, in] · Wᵀ (+ bias). */
  linear(
    y: GPUBuffer,
    x: GPUBuffer,
    w: TensorSpec,
    bias: TensorSpec | undefined,
    M: number,
    accumulate?: boolean,
  ): void;
}

/** The learner's own fp32 weights. */
export function fp32Weights(model: GpuModel): DecodeWeights {
  return {
    model,
    label: 'fp32',
    linear: (y, x, w, bias, M, accumulate = false) => linearForward(model, y, x, w, bias, M, accumulate),
    // Stacking reads the flat buffer's layout order (a split model's layers may straddle two buffers), and the
    // weights themselves (a frozen base's Linears go through FrozenLinears, adapters included).
    stacked: (ws) =>
      model.flat && !model.frozen
        ? stackedIn(
            ws,
            (t) => t.offset,
            (t) => model.p(t),
          )
        : undefined,
  };
}
