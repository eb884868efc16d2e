// ACE's execution-only scoring: which inputs are well-formed, which break which program, which programs are robust,
// and the adversary's KTO labels; then one problem end to end through the real sandbox.
import { describe, expect, it } from 'vitest';
import { aceExecuteProblem, aceLabel, aceVerdicts, extractInputs, type AceMatrix } from './ace';
import { usePool } from '../sandbox/test-helpers';
import type { Problem } from '../tasks/types';

describe('ACE verdicts', () => {
  // Inputs: 0 breaks program 1 only; 1 breaks every program (ill-formed: no evidence of a bug); 2 is survived by all.
  const m: AceMatrix = {
    compiles: [true, true, false],
    status: [
      ['ok', 'exception', 'ok'],
      ['timeout', 'exception', 'ok'],
      ['exception', 'exception', 'exception'],
    ],
  };
  const v = aceVerdicts(m);

  it('an input is well-formed only when some compiling program returns on it', () => {
    expect(v.wellFormed).toEqual([true, false, true]);
  });

  it('a failure counts only on a compiling program and a well-formed input', () => {
    expect(v.breaks).toEqual([
      [false, false, false],
      [true, false, false],
      [false, false, false],
    ]);
  });

  it('robust = compiles, faced a well-formed input and survived them all', () => {
    expect(v.robust).toEqual([true, false, false]);
    // With no well-formed input at all nothing is robust (no evidence either way).
    const none = aceVerdicts({ compiles: [true], status: [['exception']] });
    expect(none.robust).toEqual([false]);
  });

  it('labels: desirable when an input broke the target, undesirable when it survived, none when it does not compile', () => {
    expect(aceLabel(v, true, 1, [0, 2])).toBe(1);
    expect(aceLabel(v, true, 1, [1, 2])).toBe(-1);
    expect(aceLabel(v, true, 0, [0, 1, 2])).toBe(-1);
    expect(aceLabel(v, true, 0, [])).toBe(-1);
    expect(aceLabel(v, false, 2, [0])).toBe(0);
  });
});

describe('ACE on one problem (real sandbox)', { timeout: 120_000 }, () => {
  const pool = usePool();
  const problem: Problem = {
    id: 'toy/0',
    family: 'toy',
    prompt: 'def inv(x):\n    """1 / x, or 0 for 0."""\n',
    entryPoint: 'inv',
    solution: 'def inv(x):\n    return 0 if x == 0 else 1 / x\n',
    hiddenTests: ['assert inv(0) == 0', 'assert inv(2) == 0.5'],
    publicTests: [],
    split: 'train',
    source: 'generated',
  };

  it('a crashing program loses to the input that breaks it; the guarded one is robust and kept', async () => {
    const candidates = [
      'def inv(x):\n    return 1 / x\n',
      'def inv(x):\n    return 0 if x == 0 else 1 / x\n',
      'def inv(x) return x\n',
    ];
    const raws = [
      'assert inv(0) == 0\nassert inv(4) == 0.25',
      'assert inv(2) == 1',
      'assert inv(0) == 0',
      'assert inv("a") == 1',
      'nothing',
      'assert inv(0) == 1',
    ];
    const rollouts = await Promise.all(raws.map((r) => extractInputs(pool(), problem, r)));
    expect(rollouts[0].tests.map((t) => t.call)).toEqual(['inv(0)', 'inv(4)']);
    const r = await aceExecuteProblem(pool(), problem, candidates, rollouts, 2, 1000);
    expect(r.judged.map((c) => c.compiles)).toEqual([true, true, false]);
    // Candidate 0 crashes on inv(0), which candidate 1 survives: robust only the guarded one.
    expect(r.coder).toEqual([0, 1, 0]);
    // Two rollouts per candidate: (inv(0), inv(4)) and inv(2) aim at 0; inv(0) and inv("a") at 1 ("a" breaks every
    // program, so it is ill-formed); the non-compiling one gets no labels.
    expect(r.labels).toEqual([1, -1, -1, -1, 0, 0]);
    expect(r.tester.flat().map((t) => t.reward)).toEqual([1, 0, 0, 0, 0, 0]);
    expect(r.judged[1].rollouts[1].tests.map((t) => t.callOk)).toEqual([false]);
    expect(r.judged[0].rollouts[0].passed).toEqual([false, true]);
    // The hidden tests are run for the record only.
    expect(r.judged.map((c) => c.hiddenPassRate)).toEqual([0.5, 1, 0]);
  });
});
