// The variant-vs-base comparison on generated per-problem records: sign and size of the paired difference, the pooled
// row, runs without a partner or without the step left out, and another metric than pass@1 (the Tester's).
import { describe, expect, it } from 'vitest';
import { bootstrapCI, summarize, type ProblemEval } from '../run/eval-ci';
import { liftedRecords } from './report-fixture';
import { Rng } from '../rl/rng';
import type { EvalPoint } from '../run/run-layout';
import type { TargetRun } from './targets';
import { againstMode, variantDeltas, variantTable } from './variant-delta';

const P = 50;
const N = 8;

/** Problem i passes with probability 0.6·d_i + lift; d_i is the same in every evaluation. */
const records = (seed: number, lift: number): ProblemEval[] =>
  liftedRecords({ seed, lift, problems: P, spread: 0.6, difficultySeed: 3, samples: N });

function run(mode: string, seed: number, lift: number, step = 100): TargetRun {
  const point = (s: number, xs: ProblemEval[]): EvalPoint => ({
    step: s,
    rows: [{ split: 'heldout', problems: P, samples: N, ...summarize(xs), ci: bootstrapCI(xs), perProblem: xs }],
  });
  return {
    name: `${mode}-s${seed}`,
    mode,
    seed,
    evals: [point(0, records(seed, 0)), point(step, records(seed * 7, lift))],
  };
}

describe('variantDeltas', () => {
  const seed = new Rng(Date.now() % 1e9).int(1e6) + 1;
  it(`finds a lifted variant above its base per seed and pooled (seed ${seed})`, () => {
    const variant = [run('code-a1', seed, 0.25), run('code-a1', seed + 1, 0.25)];
    const base = [run('code-a1', seed, 0), run('code-a1', seed + 1, 0), run('golden', seed, 0)];
    const rows = variantDeltas(variant, base, 100);
    expect(rows.map((r) => r.seed)).toEqual([String(seed), String(seed + 1), `pooled (${seed}, ${seed + 1})`]);
    for (const r of rows) {
      expect(r.delta.delta).toBeCloseTo(r.variant - r.base, 8);
      expect(r.delta.ci[0]).toBeGreaterThan(0);
    }
    // Pooling doubles the samples per problem: the pooled interval is narrower than either seed's.
    const width = (i: number) => rows[i].delta.ci[1] - rows[i].delta.ci[0];
    expect(width(2)).toBeLessThan(Math.max(width(0), width(1)));
    expect(rows[2].variant).toBeCloseTo((rows[0].variant + rows[1].variant) / 2, 8);
    const table = variantTable(rows, 100);
    expect(table).toHaveLength(2 + rows.length);
    expect(table[2]).toContain(`| code-a1 | ${seed} |`);
  });

  it('leaves out runs without a partner of the same mode and seed, or not evaluated at the step', () => {
    const variant = [run('code-a1', 1, 0.1), run('code-a1', 2, 0.1, 80), run('golden', 3, 0.1)];
    const base = [run('code-a1', 1, 0), run('code-a1', 2, 0), run('self-play', 3, 0)];
    const rows = variantDeltas(variant, base, 100);
    expect(rows.map((r) => `${r.mode}/${r.seed}`)).toEqual(['code-a1/1']);
    expect(variantDeltas(variant, base, 50)).toEqual([]);
    // Swapping the sides flips the sign.
    const back = variantDeltas(base, variant, 100);
    expect(back[0].delta.delta).toBeCloseTo(-rows[0].delta.delta, 8);
  });

  it('takes the base at another step when asked (the same problems seen at another batch size)', () => {
    const variant = [run('code-a1', 1, 0.3, 40), run('code-a1', 2, 0.3, 40)];
    const base = [run('code-a1', 1, 0, 20), run('code-a1', 2, 0, 20)];
    expect(variantDeltas(variant, base, 40)).toEqual([]); // the base has no step 40
    const rows = variantDeltas(variant, base, 40, 20);
    expect(rows.map((r) => r.seed)).toEqual(['1', '2', 'pooled (1, 2)']);
    for (const r of rows) expect(r.delta.ci[0]).toBeGreaterThan(0);
    expect(variantTable(rows, 40, 20)[0]).toContain('variant − base at step 40 (base at step 20) (95% CI, paired)');
    expect(variantTable(rows, 40)[0]).toContain('variant − base at step 40 (95% CI, paired)');
  });

  it('compares another metric when asked: the Tester’s mut@k, on its own scale', () => {
    /** Runs whose Tester kills `k` of 4 mutants per problem at the step (none at the start). */
    const tester = (seed: number, k: number): TargetRun => {
      const r = run('code-a1', seed, 0);
      const xs = r.evals[1].rows[0].perProblem!.map((p) => ({ ...p, mutants: 4, mutKilledByRef: k }));
      const rows = [{ ...r.evals[1].rows[0], ...summarize(xs), ci: bootstrapCI(xs), perProblem: xs }];
      return { ...r, evals: [r.evals[0], { step: 100, rows }] };
    };
    const rows = variantDeltas([tester(1, 3)], [tester(1, 1)], 100, 100, 'mutAtK');
    expect([rows[0].variant, rows[0].base, rows[0].delta.delta]).toEqual([75, 25, 50]);
    expect(variantDeltas([tester(1, 3)], [tester(1, 1)], 100)[0].delta.delta).toBeCloseTo(0, 10); // pass@1 alike
    expect(variantTable(rows, 100, 100, 'mutAtK')[0]).toMatch(/^\| mode \| seed \| variant mut@k \| base mut@k \|/);
  });
});

describe('againstMode', () => {
  it('compares every other mode with the named mode’s run of the same seed', () => {
    const runs = [run('code-a1', 1, 0.3), run('golden', 1, 0), run('code-a1', 2, 0.3), run('golden', 2, 0)];
    const { variant, base } = againstMode(runs, runs, 'golden');
    expect(variant.map((r) => r.name)).toEqual(['code-a1-s1', 'code-a1-s2']);
    expect(base.map((r) => `${r.name}:${r.mode}`)).toEqual(['golden-s1:code-a1', 'golden-s2:code-a1']);
    const rows = variantDeltas(variant, base, 100);
    expect(rows.map((r) => r.seed)).toEqual(['1', '2', 'pooled (1, 2)']);
    for (const r of rows) expect(r.delta.ci[0]).toBeGreaterThan(0); // code-a1 was lifted by 0.3, golden not
    expect(variantTable(rows, 100, 100, 'coderPass1', 'golden')[0]).toContain(
      '| mode | seed | mode pass@1 (%) | golden pass@1 (%) | mode − golden at step 100 (95% CI, paired) |',
    );
    // Against a mode with no runs there is nothing to pair.
    expect(
      variantDeltas(...(Object.values(againstMode(runs, runs, 'self-play')) as [TargetRun[], TargetRun[]]), 100),
    ).toEqual([]);
  });
});
