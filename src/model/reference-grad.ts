// Whole-model float64 loss and analytic gradients for the SFT and GRPO objectives (the gradient check's ground truth).
import type { Layout } from './layout';
import { referenceBackward, referenceForward, type BatchInput } from './reference';
import { gatherLogprobsRef, grpoLossRef, logprobsBackwardRef, sftLossRef, type GrpoLossConfig } from './reference-loss';

export interface SftObjective {
  kind: 'sft';
  targets: ArrayLike<number>;
  mask: ArrayLike<number>;
}

export interface GrpoObjective {
  kind: 'grpo';
  targets: ArrayLike<number>;
  mask: ArrayLike<number>;
  oldLogp: ArrayLike<number>;
  refLogp?: ArrayLike<number>;
  advantages: ArrayLike<number>;
  isWeight?: ArrayLike<number>;
  config: GrpoLossConfig;
  /** Log-probs are taken of logits / temperature (TRL scores at the sampling temperature). Default 1. */
  temperature?: number;
}

export type Objective = SftObjective | GrpoObjective;

export interface RefLossResult {
  loss: number;
  logits: Float64Array;
  /** Flat gradient with the parameter layout (only when asked for). */
  grads?: Float64Array;
}

export function referenceLoss(
  layout: Layout,
  params: Float64Array,
  input: BatchInput,
  obj: Objective,
  withGrads = true,
): RefLossResult {
  const fwd = referenceForward(layout, params, input);
  const T = input.batch * input.seqLen;
  const V = layout.config.vocabSize;
  let loss: number;
  let dLogits: Float64Array;
  if (obj.kind === 'sft') {
    ({ loss, dLogits } = sftLossRef({ logits: fwd.logits, T, V, targets: obj.targets, mask: obj.mask }));
  } else {
    const invTemp = 1 / (obj.temperature ?? 1);
    const scaled = invTemp === 1 ? fwd.logits : fwd.logits.map((x) => x * invTemp);
    const logp = gatherLogprobsRef(scaled, T, V, obj.targets);
    const r = grpoLossRef(
      {
        logp,
        oldLogp: obj.oldLogp,
        refLogp: obj.refLogp,
        advantages: obj.advantages,
        mask: obj.mask,
        isWeight: obj.isWeight,
        B: input.batch,
        S: input.seqLen,
      },
      obj.config,
    );
    loss = r.loss;
    dLogits = withGrads
      ? logprobsBackwardRef(scaled, T, V, obj.targets, r.dLogp).map((x) => x * invTemp)
      : new Float64Array(0);
  }
  if (!withGrads) return { loss, logits: fwd.logits };
  return { loss, logits: fwd.logits, grads: referenceBackward(layout, params, fwd, dLogits) };
}

/** Central finite difference of the loss along one parameter entry, in float64. */
export function finiteDifference(
  layout: Layout,
  params: Float64Array,
  input: BatchInput,
  obj: Objective,
  index: number,
  h = 1e-5,
): number {
  const saved = params[index];
  params[index] = saved + h;
  const plus = referenceLoss(layout, params, input, obj, false).loss;
  params[index] = saved - h;
  const minus = referenceLoss(layout, params, input, obj, false).loss;
  params[index] = saved;
  return (plus - minus) / (2 * h);
}
