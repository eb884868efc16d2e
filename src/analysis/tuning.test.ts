// Tuning without held-out numbers: rows, the paired differences against the start and the reference, the setting the
// records pick (and whether it is separated from the others), and the page block, on generated per-problem records.
import { describe, expect, it } from 'vitest';
import { bootstrapCI, summarize } from '../run/eval-ci';
import type { SplitReport } from '../run/eval';
import { liftedRecords } from './report-fixture';
import {
  joinFolds,
  chooseSetting,
  choiceLine,
  poolTunings,
  TUNING_BLOCK,
  TUNING_END,
  tuningBegin,
  tuningRows,
  tuningTable,
} from './tuning';
import type { Tuning, TuningRun } from './tuning';

const P = 80;
const N = 8;

/** Problem i passes with probability 0.6·d_i + lift, the difficulties d_i shared by every evaluation. */
function report(seed: number, lift: number, problems = P, part: SplitReport['part'] = 'rl'): SplitReport {
  const perProblem = liftedRecords({ seed, lift, problems, spread: 0.6, difficultySeed: 11, samples: N });
  return {
    split: 'train',
    part,
    problems,
    samples: N,
    ...summarize(perProblem),
    ci: bootstrapCI(perProblem),
    perProblem,
  } as SplitReport;
}

function run(name: string, problemsPerStep: number, steps: number, lift: number, seed: number): TuningRun {
  return {
    name,
    problemsPerStep,
    lr: 2e-4,
    testerLr: 1e-4,
    metrics: Array.from({ length: steps }, (_, step) => ({
      step,
      'coder/pass_rate': 0.4 + step / 100,
      'time/step_s': 30,
    })),
    end: report(seed, lift),
  };
}

const start = report(1, 0, 40); // the start evaluated a subset: pairing uses the problems both hold
const tuning = (runs: TuningRun[]): Tuning => ({ runs, start, judged: 'train-rl', seeds: [2] });

