// The targets' judge on generated per-problem records: the paired difference and its interval (sign, pairing,
// pooled metrics), each target's verdict on runs built to meet or miss it, and "not measured" when a run is short.
import { describe, expect, it } from 'vitest';
import { bootstrapCI, summarize, type ProblemEval } from '../run/eval-ci';
import { heldoutReport, liftedRecords } from './report-fixture';
import type { EvalPoint } from '../run/run-layout';
import {
  checkTargetsBlocks,
  judgeTargets,
  pairedDelta,
  poolSeeds,
  TARGETS_END,
  targetsBegin,
  targetsTable,
  type TargetRun,
  type TargetsMarker,
} from './targets';

const P = 60;
const N = 8;

/** Per-problem records: problem i passes with probability 0.6·d_i + lift (clamped), with the Tester's fields. */
const records = (seed: number, lift: number, tester: { mutK: number; wb: number; valid: number }): ProblemEval[] =>
  liftedRecords({
    seed,
    lift,
    problems: P,
    spread: 0.6,
    difficultySeed: 7, // the same problem difficulties in every evaluation
    samples: N,
    more: (r, rng) => {
      const hit = (q: number) => (rng.next() < q ? 1 : 0);
      r.refLines = 4;
      r.refCorrect = hit(0.5) + hit(0.5);
      r.mutants = 3;
      r.mutKilledByRef = hit(tester.mutK) + hit(tester.mutK) + hit(tester.mutK);
      r.mutKilledWhiteBox = hit(tester.wb) + hit(tester.wb) + hit(tester.wb);
      r.lines = 16;
      r.correct = [0, 1, 2, 3].reduce((a) => a + hit(tester.valid) + hit(tester.valid) + hit(tester.valid), 0);
    },
  });

const report = (perProblem: ProblemEval[]) => heldoutReport(perProblem);

const point = (step: number, xs: ProblemEval[]): EvalPoint => ({ step, rows: [report(xs)] });
const T0 = { mutK: 0.2, wb: 0.2, valid: 0.2 };

function run(mode: string, seed: number, end: ProblemEval[], step = 100, start = records(seed, 0, T0)): TargetRun {
  return { name: `${mode}-s${seed}`, mode, seed, evals: [point(0, start), point(step, end)] };
}

describe('pairedDelta', () => {
  it('is zero with a point interval for one evaluation against itself, and flips sign when swapped', () => {
    const a = records(1, 0.2, T0);
    const b = records(2, 0, T0);
    expect(pairedDelta(a, a, 'coderPass1')).toEqual({ delta: 0, ci: [0, 0], problems: P, seeds: 1 });
    const ab = pairedDelta(a, b, 'coderPass1')!;
    const ba = pairedDelta(b, a, 'coderPass1')!;
    expect(ab.delta).toBeCloseTo(100 * (summarize(a).coderPass1 - summarize(b).coderPass1), 10);
    expect(ba.delta).toBeCloseTo(-ab.delta, 10);
    expect(ab.ci[0]).toBeLessThanOrEqual(ab.delta);
    expect(ab.ci[1]).toBeGreaterThanOrEqual(ab.delta);
  });

  it('pairs problems: its interval is narrower than the two evaluations’ own intervals put together', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const a = records(seed, 0.15, T0);
      const b = records(seed + 100, 0, T0);
      const d = pairedDelta(a, b, 'coderPass1')!;
      const ca = bootstrapCI(a).coderPass1;
      const cb = bootstrapCI(b).coderPass1;
      // Unpaired, the difference's half-width is about the two half-widths combined in quadrature.
      const unpaired = 100 * Math.hypot((ca[1] - ca[0]) / 2, (cb[1] - cb[0]) / 2);
      expect((d.ci[1] - d.ci[0]) / 2).toBeLessThan(unpaired);
    }
  });

  it('recomputes pooled metrics from the counts (mut@k is killed / mutants over the draw, not a mean of shares)', () => {
    const a = records(3, 0, { ...T0, mutK: 0.6 });
    const b = records(4, 0, T0);
    const d = pairedDelta(a, b, 'mutAtK')!;
    expect(d.delta).toBeCloseTo(summarize(a).mutAtK - summarize(b).mutAtK, 10);
    expect(d.ci[0]).toBeGreaterThan(0);
  });

  it('uses only the problems both evaluations hold, and gives null when they share none', () => {
    const a = records(5, 0, T0);
    const b = records(6, 0, T0).slice(0, 10);
    expect(pairedDelta(a, b, 'coderPass1')!.problems).toBe(10);
    expect(
      pairedDelta(
        a,
        b.map((p) => ({ ...p, id: `other/${p.id}` })),
        'coderPass1',
      ),
    ).toBeNull();
  });
});

