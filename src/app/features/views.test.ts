// Pure views used by the panels: pass matrix, collusion shares, CodeT-style selection, Mistake Book filters, chart alignment.
import { describe, expect, it } from 'vitest';
import { freshSeed } from '../../testing/random';
import type { RolloutRecord } from '../../rl/records';
import { sampleMetrics, sampleMistakes, sampleRollout } from '../testing/sample-run';
import { alignPassed, passMatrix } from './rollouts/matrix';
import { collusionStats } from './steps/collusion';
import { codetSelection } from './eval/codet';
import { filterMistakes, groupByProblem } from './mistakes/filter';
import { alignRuns } from './charts/series';

describe('UI views', () => {
  const seed = freshSeed();
  console.log('views seed', seed);

  it('pass matrix has one row per distinct test and one cell per candidate, matching the records', () => {
    const r = sampleRollout(seed, 1, { candidates: 4, testers: 2, k: 3 });
    const rows = passMatrix(r);
    const distinct = new Set(r.candidates.flatMap((c) => c.testerRollouts.flatMap((t) => t.tests.map((x) => x.text))));
    expect(rows).toHaveLength(distinct.size);
    for (const row of rows) {
      expect(row.cells).toHaveLength(4);
      row.cells.forEach((cell, ci) => {
        const results: boolean[] = [];
        for (const tr of r.candidates[ci].testerRollouts)
          tr.tests.forEach((t, i) => t.text === row.test && results.push(tr.passed[i]));
        expect(cell).toBe(results.length === 0 ? null : results.every(Boolean) ? 1 : 0);
      });
    }
  });

  it("aligns results listed only for runnable tests (the trainer's layout) with the tests", () => {
    const tests = [
      { text: 'a', valid: true, callOk: true },
      { text: 'b', valid: false, callOk: false },
      { text: 'c', valid: false, callOk: true },
    ];
    expect(alignPassed({ tests, passed: [false, true] })).toEqual([false, undefined, true]);
    expect(alignPassed({ tests, passed: [false, false, true] })).toEqual([false, false, true]);
    expect(alignPassed({ tests, passed: [true] })).toEqual([undefined, undefined, undefined]);
    const r = sampleRollout(seed, 1, { candidates: 2, testers: 1, k: 3 });
    r.candidates[0].testerRollouts[0] = { ...r.candidates[0].testerRollouts[0], tests, passed: [false, true] };
    const row = (t: string) => passMatrix(r).find((x) => x.test === t)!;
    expect(row('a').cells[0]).toBe(0);
    expect(row('b').cells[0]).toBeNull();
    expect(row('c').cells[0]).toBe(1);
  });

  it('collusion stats count self-serving and trivial tests by their definitions', () => {
    const r: RolloutRecord = sampleRollout(seed, 1);
    const c = r.candidates[0];
    c.hiddenPassRate = 0.5;
    c.testerRollouts = [
      {
        raw: '',
        validity: 0,
        adversarial: 0,
        reward: 0,
        advantage: 0,
        tests: [
          { text: 'a', valid: false, callOk: true }, // wrong expected where candidate also wrong: self-serving
          { text: 'b', valid: false, callOk: false }, // call raised: invalid only
          { text: 'c', valid: true, callOk: true }, // valid, passed by a buggy candidate: trivial
          { text: 'd', valid: true, callOk: true }, // valid, caught the bug
          { text: 'e', valid: true, callOk: true, replay: true }, // replay: not counted
        ],
        passed: [false, false, true, false, true],
      },
    ];
    const s = collusionStats([{ ...r, candidates: [c] }]);
    expect(s).toEqual({ tests: 4, selfServing: 1, trivial: 1, invalid: 2 });
  });

  it('CodeT selection picks the candidate passing most valid tests and sits between random and oracle', () => {
    const rs = Array.from({ length: 5 }, (_, i) => sampleRollout(seed + i, 1, { candidates: 4 }));
    const rep = codetSelection(rs);
    expect(rep.problems).toBe(5);
    expect(rep.oraclePick).toBeGreaterThanOrEqual(rep.testPick);
    expect(rep.oraclePick).toBeGreaterThanOrEqual(rep.randomPick);
    const mean =
      rs.reduce((s, r) => s + r.candidates.reduce((a, c) => a + c.hiddenPassRate, 0) / r.candidates.length, 0) / 5;
    expect(rep.randomPick).toBeCloseTo(mean, 12);
    // No candidate compiles: the pick falls back to the first one instead of failing.
    const broken = sampleRollout(seed, 1, { candidates: 3 });
    broken.candidates.forEach((c) => (c.compiles = false));
    expect(codetSelection([broken]).testPick).toBe(broken.candidates[0].hiddenPassRate);
  });

  it('Mistake Book filter and grouping', () => {
    const es = sampleMistakes(seed, 30);
    const f = filterMistakes(es, '', 3);
    expect(f.every((e) => e.frequency >= 3)).toBe(true);
    expect(f).toHaveLength(es.filter((e) => e.frequency >= 3).length);
    const q = filterMistakes(es, 'ADD(1,', 1);
    expect(q.every((e) => e.test.toLowerCase().includes('add(1,'))).toBe(true);
    const g = groupByProblem(es);
    expect(g.reduce((s, x) => s + x.entries.length, 0)).toBe(30);
    for (const grp of g)
      for (let i = 1; i < grp.entries.length; i++)
        expect(grp.entries[i - 1].frequency).toBeGreaterThanOrEqual(grp.entries[i].frequency);
  });

  it('aligns runs of different lengths on one step axis', () => {
    const a = sampleMetrics(seed, 5);
    const b = sampleMetrics(seed + 1, 3);
    const cols = alignRuns(
      [
        { id: 'a', label: 'a', metrics: a },
        { id: 'b', label: 'b', metrics: b.map((m) => ({ ...m, step: m.step + 3 })) },
      ],
      ['coder/loss'],
    );
    expect(cols[0]).toEqual([0, 1, 2, 3, 4, 5]);
    expect(cols[1].slice(0, 5)).toEqual(a.map((m) => m['coder/loss']));
    expect(cols[1][5]).toBeNull();
    expect(cols[2].slice(0, 3)).toEqual([null, null, null]);
    expect(cols[2].slice(3)).toEqual(b.map((m) => m['coder/loss']));
  });
});
