// Intervals over tasks: instances of one task drawn together. Without task names the draws are those of the bootstrap
// over problems (so the committed intervals stand); with them an interval over copies of a few tasks is as wide as
// the few tasks', not as narrow as the many copies'; reports, runs, page markers and the tuning loader carry the unit.
import { describe, expect, it } from 'vitest';
import { bootstrapCI, problemRecord, resample, resamplingUnits, summarize, type ProblemEval } from '../run/eval-ci';
import type { SplitReport } from '../run/eval';
import { Rng } from '../rl/rng';
import { heldoutReport } from './report-fixture';
import {
  checkTargetsBlocks,
  judgeTargets,
  overTasks,
  pairedDelta,
  runOverTasks,
  TARGETS_END,
  targetsBegin,
  targetsTable,
  type TargetRun,
  type TargetsMarker,
} from './targets';
import { tuningBegin, TUNING_BLOCK } from './tuning';

/** `tasks` tasks, each posed by `copies` instances that pass alike (copy j of task t is `f/t-j`); pass rates spread. */
function copiesOf(tasks: number, copies: number, seed: number, lift = 0): ProblemEval[] {
  const rng = new Rng(seed);
  const out: ProblemEval[] = [];
  for (let t = 0; t < tasks; t++) {
    const passed = Math.min(8, Math.round(8 * rng.next() + 8 * lift));
    for (let j = 0; j < copies; j++) out.push(problemRecord(`f/${t}-${j}`, 8, passed, passed > 4));
  }
  return out;
}
const taskOfId = (id: string) => id.split('-')[0];
const withTasks = (xs: ProblemEval[]) => xs.map((p) => ({ ...p, task: taskOfId(p.id) }));
const width = (ci: [number, number]) => ci[1] - ci[0];

describe('resamplingUnits / resample', () => {
  it('groups items by key in order of first appearance, an item without a key alone', () => {
    const units = resamplingUnits(['a1', 'b1', 'x', 'a2', 'y', 'b2'], (s) => (s.length === 2 ? s[0] : undefined));
    expect(units).toEqual([['a1', 'a2'], ['b1', 'b2'], ['x'], ['y']]);
  });

  it('draws as many units as there are, whole', () => {
    const units = [['a1', 'a2'], ['b1'], ['c1', 'c2', 'c3']];
    const rng = new Rng(3);
    for (let i = 0; i < 20; i++) {
      const d = resample(units, rng);
      const firsts = d.filter((x) => x.endsWith('1')).length;
      expect(firsts).toBe(3); // three units drawn, each once per its first item
      for (const u of units) expect(d.filter((x) => x === u[0]).length).toBe(d.filter((x) => x === u.at(-1)).length);
    }
  });
});

describe('bootstrapCI over tasks', () => {
  it('is the bootstrap over problems when the records name no task (same draws, same interval)', () => {
    const xs = copiesOf(30, 1, 5);
    // The bootstrap over problems written out: one problem drawn per slot.
    const rng = new Rng(20260101);
    const draws: number[] = [];
    for (let r = 0; r < 1000; r++)
      draws.push(summarize(Array.from({ length: xs.length }, () => xs[rng.int(xs.length)])).coderPass1);
    draws.sort((a, b) => a - b);
    expect(bootstrapCI(xs, { reps: 1000 }).coderPass1).toEqual([
      draws[Math.round(0.025 * 999)],
      draws[Math.round(0.975 * 999)],
    ]);
  });

  it('over 10 tasks × 6 copies is about as wide as over the 10 tasks, far wider than over 60 instances', () => {
    const xs = copiesOf(10, 6, 9);
    const overProblems = width(bootstrapCI(xs).coderPass1);
    const overTasksW = width(bootstrapCI(withTasks(xs)).coderPass1);
    const tenTasks = width(bootstrapCI(copiesOf(10, 1, 9)).coderPass1);
    expect(overTasksW).toBeGreaterThan(1.8 * overProblems);
    expect(Math.abs(overTasksW - tenTasks) / tenTasks).toBeLessThan(0.25);
  });

  it('pairs over tasks too: the paired interval widens when the copies of a task moved together', () => {
    const before = copiesOf(12, 5, 21);
    const after = copiesOf(12, 5, 22, 0.1);
    const byProblem = pairedDelta(after, before, 'coderPass1')!;
    const byTask = pairedDelta(withTasks(after), withTasks(before), 'coderPass1')!;
    expect(byTask.delta).toBeCloseTo(byProblem.delta, 10);
    expect(width(byTask.ci)).toBeGreaterThan(1.8 * width(byProblem.ci));
  });
});

describe('overTasks / runOverTasks', () => {
  const report = (perProblem: ProblemEval[]) => heldoutReport(perProblem);

  it('names every record’s task and draws the intervals again; the metrics stay', () => {
    const r = report(copiesOf(10, 6, 9));
    const t = overTasks(r, taskOfId);
    expect(t.perProblem!.every((p) => p.task === taskOfId(p.id))).toBe(true);
    expect(t.coderPass1).toBeCloseTo(r.coderPass1, 12);
    expect(width(t.ci!.coderPass1)).toBeGreaterThan(1.8 * width(r.ci!.coderPass1));
    const bare: SplitReport = { ...r, perProblem: undefined };
    expect(overTasks(bare, taskOfId)).toBe(bare);
  });

  it('judges targets on runs over tasks with wider intervals, and a marker says which unit a table used', () => {
    const mk = (mode: string, lift: number): TargetRun => ({
      name: `${mode}-s1`,
      mode,
      seed: 1,
      evals: [
        { step: 0, rows: [report(copiesOf(10, 6, 9))] },
        { step: 100, rows: [report(copiesOf(10, 6, 9, lift))] },
      ],
    });
    const runs = [mk('code-a1', 0.3), mk('self-play', 0)];
    const tasks = runs.map((r) => runOverTasks(r, taskOfId));
    const gap = (rs: TargetRun[]) => judgeTargets(rs, 100)[0].measured;
    expect(gap(tasks)).not.toBe(gap(runs));
    expect(targetsBegin({ step: 100, dir: 'd', unit: 'tasks' })).toBe(
      '<!-- targets:begin step=100 dir=d resample=tasks -->',
    );
    const judge = (m: TargetsMarker) => judgeTargets(m.unit === 'tasks' ? tasks : runs, m.step);
    const begin = targetsBegin({ step: 100, unit: 'tasks' });
    const page = [begin, ...targetsTable(judgeTargets(tasks, 100)), TARGETS_END];
    expect(checkTargetsBlocks(page.join('\n'), judge)).toEqual([]);
    const wrong = [begin, ...targetsTable(judgeTargets(runs, 100)), TARGETS_END];
    expect(checkTargetsBlocks(wrong.join('\n'), judge)[0]).toMatch(/^step 100 over tasks line 3:/);
  });

  it('tuning markers carry the unit', () => {
    const m = [...`${tuningBegin('a,b', 'p16', true)}\nx\n<!-- tuning:end -->`.matchAll(TUNING_BLOCK)][0];
    expect([m[1], m[2], m[3]]).toEqual(['a,b', 'p16', 'tasks']);
    expect([...`${tuningBegin('a', 'p16')}\n<!-- tuning:end -->`.matchAll(TUNING_BLOCK)][0][3]).toBeUndefined();
  });
});
