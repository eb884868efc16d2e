// logprobs forward/backward against the float64 CPU reference on fresh random data (large logits, V up to 152k).
import { describe, expect, it } from 'vitest';
import { logprobsBackward, logprobsBackwardRef, logprobsForward, logprobsForwardRef } from './logprobs';
import { freshSeed, maxAbsDiff, mulberry32, randomF32 } from '../../testing/random';
import { sampledCentralDiffs } from '../../testing/loss-check';
import { itRowCases } from '../../testing/row-cases';

const cases = [
  { T: 5, V: 37, temperature: 1, scale: 3, offset: 0, tol: 2e-5 },
  { T: 2, V: 600, temperature: 1, scale: 3, offset: 0, tol: 2e-5, wg: 64 }, // a real-GPU-like workgroup size (256 compiles slowly on SwiftShader)
  { T: 3, V: 300, temperature: 0.9, scale: 3, offset: 0, tol: 2e-5, wg: 4 },
  { T: 3, V: 1031, temperature: 0.7, scale: 20, offset: 500, tol: 3e-4 },
  { T: 2, V: 152064, temperature: 1.3, scale: 8, offset: -40, tol: 1e-4 },
];

describe('logprobs', () => {
  const seed = freshSeed();
  const rng = mulberry32(seed);
  const title = (c: (typeof cases)[number]) =>
    `T=${c.T} V=${c.V} temp=${c.temperature} wg=${c.wg ?? 'auto'} (seed ${seed})`;
  itRowCases(cases, title, rng, async (gpu, c, logits, targets) => {
    const { T, V } = c;
    const dlogp = randomF32(T, rng, 1);
    const dent = randomF32(T, rng, 1);
    const gl = gpu.buffer('logits', logits);
    const gt = gpu.buffer('targets', targets);
    const [lp, ent, lse] = ['logp', 'entropy', 'lse'].map((n) => gpu.buffer(n, T * 4));
    logprobsForward(gpu, lp, ent, lse, gl, gt, c);
    const want = logprobsForwardRef(logits, targets, c);
    const dLp = maxAbsDiff(await gpu.readF32(lp, T), want.logp);
    const dEnt = maxAbsDiff(await gpu.readF32(ent, T), want.entropy);
    const dLse = maxAbsDiff(await gpu.readF32(lse, T), want.lse);
    console.log(
      `logprobs fwd T=${T} V=${V}: max abs diff logp ${dLp.toExponential(2)} entropy ${dEnt.toExponential(2)} lse ${dLse.toExponential(2)}`,
    );
    expect(dLp).toBeLessThan(c.tol);
    expect(dEnt).toBeLessThan(c.tol);
    expect(dLse).toBeLessThan(c.tol);

    const gdl = gpu.buffer('dlogp', dlogp);
    const gde = gpu.buffer('dentropy', dent);
    const dlogits = gpu.buffer('dlogits', T * V * 4);
    for (const withEnt of [false, true]) {
      logprobsBackward(gpu, dlogits, gdl, withEnt ? gde : null, gl, gt, lse, ent, c);
      const wantD = logprobsBackwardRef(logits, targets, dlogp, withEnt ? dent : null, c);
      const dD = maxAbsDiff(await gpu.readF32(dlogits, T * V), wantD);
      console.log(`logprobs bwd T=${T} V=${V} dentropy=${withEnt}: max abs diff ${dD.toExponential(2)}`);
      expect(dD).toBeLessThan(c.tol);
    }
    [gl, gt, lp, ent, lse, gdl, gde, dlogits].forEach((b) => b.destroy());
  });

  it('reference backward matches finite differences of the reference forward', () => {
    const shape = { T: 2, V: 7, temperature: 0.8 };
    const logits = Array.from(randomF32(14, rng, 2), Number);
    const targets = [3, 6];
    const dlogp = [0.7, -1.1];
    const dent = [0.4, 0.9];
    const f = (x: number[]) => {
      const r = logprobsForwardRef(x, targets, shape);
      return r.logp.reduce((a, v, t) => a + v * dlogp[t] + r.entropy[t] * dent[t], 0);
    };
    const analytic = logprobsBackwardRef(logits, targets, dlogp, dent, shape);
    const fd = sampledCentralDiffs(logits, null, f, 1e-6);
    const diff = maxAbsDiff(analytic, fd);
    console.log(`logprobs reference vs finite differences: max abs diff ${diff.toExponential(2)}`);
    expect(diff).toBeLessThan(1e-6);
  });
});