describe('judgeTargets', () => {
  const verdicts = (runs: TargetRun[]) => judgeTargets(runs, 100).map((l) => `${l.seed} ${l.verdict}`);

  it('meets every target when code-a1 climbs 25 points, golden less, self-play falls and its Tester colludes', () => {
    const runs = [1, 2].flatMap((seed) => [
      run('code-a1', seed, records(seed + 10, 0.25, { mutK: 0.6, wb: 0.5, valid: 0.4 })),
      run('golden', seed, records(seed + 20, 0.1, T0)),
      run('self-play', seed, records(seed + 30, -0.1, { mutK: 0.1, wb: 0.02, valid: 0.7 })),
    ]);
    expect(verdicts(runs)).toEqual([
      ...Array(4).fill('1 met'),
      ...Array(4).fill('2 met'),
      ...Array(4).fill('pooled (1, 2) met'),
    ]);
    expect(judgeTargets(runs, 100)[8].measured).toMatch(/^per seed met \/ met; pooled start /);
  });

  it('pools seeds per problem: pass@1 is the mean of the seeds, the paired interval narrower than either seed', () => {
    const seeds = [1, 2];
    const ca = seeds.map((s) => run('code-a1', s, records(s + 10, 0.08, T0)));
    const sp = seeds.map((s) => run('self-play', s, records(s + 30, 0, T0)));
    const [pca, psp] = [poolSeeds(ca)!, poolSeeds(sp)!];
    const end = (r: TargetRun) => r.evals.find((e) => e.step === 100)!.rows[0];
    expect(end(pca).coderPass1).toBeCloseTo((end(ca[0]).coderPass1 + end(ca[1]).coderPass1) / 2, 12);
    expect(end(pca).perProblem!.every((p) => p.n === 2 * N)).toBe(true);
    // The same mutant count in every seed, so the pooled kill share is the seeds' mean.
    expect(end(pca).mutAtK).toBeCloseTo((end(ca[0]).mutAtK + end(ca[1]).mutAtK) / 2, 12);
    const width = (a: TargetRun, b: TargetRun) => {
      const d = pairedDelta(end(a).perProblem!, end(b).perProblem!, 'coderPass1')!;
      return d.ci[1] - d.ci[0];
    };
    expect(width(pca, psp)).toBeLessThan(Math.min(width(ca[0], sp[0]), width(ca[1], sp[1])));
    // A seed missing, or a step one seed did not evaluate, is not pooled.
    expect(poolSeeds([ca[0], undefined])).toBeUndefined();
    const short = { ...ca[1], evals: ca[1].evals.filter((e) => e.step === 0) };
    expect(poolSeeds([ca[0], short])!.evals.map((e) => e.step)).toEqual([0]);
  });

  it('adds no pooled rows with one seed', () => {
    const lines = judgeTargets([run('code-a1', 1, records(11, 0.3, T0))], 100);
    expect(lines.map((l) => l.seed)).toEqual(['1', '1', '1', '1']);
  });

  it('misses the +10 target on a 5-point gain, the ordering when self-play wins, the Tester target without a gain', () => {
    const runs = [
      run('code-a1', 1, records(11, 0.05, T0)),
      run('golden', 1, records(21, 0, T0)),
      // Self-play's Tester grew more valid but also killed more mutants: no collusion.
      run('self-play', 1, records(31, 0.2, { mutK: 0.2, wb: 0.5, valid: 0.6 })),
    ];
    const lines = judgeTargets(runs, 100);
    expect(lines.map((l) => l.verdict)).toEqual(['missed', 'missed', 'missed', 'missed']);
    expect(lines[0].measured).toMatch(/^start \d+\.\d \(\d+\.\d–\d+\.\d\), step 100 .*; Δ \+\d\.\d \(/);
  });

  it('says what is missing when a run has not reached the step or a mode was not run', () => {
    const runs = [run('code-a1', 1, records(11, 0.3, T0), 40), run('self-play', 1, records(31, 0, T0))];
    const lines = judgeTargets(runs, 100);
    expect(lines.map((l) => l.verdict)).toEqual(['not measured', 'not measured', 'not measured', 'missed']);
    // Only the runs short of the step are named: self-play reached it.
    expect(lines[1].measured).toBe('code-a1 evaluated up to step 40; golden not run (target at step 100)');
    // The same runs judged at the step code-a1 reached: its +10 target is now measured, and without golden the order
    // is not, though the code-a1 − self-play gap is given.
    const at40 = judgeTargets([runs[0], run('self-play', 1, records(31, 0, T0), 40)], 40);
    expect(at40[0].verdict).toBe('met');
    expect(at40[1].verdict).toBe('not measured');
    expect(at40[1].measured).toMatch(
      /^golden not run \(target at step 40\); code-a1 − self-play \+\d+\.\d \(\+\d+\.\d to \+\d+\.\d\)$/,
    );
  });

  it('prints one table row per target and seed, met in bold', () => {
    const rows = targetsTable(judgeTargets([run('code-a1', 3, records(13, 0.3, T0))], 100));
    expect(rows).toHaveLength(2 + 4);
    expect(rows[2]).toMatch(
      /^\| code-a1 pass@1 − start ≥ 10 points, paired CI above \+10 \| 3 \| \*\*met\*\* \| start /,
    );
  });
});

describe('checkTargetsBlocks', () => {
  const runs = [run('code-a1', 1, records(11, 0.3, T0)), run('self-play', 1, records(31, 0, T0))];
  const judge = ({ step }: TargetsMarker) => judgeTargets(runs, step);
  const block = (step: number, lines = targetsTable(judge({ step }))) =>
    [targetsBegin({ step }), ...lines, TARGETS_END].join('\n');

  it('accepts tables that are what the records give at their steps, and reports a changed number', () => {
    const page = `# page\n\n${block(100)}\n\ntext\n\n${block(0)}\n`;
    expect(checkTargetsBlocks(page, judge)).toEqual([]);
    const changed = page.replace(/start (\d+)\.(\d)/, (_, a: string, b: string) => `start ${Number(a) + 1}.${b}`);
    expect(checkTargetsBlocks(changed, judge)[0]).toMatch(/^step 100 line 3:/);
  });

  it('reports a table judged at another step than its marker says, a missing line, and a page without tables', () => {
    expect(checkTargetsBlocks(block(100).replace('step=100', 'step=0'), judge).length).toBeGreaterThan(0);
    const lines = targetsTable(judge({ step: 100 }));
    expect(checkTargetsBlocks(block(100, lines.slice(0, -1)), judge)).toEqual([
      `step 100 line ${lines.length}:\n  page:    (none)\n  records: ${lines[lines.length - 1]}`,
    ]);
    expect(checkTargetsBlocks('no tables', judge)).toEqual([
      'no <!-- targets:begin step=N --> … <!-- targets:end --> table',
    ]);
  });

  it('judges a table whose marker names a records subdirectory on those records, not the reference runs', () => {
    // The "disjoint" records: code-a1 far better than in `runs`, so the same table cannot pass for both.
    const other = [run('code-a1', 1, records(11, 0.8, T0)), run('self-play', 1, records(31, 0, T0))];
    const byDir = ({ step, dir }: TargetsMarker) => judgeTargets(dir === 'disjoint' ? other : runs, step);
    const tag = targetsBegin({ step: 100, dir: 'disjoint' });
    expect(tag).toBe('<!-- targets:begin step=100 dir=disjoint -->');
    const tagged = [tag, ...targetsTable(byDir({ step: 100, dir: 'disjoint' })), TARGETS_END].join('\n');
    expect(checkTargetsBlocks(`${block(100)}\n\n${tagged}`, byDir)).toEqual([]);
    const wrong = [tag, ...targetsTable(judge({ step: 100 })), TARGETS_END].join('\n');
    expect(checkTargetsBlocks(wrong, byDir)[0]).toMatch(/^disjoint step 100 line 3:/);
  });
});
