// Float64 plain-loop reference of the KTO loss (see kto-loss.ts), used by tests and the gradient check.
import type { KtoLossConfig, KtoLossInputs, KtoLossOptions, KtoLossShape, KtoStats } from './kto-loss';

type Arr = ArrayLike<number>;

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/** ℓ and dℓ/dr of one sequence with implied reward r against reference point z. */
export function ktoSeqTerms(label: number, r: number, z: number, c: KtoLossConfig): { loss: number; dr: number } {
  if (label > 0) {
    const x = c.beta * (r - z);
    return { loss: c.lambda_d * sigmoid(-x), dr: -c.lambda_d * c.beta * sigmoid(x) * sigmoid(-x) };
  }
  if (label < 0) {
    const x = c.beta * (z - r);
    return { loss: c.lambda_u * sigmoid(-x), dr: c.lambda_u * c.beta * sigmoid(x) * sigmoid(-x) };
  }
  return { loss: 0, dr: 0 };
}

function perSequence(x: KtoLossInputs<Arr>, shape: KtoLossShape): { r: number[]; n: number[] } {
  const r: number[] = [];
  const n: number[] = [];
  for (let b = 0; b < shape.B; b++) {
    let rb = 0;
    let nb = 0;
    for (let s = 0; s < shape.S; s++) {
      const t = b * shape.S + s;
      const w = x.mask[t];
      if (w === 0) continue;
      rb += w * (x.logp[t] - x.refLogp[t]);
      nb += w;
    }
    r.push(rb);
    n.push(nb);
  }
  return { r, n };
}

function referencePoint(r: number[], n: number[], o: KtoLossOptions): { z: number; meanR: number } {
  const withTokens = r.filter((_, b) => n[b] > 0);
  const meanR = withTokens.reduce((a, v) => a + v, 0) / Math.max(1, withTokens.length);
  return { z: o.zRef ?? Math.max(0, meanR), meanR };
}

export function ktoLossForwardRef(
  x: KtoLossInputs<Arr>,
  shape: KtoLossShape,
  c: KtoLossConfig,
  o: KtoLossOptions = {},
): KtoStats {
  const { r, n } = perSequence(x, shape);
  const { z, meanR } = referencePoint(r, n, o);
  let loss = 0;
  let rd = 0;
  let ru = 0;
  let nd = 0;
  let nu = 0;
  for (let b = 0; b < shape.B; b++) {
    const label = x.labels[b];
    loss += ktoSeqTerms(label, r[b], z, c).loss;
    if (label > 0) {
      rd += r[b];
      nd++;
    }
    if (label < 0) {
      ru += r[b];
      nu++;
    }
  }
  return {
    loss: ((o.lossScale ?? 1) * loss) / Math.max(1, nd + nu),
    z_ref: z,
    reward_desirable: rd / Math.max(1, nd),
    reward_undesirable: ru / Math.max(1, nu),
    num_desirable: nd,
    num_undesirable: nu,
    completion_tokens: n.reduce((a, v) => a + v, 0),
    mean_reward: meanR,
  };
}

/** Analytic dL/dlogp [T] of ktoLossForwardRef(...).loss with z held fixed (detached). */
export function ktoLossBackwardRef(
  x: KtoLossInputs<Arr>,
  shape: KtoLossShape,
  c: KtoLossConfig,
  o: KtoLossOptions = {},
): Float64Array {
  const { r, n } = perSequence(x, shape);
  const { z } = referencePoint(r, n, o);
  let labelled = 0;
  for (let b = 0; b < shape.B; b++) if (x.labels[b] !== 0) labelled++;
  const out = new Float64Array(shape.B * shape.S);
  for (let b = 0; b < shape.B; b++) {
    const d = ((o.lossScale ?? 1) * ktoSeqTerms(x.labels[b], r[b], z, c).dr) / Math.max(1, labelled);
    for (let s = 0; s < shape.S; s++) {
      const t = b * shape.S + s;
      if (x.mask[t] !== 0) out[t] = x.mask[t] * d;
    }
  }
  return out;
}
