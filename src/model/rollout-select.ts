// The one place a policy's sampling weights are chosen from the rollout precision setting: the learner's f32
// weights, an int8 / int4 quantized copy, or an f16 copy (only where the device has 'shader-f16'; refused otherwise).
import { fp32Weights, type DecodeWeights } from './decode-weights';
import { F16Weights, f16Unavailable } from './f16-weights';
import type { GpuModel } from './model';
import { quantFormatFor, RolloutWeights, type RolloutQuant } from './rollout-weights';

/** rollout.rollout_quant: 'none' = the learner's f32 weights, 'f16' = f16 compute, 'int8' / 'int4' quantized. */
export type RolloutPrecision = RolloutQuant | 'f16';

export type SamplingWeights = DecodeWeights & { refresh?: () => void; destroy?: () => void };

export function rolloutWeightsFor(model: GpuModel, precision: RolloutPrecision): SamplingWeights {
  if (precision === 'none') return fp32Weights(model);
  if (precision === 'f16') {
    if (!model.gpu.hasF16)
      throw f16Unavailable(model.gpu, "rollout.rollout_quant 'f16'", "'none' (f32), 'int8' or 'int4'");
    return new F16Weights(model);
  }
  return new RolloutWeights(model, quantFormatFor(precision));
}
