// Float64 losses on reference logits, with dL/dlogits: SFT cross-entropy and the GRPO token loss (TRL semantics).
// Written independently of the GPU kernels so the gradient check does not trust them.
import { logSoftmax, type F64 } from './reference-ops';

/** Logits at token t predict targets[t] (callers shift by one); mask/weights select which tokens count. */
export interface SftLossInput {
  logits: F64;
  T: number;
  V: number;
  targets: ArrayLike<number>;
  mask: ArrayLike<number>;
}

/** Mean cross-entropy over masked tokens: Σ m·(−log p(target)) / Σ m. */
export function sftLossRef(inp: SftLossInput): { loss: number; dLogits: F64 } {
  const { logits, T, V, targets, mask } = inp;
  const lp = logSoftmax(logits, T, V);
  let denom = 0;
  for (let t = 0; t < T; t++) denom += mask[t];
  const scale = 1 / Math.max(denom, 1e-30);
  let loss = 0;
  const dLogits = new Float64Array(T * V);
  for (let t = 0; t < T; t++) {
    const m = mask[t];
    if (!m) continue;
    loss -= m * lp[t * V + targets[t]] * scale;
    for (let i = 0; i < V; i++) dLogits[t * V + i] = m * scale * Math.exp(lp[t * V + i]);
    dLogits[t * V + targets[t]] -= m * scale;
  }
  return { loss, dLogits };
}

export type LossType = 'grpo' | 'dr_grpo' | 'dapo';

/** GRPO hyper-parameters with TRL's names; dualClipC is verl's clip_ratio_c (dual-clip PPO, Ye et al. 2020). */
export interface GrpoLossConfig {
  epsilonLow: number;
  epsilonHigh: number;
  /** Dual-clip bound c for negative advantages; c <= 1 (or Infinity) disables it, as in the GPU kernel. */
  dualClipC: number;
  /** k3 KL coefficient; 0 disables the KL term (refLogp is then ignored). */
  beta: number;
  lossType: LossType;
  /** dr_grpo's constant normaliser is batch · maxCompletionLength. */
  maxCompletionLength: number;
}

export const DEFAULT_GRPO: GrpoLossConfig = {
  epsilonLow: 0.2,
  epsilonHigh: 0.28,
  dualClipC: 10,
  beta: 0.001,
  lossType: 'dapo',
  maxCompletionLength: 256,
};

export interface GrpoTokenInput {
  /** [B, S] learner log-probs of the sampled tokens. */
  logp: ArrayLike<number>;
  /** [B, S] log-probs under the policy that generated the batch (the ratio's denominator). */
  oldLogp: ArrayLike<number>;
  /** [B, S] reference-policy log-probs (for the KL); may be omitted when beta = 0. */
  refLogp?: ArrayLike<number>;
  /** [B] group-relative advantage of each sequence. */
  advantages: ArrayLike<number>;
  /** [B, S] 1 on completion tokens that count (prompt and padding are 0). */
  mask: ArrayLike<number>;
  /** [B, S] optional per-token importance weight (truncated IS between rollout and learner), multiplies the loss. */
  isWeight?: ArrayLike<number>;
  B: number;
  S: number;
}

/**
 * Per token: r = exp(logp − oldLogp); pg = −min(r·A, clip(r, 1−εl, 1+εh)·A); for A < 0, pg = min(pg, −c·A)
 * (dual clip); loss_t = w_t·pg + β·k3 with k3 = exp(ref − logp) − (ref − logp) − 1. Then normalise:
 * grpo: mean over sequences of the per-sequence token mean; dr_grpo: Σ / (B·maxCompletionLength); dapo: Σ / Σ mask.
 * Returns the loss and dL/dlogp (zero where the mask is zero).
 */