describe('tuning on the training split', () => {
  it('rows: problems seen, paired differences against the start and the reference, batch windows', () => {
    const runs = [run('p16-lr2e-4', 16, 20, 0.2, 2), run('p8-lr2e-4', 8, 40, 0.2, 3)];
    const [ref, other] = tuningRows(tuning(runs), 'p16-lr2e-4');
    expect([ref.problemsSeen, other.problemsSeen]).toEqual([320, 320]);
    expect(ref.vsReference).toBeNull();
    expect(ref.vsStart!.problems).toBe(40);
    expect(ref.vsStart!.ci[0]).toBeGreaterThan(0); // a lift of 0.2 on 40 problems × 8 samples is outside the noise
    expect(other.vsReference!.problems).toBe(P);
    expect(other.vsReference!.ci[0]).toBeLessThan(0); // the same lift: the interval straddles zero
    expect(other.vsReference!.ci[1]).toBeGreaterThan(0);
    expect(ref.batchFirst).toBeCloseTo(0.42, 10); // steps 0–4
    expect(other.batchLast).toBeCloseTo(0.77, 10); // steps 35–39
    expect(() => tuningRows(tuning(runs), 'p32-lr2e-4')).toThrow(/no tuning run named p32-lr2e-4/);
  });

  it('picks the highest train-rl pass@1 and says when the training split cannot separate it', () => {
    const close = [run('a', 16, 20, 0.2, 2), run('b', 16, 20, 0.21, 3)];
    const tie = chooseSetting(close);
    expect(tie.separated).toBe(false);
    expect(tie.ties).toHaveLength(1);
    expect(choiceLine(tuning(close))).toMatch(/not separated from/);
    const apart = [run('a', 16, 20, 0.0, 2), run('b', 16, 20, 0.35, 3), run('c', 8, 40, -0.1, 4)];
    expect(chooseSetting(apart)).toEqual({ chosen: 'b', separated: true, ties: [] });
    expect(choiceLine(tuning(apart))).toBe(
      'Chosen on the training split (train-rl): b, above every other setting outside the paired intervals.',
    );
  });

  it('the table marks the reference and the page block round-trips through its markers', () => {
    const runs = [run('p16-lr2e-4', 16, 20, 0.2, 2), run('p16-lr4e-4', 16, 20, 0.1, 3)];
    const lines = tuningTable(tuning(runs), 'p16-lr2e-4');
    expect(lines).toHaveLength(4);
    expect(lines[2]).toMatch(/^\| p16-lr2e-4 \(reference\) \| 16 \| 0.0002 \/ 0.0001 \| 20 \| 320 \| /);
    expect(lines[3]).toMatch(
      /\| p16-lr4e-4 \| .* \| [+-]\d+\.\d \([+-]\d+\.\d to [+-]\d+\.\d\) \| 42\.0 → 57\.0 \| 30 \|$/,
    );
    expect(lines[0]).toMatch(/\| train-rl pass@1 \| vs start/);
    const page = `x\n${tuningBegin('tuning', 'p16-lr2e-4')}\nold\n${TUNING_END}\ny`;
    const m = [...page.matchAll(TUNING_BLOCK)];
    expect(m.map((x) => [x[1], x[2]])).toEqual([['tuning', 'p16-lr2e-4']]);
  });

  it('judges a validation part when the runs trained on the fit part, with a column for the instances trained on', () => {
    const withFit = (r: TuningRun, fitLift: number, seed: number): TuningRun => ({
      ...r,
      end: { ...r.end, part: 'rl-val' },
      fit: report(seed, fitLift, P, 'rl-fit'),
    });
    // b fits its training instances far better than a but does no better on the validation part: a is chosen.
    const runs = [withFit(run('a', 16, 20, 0.25, 2), 0.2, 5), withFit(run('b', 8, 40, 0.0, 3), 0.4, 6)];
    const t: Tuning = {
      runs,
      start: { ...report(1, 0, P), part: 'rl-val' },
      judged: 'train-rl-val',
      fitted: { label: 'train-rl-fit', start: report(7, 0, P, 'rl-fit') },
      seeds: [2],
    };
    const rows = tuningRows(t, 'a');
    expect(rows[1].fit!.pass1).toBeGreaterThan(rows[0].fit!.pass1);
    expect(rows[1].fit!.vsStart!.ci[0]).toBeGreaterThan(0);
    expect(chooseSetting(runs).chosen).toBe('a');
    const lines = tuningTable(t, 'a');
    expect(lines[0]).toMatch(/\| train-rl-val pass@1 \| .* \| train-rl-fit pass@1; vs start \(paired\) \|/);
    expect(lines[1].split('|')).toHaveLength(lines[0].split('|').length);
    expect(lines[3]).toMatch(/\| \d+\.\d; [+-]\d+\.\d \([+-]\d+\.\d to [+-]\d+\.\d\) \| /);
    expect(choiceLine({ ...t, runs: runs.slice(0, 1) })).toBe('One setting so far (a): nothing to choose between.');
    expect(choiceLine(t)).toMatch(/^Chosen on the validation part \(train-rl-val, never trained on\): a,/);
  });

  it('pools seeds per problem: the settings both ran, counts summed, batches averaged, the seeds named', () => {
    const s1 = tuning([run('a', 16, 20, 0.2, 2), run('b', 8, 40, 0.0, 3), run('d', 32, 10, -0.1, 8)]);
    const s2: Tuning = {
      ...tuning([run('a', 16, 20, 0.2, 4), run('c', 8, 40, 0.1, 5), run('d', 32, 10, -0.1, 9)]),
      seeds: [1],
    };
    const p = poolTunings([s1, s2]);
    expect(p.runs.map((r) => r.name)).toEqual(['a', 'd']);
    expect(p.seeds).toEqual([1, 2]);
    const [one, two] = [s1.runs[0].end, s2.runs[0].end];
    expect(p.runs[0].end.perProblem![3].n).toBe(2 * N);
    expect(p.runs[0].end.coderPass1).toBeCloseTo((one.coderPass1 + two.coderPass1) / 2, 10);
    expect(p.runs[0].metrics).toHaveLength(20);
    expect(p.start.perProblem).toHaveLength(40);
    expect(choiceLine(p)).toMatch(/^Chosen on the training split \(train-rl, seeds 1 and 2 pooled\): a,/);
    expect(poolTunings([s1])).toBe(s1);
    expect(() => poolTunings([s1, { ...s2, judged: 'train-rl-val' }])).toThrow(/judged on different parts/);
    expect(() => poolTunings([tuning([run('x', 16, 20, 0, 2)]), s2])).toThrow(/no setting is in every one/);
  });

  it('joins the folds of a cross-validation: problems side by side, never one problem twice', () => {
    // Fold b is judged on other problems: the same generator with ids moved past fold a's.
    const moved = (r: SplitReport): SplitReport => ({
      ...r,
      perProblem: r.perProblem!.map((p) => ({ ...p, id: `${p.id}-b` })),
    });
    const foldA: Tuning = { ...tuning([run('a', 16, 20, 0.2, 2), run('b', 8, 40, 0.0, 3)]), judged: 'train-rl-val' };
    const b = tuning([run('a', 16, 20, 0.1, 4), run('b', 8, 40, 0.1, 5)]);
    const foldB: Tuning = {
      ...b,
      runs: b.runs.map((r) => ({ ...r, end: moved(r.end) })),
      start: moved(b.start),
      judged: 'train-rl-fit',
    };
    const j = joinFolds([foldA, foldB]);
    expect(j.judged).toBe('train-rl-val + train-rl-fit');
    expect(j.runs[0].end.perProblem).toHaveLength(2 * P);
    expect(j.start.perProblem).toHaveLength(80);
    const [ra, rb] = [foldA.runs[0].end, foldB.runs[0].end];
    expect(j.runs[0].end.coderPass1).toBeCloseTo((ra.coderPass1 + rb.coderPass1) / 2, 10);
    expect(tuningRows(j, 'a')[0].vsStart!.problems).toBe(80);
    expect(() => joinFolds([foldA, { ...foldA, judged: 'train-rl-val' }])).toThrow(/judged on the same part/);
    expect(() => joinFolds([foldA, { ...foldB, judged: 'x', runs: foldA.runs }])).toThrow(/share a problem/);
  });
});
