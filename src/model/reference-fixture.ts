// Shared test fixture: a micro model, a padded batch and SFT/GRPO objectives that exercise every code path.
import { preset, type ModelConfig } from './config';
import { initParams, seededRandom } from './init';
import { buildLayout, type Layout } from './layout';
import { referenceForward, type BatchInput } from './reference';
import { gatherLogprobsRef, type GrpoLossConfig } from './reference-loss';
import type { GrpoObjective, SftObjective } from './reference-grad';

export interface GradCase {
  layout: Layout;
  /** f32 parameters (what the GPU gets); the reference runs on a float64 copy of exactly these values. */
  params: Float32Array;
  input: Required<BatchInput>;
  sft: SftObjective;
  grpo: GrpoObjective;
}

/**
 * B = 2, S = 7: row 0 is right-padded (last token a pad), row 1 left-padded (two pads, positions start at 0 on the
 * first real token). Weights are larger than the default init and norms/biases are jittered so that no gradient
 * path is trivially zero. The GRPO old-policy log-probs are the current ones shifted per token so that the
 * unclipped, clipped-high, clipped-low and dual-clip branches all occur.
 */
export function makeGradCase(seed: number, overrides: Partial<ModelConfig> = {}): GradCase {
  const config = preset('micro', { vocabSize: 64, maxSeqLen: 16, ...overrides });
  const layout = buildLayout(config);
  const params = initParams(layout, seed, { std: 0.25, biasStd: 0.1, normJitter: 0.2 });
  const rand = seededRandom(seed ^ 0x5bd1e995);
  const B = 2;
  const S = 7;
  const T = B * S;
  const tokens = new Int32Array(T);
  for (let t = 0; t < T; t++) tokens[t] = Math.floor(rand() * config.vocabSize);
  const valid = new Float64Array(T).fill(1);
  const positions = new Int32Array(T);
  valid[S - 1] = 0; // row 0: right pad
  valid[S] = 0; // row 1: two left pads
  valid[S + 1] = 0;
  for (let s = 0; s < S; s++) {
    positions[s] = s;
    positions[S + s] = Math.max(0, s - 2);
  }
  const input: Required<BatchInput> = { batch: B, seqLen: S, tokens, positions, valid };
  // Targets: the next token (last position gets an arbitrary one, masked out anyway).
  const targets = new Int32Array(T);
  for (let b = 0; b < B; b++) for (let s = 0; s < S; s++) targets[b * S + s] = s + 1 < S ? tokens[b * S + s + 1] : 0;
  const sftMask = new Float64Array(T);
  for (let b = 0; b < B; b++)
    for (let s = 0; s < S - 1; s++) sftMask[b * S + s] = valid[b * S + s] && valid[b * S + s + 1] ? 1 : 0;
  // GRPO: prompt = first 3 positions of each row, completion after; pads excluded.
  const grpoMask = new Float64Array(T);
  for (let b = 0; b < B; b++)
    for (let s = 2; s < S - 1; s++) grpoMask[b * S + s] = valid[b * S + s] && valid[b * S + s + 1] ? 1 : 0;
  const fwd = referenceForward(layout, Float64Array.from(params), input);
  const logp = gatherLogprobsRef(fwd.logits, T, config.vocabSize, targets);
  const shifts = [0.05, -0.1, 0.5, -0.6, 3.0, 0.15, -0.02];
  const oldLogp = new Float64Array(T);
  const refLogp = new Float64Array(T);
  for (let t = 0; t < T; t++) {
    // logp − oldLogp = shift: ratio e^shift spans inside the trust region, above 1+εh, below 1−εl and above c.
    oldLogp[t] = logp[t] - shifts[t % shifts.length];
    refLogp[t] = logp[t] + 0.3 * Math.sin(t + 1);
  }
  const config2: GrpoLossConfig = {
    epsilonLow: 0.2,
    epsilonHigh: 0.28,
    dualClipC: 3,
    beta: 0.04,
    lossType: 'grpo',
    maxCompletionLength: S,
  };
  return {
    layout,
    params,
    input,
    sft: { kind: 'sft', targets, mask: sftMask },
    grpo: { kind: 'grpo', targets, mask: grpoMask, oldLogp, refLogp, advantages: [0.8, -1.1], config: config2 },
  };
}
