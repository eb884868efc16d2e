// Float64 plain-loop reference of the GRPO token loss (see grpo-loss.ts), used by tests and the gradient check.
import type { GrpoLossConfig, GrpoLossInputs, GrpoLossOptions, GrpoLossShape, GrpoStats } from './grpo-loss';

type Arr = ArrayLike<number>;

interface TokenTerms {
  loss: number;
  dloss: number;
  kl: number;
  low: number;
  high: number;
  isw: number;
  dual: number;
  mismatch: number;
}

function tokenTerms(x: GrpoLossInputs<Arr>, t: number, b: number, c: GrpoLossConfig): TokenTerms {
  const a = x.advantages[b];
  const lp = x.logp[t];
  const old = x.oldLogp[t];
  const d = lp - old;
  const ratio = Math.exp(Math.min(20, Math.max(-20, d)));
  const pg1 = -a * ratio;
  const pg2 = -a * Math.min(1 + c.epsilon_high, Math.max(1 - c.epsilon_low, ratio));
  const clip1 = Math.max(pg1, pg2);
  let pg = clip1;
  let dpg = pg1 >= pg2 && d >= -20 && d <= 20 ? -a * ratio : 0;
  let dual = 0;
  if (c.dual_clip_c > 1 && a < 0) {
    const pg3 = -a * c.dual_clip_c;
    if (pg3 < clip1) {
      pg = pg3;
      dpg = 0;
    }
    if (clip1 > pg3) dual = 1;
  }
  let isw = 1;
  let mismatch = 0;
  if (x.rolloutLogp) {
    const dr = old - x.rolloutLogp[t];
    isw = Math.min(Math.exp(dr), c.is_cap);
    mismatch = Math.exp(dr) - 1 - dr;
  }
  let kl = 0;
  let dkl = 0;
  if (x.refLogp) {
    const r0 = x.refLogp[t] - lp;
    const r = Math.min(20, Math.max(-20, r0));
    const k = Math.exp(r) - r - 1;
    kl = Math.min(10, Math.max(-10, k));
    dkl = Math.abs(r0) <= 20 && k <= 10 ? 1 - Math.exp(r) : 0;
  }
  const low = ratio < 1 - c.epsilon_low && a < 0 ? 1 : 0;
  const high = ratio > 1 + c.epsilon_high && a > 0 ? 1 : 0;
  return { loss: isw * pg + c.beta * kl, dloss: isw * dpg + c.beta * dkl, kl, low, high, isw, dual, mismatch };
}

function seqCounts(x: GrpoLossInputs<Arr>, shape: GrpoLossShape): { perSeq: number[]; total: number } {
  const perSeq: number[] = [];
  for (let b = 0; b < shape.B; b++) {
    let n = 0;
    for (let s = 0; s < shape.S; s++) n += x.mask[b * shape.S + s];
    perSeq.push(n);
  }
  return { perSeq, total: perSeq.reduce((p, n) => p + n, 0) };
}

function norm(
  b: number,
  counts: { perSeq: number[]; total: number },
  shape: GrpoLossShape,
  c: GrpoLossConfig,
  o: GrpoLossOptions,
): number {
  if (c.loss_type === 'grpo') return 1 / (shape.B * Math.max(1, counts.perSeq[b]));
  if (c.loss_type === 'dr_grpo') return 1 / (shape.B * c.max_completion_length);
  return 1 / (o.normTokens && o.normTokens > 0 ? o.normTokens : Math.max(1, counts.total));
}

/** Loss and statistics, aggregated the way TRL writes each loss_type (independent of the GPU's pass structure). */
export function grpoLossForwardRef(
  x: GrpoLossInputs<Arr>,
  shape: GrpoLossShape,
  c: GrpoLossConfig,
  o: GrpoLossOptions = {},
): GrpoStats {
  const counts = seqCounts(x, shape);
  const seqLoss: number[] = [];
  const sums = { kl: 0, low: 0, high: 0, isw: 0, dual: 0, mismatch: 0 };
  for (let b = 0; b < shape.B; b++) {
    let sl = 0;
    for (let s = 0; s < shape.S; s++) {
      const t = b * shape.S + s;
      const w = x.mask[t];
      if (w === 0) continue;
      const k = tokenTerms(x, t, b, c);
      sl += w * k.loss;
      for (const key of Object.keys(sums) as (keyof typeof sums)[]) sums[key] += w * k[key];
    }
    seqLoss.push(sl);
  }
  const total = seqLoss.reduce((p, v) => p + v, 0);
  let loss: number;
  if (c.loss_type === 'grpo') loss = seqLoss.reduce((p, v, b) => p + v / Math.max(1, counts.perSeq[b]), 0) / shape.B;
  else if (c.loss_type === 'dr_grpo') loss = total / (shape.B * c.max_completion_length);
  else loss = total / (o.normTokens && o.normTokens > 0 ? o.normTokens : Math.max(1, counts.total));
  const tokens = Math.max(1, counts.total);
  return {
    loss: loss * (o.lossScale ?? 1),
    kl: sums.kl / tokens,
    low_clip: sums.low / tokens,
    high_clip: sums.high / tokens,
    is_weight: sums.isw / tokens,
    dual_clip: sums.dual / tokens,
    completion_tokens: counts.total,
    mismatch_kl: sums.mismatch / tokens,
  };
}

/** Analytic dL/dlogp [T] of grpoLossForwardRef(...).loss. */
export function grpoLossBackwardRef(
  x: GrpoLossInputs<Arr>,
  shape: GrpoLossShape,
  c: GrpoLossConfig,
  o: GrpoLossOptions = {},
): Float64Array {
  const counts = seqCounts(x, shape);
  const out = new Float64Array(shape.B * shape.S);
  for (let b = 0; b < shape.B; b++) {
    for (let s = 0; s < shape.S; s++) {
      const t = b * shape.S + s;
      const w = x.mask[t];
      if (w === 0) continue;
      out[t] = (o.lossScale ?? 1) * norm(b, counts, shape, c, o) * w * tokenTerms(x, t, b, c).dloss;
    }
  }
  return out;
}
