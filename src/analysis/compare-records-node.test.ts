// Loading reference runs for the targets from records directories: the first directory's run of a mode and seed
// wins, later directories supply only what it lacks, and a path that holds no runs is an error; a run's config says
// what it trained on, which tells renamed held-out tasks from new ones; another evaluated split can be judged instead.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadTargetRuns, noveltyOf, resampled, runOnSplit, targetRunsIn } from './compare-records-node';
import { problemRecord } from '../run/eval-ci';
import { heldoutReport } from './report-fixture';
import { atStep, judgeTargets, TARGETS_BLOCK, targetsBegin, targetsMarker, type TargetRun } from './targets';
import { generateProblems } from '../tasks/generate';

const root = mkdtempSync(join(tmpdir(), 'target-runs-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A run directory as the reference runs leave it: config.json (mode, seed) and one eval.jsonl point per step. */
function run(dir: string, mode: string, seed: number, steps: number[], tasks?: object): void {
  const d = join(root, dir);
  mkdirSync(d, { recursive: true });
  writeFileSync(join(d, 'config.json'), JSON.stringify({ mode, seed, tasks }));
  writeFileSync(join(d, 'eval.jsonl'), steps.map((step) => JSON.stringify({ step, rows: [] })).join('\n') + '\n');
}

run('rerun/code-a1-s1', 'code-a1', 1, [0, 20]);
run('rerun/code-a1-s2', 'code-a1', 2, [0]);
run('base/code-a1-s1', 'code-a1', 1, [0, 100]);
run('base/golden-s1', 'golden', 1, [0, 100]);
run('fams/code-a1-s1', 'code-a1', 1, [0], { families: ['acronym', 'count_items'], train_part: 'rl' });
mkdirSync(join(root, 'empty'));

describe('loadTargetRuns / targetRunsIn', () => {
  it('takes each mode and seed from the first directory that has it, the baselines from later ones', () => {
    const runs = targetRunsIn(root, 'rerun,base');
    const got = runs.map((r) => `${r.mode}-s${r.seed}:${r.evals.map((e) => e.step).join('/')}`).sort();
    expect(got).toEqual(['code-a1-s1:0/20', 'code-a1-s2:0', 'golden-s1:0/100']);
    // In the other order base's code-a1 seed 1 wins.
    const swapped = targetRunsIn(root, 'base,rerun').find((r) => r.mode === 'code-a1' && r.seed === 1);
    expect(swapped?.evals.map((e) => e.step)).toEqual([0, 100]);
  });

  it('reads one directory alone, a run directory itself, and rejects a directory without runs', () => {
    expect(targetRunsIn(root, 'base')).toHaveLength(2);
    expect(loadTargetRuns([join(root, 'base', 'golden-s1')]).map((r) => r.name)).toEqual(['golden-s1']);
    expect(() => targetRunsIn(root, 'empty')).toThrow(/neither a run/);
    expect(() => targetRunsIn(root, 'missing')).toThrow(/no such directory/);
  });
});

describe('noveltyOf', () => {
  it('classifies held-out problems against what the run’s config says it trained on', () => {
    const [r] = targetRunsIn(root, 'fams');
    expect(r.tasks).toEqual({ families: ['acronym', 'count_items'], trainPart: 'rl' });
    const heldout = generateProblems({ families: ['acronym', 'count_items'] }).filter((p) => p.split === 'renamed');
    const kinds = new Set(heldout.map((p) => noveltyOf(r)(p.id)));
    // acronym has 8 tasks under 56 names: every held-out acronym instance is a renamed training task.
    expect(heldout.filter((p) => p.family === 'acronym').every((p) => noveltyOf(r)(p.id) !== 'new')).toBe(true);
    expect(kinds.has('new')).toBe(true);
    expect(() => noveltyOf(targetRunsIn(root, 'base')[0])).toThrow(/training instances are unknown/);
  });
});

describe('runOnSplit / split= markers', () => {
  const rec = (id: string, passed: number) => problemRecord(id, 8, passed, false);
  const withSplits: TargetRun = {
    name: 'code-a1-s1',
    mode: 'code-a1',
    seed: 1,
    evals: [0, 40].map((step) => ({
      step,
      rows: [
        heldoutReport([rec('a/0', step ? 8 : 0), rec('a/1', 0)]),
        { ...heldoutReport([rec('a/t000', step ? 4 : 2)]), split: 'renamed' as const },
      ],
    })),
  };

  it('judges the named split in the held-out one’s place and drops the rest', () => {
    const r = runOnSplit(withSplits, 'renamed');
    expect(r.evals.map((e) => e.rows.map((x) => `${x.split}:${x.problems}`))).toEqual([['heldout:1'], ['heldout:1']]);
    expect(atStep(r, 40)?.perProblem?.map((p) => p.id)).toEqual(['a/t000']);
    expect(100 * atStep(r, 40)!.coderPass1).toBeCloseTo(50, 10);
    // The targets read it: +25 points on the one task, against +50 on the held-out split.
    expect(judgeTargets([r], 40)[0].measured).toMatch(/Δ \+25\.0 /);
    expect(judgeTargets([withSplits], 40)[0].measured).toMatch(/Δ \+50\.0 /);
    // A split the run was not evaluated on leaves nothing to judge.
    expect(runOnSplit(withSplits, 'heldout-family').evals.every((e) => !e.rows.length)).toBe(true);
    expect(resampled([withSplits], 'problems', undefined, 'renamed')[0].evals[1].rows[0].perProblem).toHaveLength(1);
  });

  it('writes and reads the split in the targets marker', () => {
    const begin = targetsBegin({ step: 40, dir: 'renamed', split: 'renamed' });
    expect(begin).toBe('<!-- targets:begin step=40 dir=renamed split=renamed -->');
    const m = [...`${begin}\nx\n<!-- targets:end -->`.matchAll(TARGETS_BLOCK)][0];
    expect(targetsMarker(m)).toEqual({ step: 40, dir: 'renamed', unit: 'problems', split: 'renamed' });
    expect(m[6].trim()).toBe('x');
  });
});