export function grpoLossRef(inp: GrpoTokenInput, cfg: GrpoLossConfig): { loss: number; dLogp: F64; kl: number } {
  const { B, S, logp, oldLogp, refLogp, advantages, mask, isWeight } = inp;
  const dLogp = new Float64Array(B * S);
  const tokenWeight = normalisers(mask, B, S, cfg);
  let loss = 0;
  let klSum = 0;
  let count = 0;
  for (let b = 0; b < B; b++) {
    const A = advantages[b];
    for (let s = 0; s < S; s++) {
      const t = b * S + s;
      const m = mask[t];
      if (!m) continue;
      const w = tokenWeight[t] * m;
      const r = Math.exp(logp[t] - oldLogp[t]);
      const rc = Math.min(Math.max(r, 1 - cfg.epsilonLow), 1 + cfg.epsilonHigh);
      const unclipped = r * A <= rc * A;
      let pg = -(unclipped ? r * A : rc * A);
      let dpg = unclipped ? -r * A : 0;
      if (A < 0 && cfg.dualClipC > 1 && Number.isFinite(cfg.dualClipC) && -cfg.dualClipC * A < pg) {
        pg = -cfg.dualClipC * A;
        dpg = 0;
      }
      const iw = isWeight ? isWeight[t] : 1;
      let tokLoss = iw * pg;
      let dTok = iw * dpg;
      if (cfg.beta !== 0) {
        if (!refLogp) throw new Error('grpoLossRef: beta ≠ 0 needs refLogp');
        // verl low_var_kl: the log-ratio clamped to ±20, the estimate to ±10 (no gradient where a clamp acts).
        const d0 = refLogp[t] - logp[t];
        const d = Math.min(20, Math.max(-20, d0));
        const k = Math.exp(d) - d - 1;
        const k3 = Math.min(10, k);
        tokLoss += cfg.beta * k3;
        dTok += Math.abs(d0) <= 20 && k <= 10 ? cfg.beta * (1 - Math.exp(d)) : 0;
        klSum += k3 * m;
      }
      count += m;
      loss += w * tokLoss;
      dLogp[t] = w * dTok;
    }
  }
  return { loss, dLogp, kl: count > 0 ? klSum / count : 0 };
}

/** The factor each token's loss is multiplied by under the chosen loss_type. */
function normalisers(mask: ArrayLike<number>, B: number, S: number, cfg: GrpoLossConfig): F64 {
  const w = new Float64Array(B * S);
  if (cfg.lossType === 'grpo') {
    for (let b = 0; b < B; b++) {
      let n = 0;
      for (let s = 0; s < S; s++) n += mask[b * S + s];
      w.fill(1 / (Math.max(n, 1) * B), b * S, (b + 1) * S);
    }
  } else if (cfg.lossType === 'dr_grpo') {
    w.fill(1 / (B * cfg.maxCompletionLength));
  } else {
    let n = 0;
    for (let t = 0; t < B * S; t++) n += mask[t];
    w.fill(1 / Math.max(n, 1));
  }
  return w;
}

/** Token log-probs of targets from logits [T, V]. */
export function gatherLogprobsRef(logits: F64, T: number, V: number, targets: ArrayLike<number>): F64 {
  const lp = logSoftmax(logits, T, V);
  const out = new Float64Array(T);
  for (let t = 0; t < T; t++) out[t] = lp[t * V + targets[t]];
  return out;
}

/** dL/dlogits from dL/dlogp of gathered targets: dlogits_v = g·(1[v = target] − softmax_v). */
export function logprobsBackwardRef(logits: F64, T: number, V: number, targets: ArrayLike<number>, dLogp: F64): F64 {
  const lp = logSoftmax(logits, T, V);
  const d = new Float64Array(T * V);
  for (let t = 0; t < T; t++) {
    const g = dLogp[t];
    if (g === 0) continue;
    for (let i = 0; i < V; i++) d[t * V + i] = -g * Math.exp(lp[t * V + i]);
    d[t * V + targets[t]] += g;
  }
  return d;
}
