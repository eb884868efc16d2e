// The held-out table split by task novelty on built records: each category's start, step and paired change come
// from its own instances only, seeds pool per problem, empty categories get no column, and the marker round-trips;
// targets judged on one category see only its instances.
import { describe, expect, it } from 'vitest';
import { problemRecord, type ProblemEval } from '../run/eval-ci';
import { heldoutReport } from './report-fixture';
import { NOVELTY_BLOCK, noveltyBegin, noveltyCurves, NOVELTY_END, noveltyRows, noveltyTable } from './novelty-table';
import { judgeTargets, runRestricted, TARGETS_BLOCK, targetsBegin, targetsMarker, type TargetRun } from './targets';
import type { Novelty } from '../tasks/novelty';

/** 10 "new" instances (n/i) and 20 "warm-start" ones (w/i); each passes `k` of 8 by category. */
function recs(newPass: number, warmPass: number): ProblemEval[] {
  return [
    ...Array.from({ length: 10 }, (_, i) => problemRecord(`n/${i}`, 8, (newPass + i) % 9, false)),
    ...Array.from({ length: 20 }, (_, i) => problemRecord(`w/${i}`, 8, (warmPass + i) % 9, false)),
  ];
}
const report = (perProblem: ProblemEval[]) => heldoutReport(perProblem);
const run = (mode: string, seed: number, end: ProblemEval[]): TargetRun => ({
  name: `${mode}-s${seed}`,
  mode,
  seed,
  evals: [
    { step: 0, rows: [report(recs(0, 0))] },
    { step: 100, rows: [report(end)] },
  ],
});
const classify = () => (id: string) => (id.startsWith('n/') ? 'new' : 'warm-start') as Novelty;
const mean = (xs: ProblemEval[]) => (100 * xs.reduce((a, p) => a + p.passed / p.n, 0)) / xs.length;

describe('noveltyRows', () => {
  const runs = [run('self-play', 1, recs(1, 1)), run('code-a1', 2, recs(0, 4)), run('code-a1', 1, recs(0, 2))];
  const rows = noveltyRows(runs, 100, classify);

  it('has a row per run, modes in the page order and seeds ascending, then each mode’s seeds pooled', () => {
    expect(rows.map((r) => `${r.mode} ${r.seed}`)).toEqual([
      'code-a1 1',
      'code-a1 2',
      'code-a1 pooled (1, 2)',
      'self-play 1',
    ]);
  });

  it('measures each category on its own instances: start, step and the paired change', () => {
    const c = rows[0].cells;
    expect(c['rl-only']).toBeUndefined();
    expect(c.new!.problems).toBe(10);
    expect(c['warm-start']!.problems).toBe(20);
    const start = recs(0, 0);
    const end = recs(0, 2);
    expect(c.new!.start).toBeCloseTo(mean(start.slice(0, 10)), 10);
    expect(c['warm-start']!.end).toBeCloseTo(mean(end.slice(10)), 10);
    expect(c.new!.delta.delta).toBeCloseTo(0, 10); // the new tasks did not move
    expect(c['warm-start']!.delta.delta).toBeCloseTo(mean(end.slice(10)) - mean(start.slice(10)), 10);
    // Pooled: the mean of the two seeds' shares per problem.
    const pooled = rows[2].cells['warm-start']!;
    expect(pooled.end).toBeCloseTo((mean(recs(0, 2).slice(10)) + mean(recs(0, 4).slice(10))) / 2, 10);
  });

  it('skips a run without a step-0 or step-N evaluation', () => {
    const short: TargetRun = { ...run('golden', 1, recs(3, 3)), evals: [{ step: 0, rows: [report(recs(0, 0))] }] };
    expect(noveltyRows([short], 100, classify)).toEqual([]);
    expect(noveltyTable([], 100)).toEqual([]);
  });
});

