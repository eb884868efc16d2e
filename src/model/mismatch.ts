// Rollout/learner mismatch: how far the quantized rollout policy is from the fp32 learner on sampled sequences,
// as a mean per-token KL. Two measures:
//  - exactKl: both models' full next-token distributions at every completion position (one cache-free forward
//    each, logits read back, KL summed in float64 on the CPU). A diagnostic: it reads back [tokens, V] floats twice.
//  - sampledKl: the k3 estimator from the per-token log-probs the trainer already has (rollout log-probs from the
//    sampler, learner log-probs from the GRPO forward), unbiased for KL(rollout ‖ learner) on rollout samples.
import type { DecodeWeights } from './decode-weights';
import { forwardAllLogits } from './decode';

export interface MismatchSequence {
  prompt: number[];
  completion: number[];
}

export interface MismatchReport {
  /** Mean over completion tokens of KL(rollout ‖ learner), nats/token. */
  meanKl: number;
  maxKl: number;
  /** Mean |log p_rollout(x) − log p_learner(x)| of the realised tokens. */
  meanAbsLogprobDiff: number;
  tokens: number;
}

function logSoftmax(row: Float32Array, invT: number): Float64Array {
  const out = new Float64Array(row.length);
  let m = -Infinity;
  for (let i = 0; i < row.length; i++) m = Math.max(m, row[i] * invT);
  let z = 0;
  for (let i = 0; i < row.length; i++) z += Math.exp(row[i] * invT - m);
  const lz = m + Math.log(z);
  for (let i = 0; i < row.length; i++) out[i] = row[i] * invT - lz;
  return out;
}

/**
 * KL(rollout ‖ learner) per completion token, on the full softmax at `temperature` (untruncated: top-k/top-p would
 * make the KL infinite wherever the learner keeps mass the rollout cut). Both weight sets must share a model config.
 */
export async function exactKl(
  rollout: DecodeWeights,
  learner: DecodeWeights,
  seqs: MismatchSequence[],
  temperature = 1,
  padId = 0,
  /** Sequences per forward: bounds the two [group·length, V] logits read-backs. */
  group = 8,
): Promise<MismatchReport> {
  const gpu = learner.model.gpu;
  const V = learner.model.config.vocabSize;
  if (rollout.model.config.vocabSize !== V) throw new Error('exactKl: rollout and learner vocabularies differ');
  const invT = 1 / temperature;
  let sum = 0;
  let max = 0;
  let absDiff = 0;
  let n = 0;
  for (let g0 = 0; g0 < seqs.length; g0 += group) {
    const part = seqs.slice(g0, g0 + group);
    const full = part.map((s) => [...s.prompt, ...s.completion]);
    const r = forwardAllLogits(rollout, full, padId);
    const l = forwardAllLogits(learner, full, padId);
    const P = r.P;
    const rl = await gpu.readF32(r.logits, full.length * P * V);
    const ll = await gpu.readF32(l.logits, full.length * P * V);
    r.logits.destroy();
    l.logits.destroy();
    part.forEach((s, b) => {
      for (let i = 0; i < s.completion.length; i++) {
        // The logits at slot t predict the token at slot t + 1.
        const off = (b * P + r.pads[b] + s.prompt.length - 1 + i) * V;
        const lr = logSoftmax(rl.subarray(off, off + V), invT);
        const lq = logSoftmax(ll.subarray(off, off + V), invT);
        let kl = 0;
        for (let j = 0; j < V; j++) kl += Math.exp(lr[j]) * (lr[j] - lq[j]);
        kl = Math.max(kl, 0);
        sum += kl;
        max = Math.max(max, kl);
        const t = s.completion[i];
        absDiff += Math.abs(lr[t] - lq[t]);
        n++;
      }
    });
  }
  return { meanKl: n ? sum / n : 0, maxKl: max, meanAbsLogprobDiff: n ? absDiff / n : 0, tokens: n };
}

/**
 * k3 estimate of KL(rollout ‖ learner) from realised tokens x ~ rollout: mean of (r − 1 − log r), r = p_learner(x) /
 * p_rollout(x). Both log-prob lists must be of the same (processed) distribution family to be comparable.
 */
export function sampledKl(rolloutLogprobs: ArrayLike<number>, learnerLogprobs: ArrayLike<number>): number {
  if (rolloutLogprobs.length !== learnerLogprobs.length) throw new Error('sampledKl: length mismatch');
  let s = 0;
  for (let i = 0; i < rolloutLogprobs.length; i++) {
    const lr = learnerLogprobs[i] - rolloutLogprobs[i];
    s += Math.exp(lr) - 1 - lr;
  }
  return rolloutLogprobs.length ? s / rolloutLogprobs.length : 0;
}
