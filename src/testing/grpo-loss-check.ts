// The GRPO loss kernel on fresh random sequences against its float64 CPU references, for the unit test of the
// 8-buffer variant and the browsers' kernel page alike: the statistics (relative) and dL/dlogp (absolute).
import type { Gpu } from '../gpu/runtime';
import {
  decodeGrpoStats,
  grpoLoss,
  GRPO_STATS,
  type GrpoLossConfig,
  type GrpoLossInputs,
} from '../gpu/kernels/grpo-loss';
import { grpoLossBackwardRef, grpoLossForwardRef } from '../gpu/kernels/grpo-loss-ref';
import { maxAbsDiff } from './random';
import { randomSequences, runLossKernel, statsRelDiff } from './loss-check';

/** Largest differences of one run (B = 5 sequences of S = 23 tokens, the last with no completion). */
export async function grpoLossAgainstRef(
  gpu: Gpu,
  rng: () => number,
  loss_type: GrpoLossConfig['loss_type'],
): Promise<{ stats: number; dlogp: number }> {
  const shape = { B: 5, S: 23 };
  const logp = new Float32Array(shape.B * shape.S);
  const mask = randomSequences(rng, shape, (t) => (logp[t] = -rng() * 4));
  const oldLogp = logp.map((v) => v + (rng() - 0.5) * 1.4);
  const x: GrpoLossInputs<Float32Array> = {
    logp,
    oldLogp,
    refLogp: logp.map((v) => v + (rng() - 0.5)),
    rolloutLogp: oldLogp.map((v) => v + (rng() - 0.5) * 0.8),
    advantages: new Float32Array(shape.B).map((_, b) => (b % 2 ? 1 : -1) * (0.3 + rng() * 2)),
    mask,
  };
  const c: GrpoLossConfig = {
    epsilon_low: 0.2,
    epsilon_high: 0.28,
    dual_clip_c: 1.6,
    beta: 0.04,
    loss_type,
    max_completion_length: shape.S,
    is_cap: 1.15,
  };
  const got = await runLossKernel(
    gpu,
    shape.B * shape.S,
    { ...x },
    (inputs, dlogp, stats) => grpoLoss(gpu, dlogp, stats, inputs, shape, c),
    decodeGrpoStats,
  );
  return {
    stats: statsRelDiff(got.stats, grpoLossForwardRef(x, shape, c), GRPO_STATS),
    dlogp: maxAbsDiff(got.dlogp, grpoLossBackwardRef(x, shape, c)),
  };
}
