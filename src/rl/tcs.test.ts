// TCS: the rolling buffer (what it keeps, which programs the Tester attacks in each stage) and the staged Tester
// reward counted on hand-built judged rollouts.
import { describe, expect, it } from 'vitest';
import { TcsBuffer, tcsCounts, tcsStage, tcsTesterReward } from './tcs';
import { judgeRollout, type CountedRollout, type CountedTest } from './judging';

const entry = (problemId: string, code: string, step: number, passRate: number) => ({
  problemId,
  code,
  step,
  passRate,
});

describe('TCS rolling buffer', () => {
  it('keeps the candidates of the last keepSteps steps only, newest first', () => {
    const b = new TcsBuffer();
    b.add([entry('p', 'a0', 0, 0.5)], 0, 2);
    b.add([entry('p', 'a1', 1, 0.5)], 1, 2);
    b.add([entry('p', 'a2', 2, 1)], 2, 2);
    expect(b.entries.map((e) => e.code)).toEqual(['a2', 'a1']);
  });

  it('stage 1 attacks this step’s candidates; stage 2 the distinct failing programs of the problem, cycled to M', () => {
    const b = new TcsBuffer([
      entry('p', 'new-bug', 3, 0.2),
      entry('q', 'other', 3, 0),
      entry('p', 'ok', 3, 1),
      entry('p', 'old-bug', 2, 0),
      entry('p', 'new-bug', 2, 0.2),
    ]);
    const current = ['c0', 'c1', 'c2'];
    expect(b.targets('p', current, 1)).toEqual({ codes: current, stage: 1 });
    expect(b.targets('p', current, 2)).toEqual({ codes: ['new-bug', 'old-bug', 'new-bug'], stage: 2 });
  });

  it('stage 2 falls back to stage 1 for a problem with no failing program buffered', () => {
    const b = new TcsBuffer([entry('p', 'ok', 3, 1)]);
    expect(b.targets('p', ['c0'], 2)).toEqual({ codes: ['c0'], stage: 1 });
  });

  it('switches stage at tcs_stage2_step', () => {
    expect([tcsStage(0, 2), tcsStage(1, 2), tcsStage(2, 2), tcsStage(0, 0)]).toEqual([1, 1, 2, 2]);
  });
});

/** A rollout's tests: `v` consistent with the reference, `w` wrong expected value (call ran), `x` call raised, `r` a
 * repeat after the fill-in; `passed` is the target's verdict on each test that ran (v, w), in order. */
function rollout(kinds: string, passed: boolean[]): ReturnType<typeof judgeRollout> {
  const tests: CountedTest[] = [...kinds].map((k, i) => ({
    text: `assert f(${i}) == ${i}`,
    call: `f(${i})`,
    expected: `${i}`,
    callOk: k !== 'x',
    valid: k === 'v',
    ...(k === 'x' ? {} : { filled: `assert f(${i}) == ${i}` }),
    ...(k === 'r' ? { repeat: true } : {}),
  }));
  const ran = tests.filter((t) => t.callOk && !t.repeat);
  const invalid = [...kinds].filter((k) => k !== 'v').length;
  const r: CountedRollout = {
    raw: '',
    tests,
    valid: ran.map((t) => t.filled as string),
    malformed: 0,
    numInvalid: invalid,
    nonPrintableRatio: 0,
  };
  return judgeRollout(r, passed, 4);
}

describe('TCS tester reward', () => {
  it('counts consistent tests and counterexamples (consistent tests the target fails) only', () => {
    // v(pass) w(fail) v(fail) x r v(fail): consistent 3, counterexamples 2 (the failed `w` is no counterexample).
    const r = rollout('vwvxrv', [true, false, false, false]);
    expect(tcsCounts(r)).toEqual({ consistent: 3, counterexamples: 2 });
  });

  it('stage 1 rewards consistency with the reference, stage 2 counterexamples', () => {
    const r = rollout('vvwv', [true, false, false, true]);
    // K = 4: v = min(3/4, 1 − 1/4) = 0.75; one counterexample → 0.25.
    expect(tcsTesterReward(r, 1, 4, true)).toEqual({ validity: 0.75, adversarial: 0.25, reward: 0.75 });
    expect(tcsTesterReward(r, 2, 4, true)).toEqual({ validity: 0.75, adversarial: 0.25, reward: 0.25 });
    // A target that is not valid code gives no counterexample reward.
    expect(tcsTesterReward(r, 2, 4, false).reward).toBe(0);
  });

  it('a wrong expected value earns nothing in stage 1 beyond what the consistent tests earn', () => {
    const good = tcsTesterReward(rollout('vv', [true, true]), 1, 4, true).reward;
    const withWrong = tcsTesterReward(rollout('vvw', [true, true, true]), 1, 4, true).reward;
    expect(withWrong).toBe(good);
    expect(good).toBe(0.5);
  });
});
