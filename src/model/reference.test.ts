// The float64 CPU reference's analytic gradients against float64 central finite differences, for SFT and GRPO.
import { describe, expect, it } from 'vitest';
import { freshSeed } from '../testing/random';
import { makeGradCase } from './reference-fixture';
import { finiteDifference, referenceLoss, type Objective } from './reference-grad';
import { grpoLossRef, type GrpoLossConfig } from './reference-loss';
import { seededRandom } from './init';

/** Per tensor: the entry with the largest analytic gradient plus two random ones. */
function sampleIndices(
  layout: ReturnType<typeof makeGradCase>['layout'],
  grads: Float64Array,
  rand: () => number,
): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const t of layout.tensors) {
    let best = t.offset;
    for (let i = t.offset; i < t.offset + t.size; i++) if (Math.abs(grads[i]) > Math.abs(grads[best])) best = i;
    out.set(t.name, [best, t.offset + Math.floor(rand() * t.size), t.offset + Math.floor(rand() * t.size)]);
  }
  return out;
}

function checkObjective(seed: number, which: 'sft' | 'grpo', tied: boolean, temperature = 1): void {
  const gc = makeGradCase(seed, { tiedEmbeddings: tied });
  const obj: Objective = which === 'sft' ? gc.sft : { ...gc.grpo, temperature };
  const p64 = Float64Array.from(gc.params);
  const { grads, loss } = referenceLoss(gc.layout, p64, gc.input, obj);
  if (!grads) throw new Error('no grads');
  const rand = seededRandom(seed + 17);
  let worst = 0;
  for (const [name, idx] of sampleIndices(gc.layout, grads, rand)) {
    const fd = idx.map((i) => finiteDifference(gc.layout, p64, gc.input, obj, i));
    const an = idx.map((i) => grads[i]);
    const scale = Math.max(...fd.map(Math.abs), 1e-8);
    const err = Math.max(...fd.map((f, k) => Math.abs(f - an[k]))) / scale;
    worst = Math.max(worst, err);
    expect(
      err,
      `${which} ${name}: analytic ${an.map((x) => x.toExponential(3))} vs fd ${fd.map((x) => x.toExponential(3))}`,
    ).toBeLessThan(1e-5);
  }
  console.log(
    `reference ${which} (tied=${tied}, temperature ${temperature}, seed ${seed}) loss ${loss.toFixed(5)}: worst per-tensor rel err vs FD ${worst.toExponential(2)}`,
  );
}

describe('float64 reference gradients vs finite differences', () => {
  const seed = freshSeed();
  it(`SFT, tied embeddings (seed ${seed})`, () => checkObjective(seed, 'sft', true));
  it(`GRPO, tied embeddings (seed ${seed})`, () => checkObjective(seed, 'grpo', true));
  it(`SFT and GRPO, untied lm_head (seed ${seed})`, () => {
    checkObjective(seed + 1, 'sft', false);
    checkObjective(seed + 1, 'grpo', false, 0.7);
  });

  it('padding: pad keys never influence real tokens', () => {
    const gc = makeGradCase(seed);
    const p64 = Float64Array.from(gc.params);
    const base = referenceLoss(gc.layout, p64, gc.input, gc.sft, false).logits;
    const tokens = Int32Array.from(gc.input.tokens);
    tokens[gc.input.seqLen] = (tokens[gc.input.seqLen] + 5) % gc.layout.config.vocabSize; // a left pad of row 1
    const moved = referenceLoss(gc.layout, p64, { ...gc.input, tokens }, gc.sft, false).logits;
    const V = gc.layout.config.vocabSize;
    const S = gc.input.seqLen;
    for (let s = 2; s < S; s++) {
      for (let v = 0; v < V; v++) expect(moved[(S + s) * V + v]).toBeCloseTo(base[(S + s) * V + v], 12);
    }
  });
});

describe('GRPO token loss (float64 reference)', () => {
  const cfg: GrpoLossConfig = {
    epsilonLow: 0.2,
    epsilonHigh: 0.28,
    dualClipC: 3,
    beta: 0,
    lossType: 'dapo',
    maxCompletionLength: 4,
  };
  const one = (logp: number, old: number, A: number, c: Partial<GrpoLossConfig> = {}) =>
    grpoLossRef({ logp: [logp], oldLogp: [old], advantages: [A], mask: [1], B: 1, S: 1 }, { ...cfg, ...c });

  it('clips the ratio on the side the advantage points to, and dual-clips negative advantages', () => {
    expect(one(0.1, 0, 1).loss).toBeCloseTo(-Math.exp(0.1), 12); // inside the trust region
    expect(one(1, 0, 1).loss).toBeCloseTo(-1.28, 12); // ratio e > 1+εh, A > 0: clipped, no gradient
    expect(one(1, 0, 1).dLogp[0]).toBe(0);
    expect(one(-1, 0, -1).loss).toBeCloseTo(0.8, 12); // ratio < 1−εl, A < 0: clipped
    expect(one(2, 0, -1).loss).toBeCloseTo(3, 12); // ratio e² > c: dual clip caps the loss at c·|A|
    expect(one(2, 0, -1).dLogp[0]).toBe(0);
    expect(one(0.5, 0, -1).loss).toBeCloseTo(Math.exp(0.5), 12); // A < 0, ratio high: unclipped (pessimistic)
  });

  it('normalises by loss_type', () => {
    const inp = {
      logp: [0, 0, 0, 0, 0, 0],
      oldLogp: [0, 0, 0, 0, 0, 0],
      advantages: [1, 2],
      mask: [1, 1, 0, 1, 0, 0],
      B: 2,
      S: 3,
    };
    // per-token loss = −A; row 0 has 2 tokens (A = 1), row 1 has 1 token (A = 2).
    expect(grpoLossRef(inp, { ...cfg, lossType: 'grpo' }).loss).toBeCloseTo(-(1 + 2) / 2, 12);
    expect(grpoLossRef(inp, { ...cfg, lossType: 'dapo' }).loss).toBeCloseTo(-(1 + 1 + 2) / 3, 12);
    expect(grpoLossRef(inp, { ...cfg, lossType: 'dr_grpo' }).loss).toBeCloseTo(-(1 + 1 + 2) / (2 * 4), 12);
  });

  it('k3 KL is zero at the reference and positive elsewhere', () => {
    const at = grpoLossRef(
      { logp: [-1], oldLogp: [-1], refLogp: [-1], advantages: [0], mask: [1], B: 1, S: 1 },
      { ...cfg, beta: 0.5 },
    );
    expect(at.loss).toBeCloseTo(0, 12);
    const off = grpoLossRef(
      { logp: [-1], oldLogp: [-1], refLogp: [-1.5], advantages: [0], mask: [1], B: 1, S: 1 },
      { ...cfg, beta: 0.5 },
    );
    expect(off.loss).toBeCloseTo(0.5 * (Math.exp(-0.5) + 0.5 - 1), 12);
    expect(off.kl).toBeGreaterThan(0);
  });
});
