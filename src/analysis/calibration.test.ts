// Calibration of the paired intervals on simulated records with a known effect: per-task pass rates drawn from a
// population, 8 samples per task and evaluation, mode A a fixed number of points above mode B on every task. The 95%
// intervals must cover the true difference about 95% of the time, and under no effect the paired test (interval
// excludes 0) must reject about 5% of the time, within the binomial error of the number of simulations.
import { describe, expect, it } from 'vitest';
import { problemRecord, type ProblemEval } from '../run/eval-ci';
import { pairedDeltaSeeds } from './paired-delta';
import { Rng } from '../rl/rng';

const SIMS = 300;
const TASKS = 60;
const SAMPLES = 8;

/** One simulated evaluation: every task's passes out of SAMPLES at the given pass rates. */
function evaluation(rates: readonly number[], rng: Rng): ProblemEval[] {
  return rates.map((p, t) => {
    let passed = 0;
    for (let k = 0; k < SAMPLES; k++) if (rng.next() < p) passed++;
    return problemRecord(`fam/t${t}`, SAMPLES, passed, false);
  });
}

/** Share of simulations whose interval covers `effect` (points) and share whose interval excludes 0. */
function simulate(effect: number, seeds: number, seedSd: number, salt: number): { cover: number; reject: number } {
  const rng = new Rng(4711 + salt);
  let cover = 0;
  let reject = 0;
  for (let sim = 0; sim < SIMS; sim++) {
    const base = Array.from({ length: TASKS }, () => 0.05 + 0.6 * rng.next());
    const pairs = Array.from({ length: seeds }, () => {
      // Training randomness: each seed's gap moves by a normal amount with SD seedSd (points), the same on all tasks.
      const shift = seedSd * Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
      return {
        a: evaluation(
          base.map((p) => p + (effect + shift) / 100),
          rng,
        ),
        b: evaluation(base, rng),
      };
    });
    const d = pairedDeltaSeeds(pairs, 'coderPass1', { reps: 1000, seed: sim })!;
    if (d.ci[0] <= effect && effect <= d.ci[1]) cover++;
    if (d.ci[0] > 0 || d.ci[1] < 0) reject++;
  }
  return { cover: cover / SIMS, reject: reject / SIMS };
}

// Three binomial standard errors of a rate near 95% (or 5%) over SIMS simulations: about ±3.8 points.
const TOL = 3 * Math.sqrt((0.05 * 0.95) / SIMS);

describe('paired bootstrap intervals on simulated records', () => {
  it('one seed: 95% intervals cover a 10-point effect about 95% of the time; under no effect about 5% reject', () => {
    const withEffect = simulate(10, 1, 0, 1);
    const none = simulate(0, 1, 0, 2);
    console.log(
      `one seed: coverage ${withEffect.cover}, rejection under no effect ${none.reject} (±${TOL.toFixed(3)})`,
    );
    expect(Math.abs(withEffect.cover - 0.95)).toBeLessThan(TOL);
    expect(Math.abs(none.reject - 0.05)).toBeLessThan(TOL);
    expect(withEffect.reject).toBeGreaterThan(0.9); // and it sees a 10-point effect over 60 tasks
  });

  it('two seeds pooled, the bootstrap resampling seeds and tasks: no worse than nominal without seed spread', () => {
    const withEffect = simulate(5, 2, 0, 3);
    const none = simulate(0, 2, 0, 4);
    console.log(`two seeds: coverage ${withEffect.cover}, rejection under no effect ${none.reject}`);
    // With no seed-to-seed spread the seed draws only add width: conservative, never anti-conservative.
    expect(withEffect.cover).toBeGreaterThan(0.95 - TOL);
    expect(none.reject).toBeLessThan(0.05 + TOL);
  });
});