describe('noveltyTable', () => {
  it('prints a column per category some row has, each cell start → step, Δ (CI); instances', () => {
    const lines = noveltyTable(noveltyRows([run('code-a1', 1, recs(0, 2))], 100, classify), 100);
    expect(lines[0]).toMatch(
      /^\| mode \| seed \| new tasks \(pass@1 %: start → step 100, .*\| tasks the warm-start saw/,
    );
    expect(lines[0]).not.toMatch(/only RL/);
    expect(lines[2]).toMatch(
      /^\| code-a1 \| 1 \| \d+\.\d → \d+\.\d, [+-]\d+\.\d \([+-]?\d+\.\d to [+-]?\d+\.\d\); 10 \| /,
    );
  });

  it('has a marker the page block pattern reads back', () => {
    const block = `${noveltyBegin(100, 'a,b')}\nrows\n${NOVELTY_END}`;
    const m = [...block.matchAll(NOVELTY_BLOCK)][0];
    expect([m[1], m[2]]).toEqual(['100', 'a,b']);
  });
});

describe('runRestricted / only= markers', () => {
  it('cuts every evaluation to the kept instances and recomputes its metrics; an emptied one is dropped', () => {
    const r = run('code-a1', 1, recs(0, 2));
    const fresh = runRestricted(r, (id) => id.startsWith('n/'));
    const end = fresh.evals[1].rows[0];
    expect(end.problems).toBe(10);
    expect(100 * end.coderPass1).toBeCloseTo(mean(recs(0, 2).slice(0, 10)), 10);
    expect(end.ci!.coderPass1[0]).toBeLessThanOrEqual(end.coderPass1);
    expect(runRestricted(r, () => false).evals.every((e) => e.rows.length === 0)).toBe(true);
    // The targets on new tasks alone: code-a1 did not move there, so +10 is missed; on all of them it is not judged
    // the same way.
    const judged = (x: TargetRun) => judgeTargets([x], 100)[0];
    expect(judged(fresh).measured).toMatch(/Δ \+0\.0 /);
    expect(judged(r).measured).not.toBe(judged(fresh).measured);
  });

  it('writes and reads the kept novelty in the targets marker', () => {
    const begin = targetsBegin({ step: 100, dir: 'a,b', unit: 'tasks', only: 'new' });
    expect(begin).toBe('<!-- targets:begin step=100 dir=a,b resample=tasks only=new -->');
    const m = [...`${begin}\nx\n<!-- targets:end -->`.matchAll(TARGETS_BLOCK)][0];
    expect(targetsMarker(m)).toEqual({ step: 100, dir: 'a,b', unit: 'tasks', only: 'new' });
    const plain = [...`${targetsBegin({ step: 40 })}\n<!-- targets:end -->`.matchAll(TARGETS_BLOCK)][0];
    expect(targetsMarker(plain)).toEqual({ step: 40, dir: undefined, unit: 'problems', only: undefined });
  });
});

describe('noveltyCurves', () => {
  it('draws each mode on one kind of instance at every step, seeds pooled, with a band around the value', () => {
    const runs = [run('self-play', 1, recs(1, 1)), run('code-a1', 2, recs(0, 4)), run('code-a1', 1, recs(3, 2))];
    const curves = noveltyCurves(runs, classify, 'new');
    expect(curves.map((c) => [c.mode, c.seeds])).toEqual([
      ['code-a1', [1, 2]],
      ['self-play', [1]],
    ]);
    const [a1, sp] = curves;
    expect(a1.steps).toEqual([0, 100]);
    expect(a1.pass[0]).toBeCloseTo(mean(recs(0, 0).slice(0, 10)), 10);
    expect(a1.pass[1]).toBeCloseTo((mean(recs(3, 2).slice(0, 10)) + mean(recs(0, 4).slice(0, 10))) / 2, 10);
    expect(sp.pass[1]).toBeCloseTo(mean(recs(1, 1).slice(0, 10)), 10);
    for (const c of curves) c.pass.forEach((v, i) => expect(c.lo[i] <= v && v <= c.hi[i]).toBe(true));
    expect(noveltyCurves(runs, classify, 'rl-only')).toEqual([]);
  });
});
