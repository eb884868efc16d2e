// testerInputs counts a Tester's valid calls against the docstring examples per span of steps; callOf finds the call.
import { describe, expect, it } from 'vitest';
import type { RolloutRecord, TestRecord } from '../rl/records';
import { callOf, testerInputs } from './tester-inputs';

const prompt = `def f(n: int) -> int:\n    """Twice n.\n    >>> f(3)\n    6\n    >>> f( 10 )\n    20\n    """\n`;
const t = (text: string, valid: boolean, extra: Partial<TestRecord> = {}): TestRecord => ({
  text,
  valid,
  callOk: valid,
  ...extra,
});
const record = (step: number, tests: TestRecord[][]): RolloutRecord => ({
  step,
  mode: 'code-a1',
  problemId: 'p/0001',
  prompt,
  entryPoint: 'f',
  replays: [],
  candidates: [
    {
      code: '',
      compiles: true,
      reward: 0,
      advantage: 0,
      hiddenPassRate: 0,
      testerRollouts: tests.map((ts) => ({
        raw: '',
        tests: ts,
        passed: [],
        validity: 0,
        adversarial: 0,
        reward: 0,
        advantage: 0,
      })),
    },
  ],
});

describe('callOf', () => {
  it('takes the text before the first == outside strings and brackets, without spaces', () => {
    expect(callOf('assert f(3) == 6')).toBe('f(3)');
    expect(callOf("assert g('a==b', [x == 1 for x in y]) == 'c'")).toBe("g('a==b',[x==1forxiny])");
    expect(callOf('assert f("\\"==") == 1')).toBe('f("\\"==")');
    expect(callOf('f(3) == 6')).toBeNull();
    expect(callOf('assert f(3)')).toBeNull();
  });
});

describe('testerInputs', () => {
  it('counts generated tests, valid ones, example restatements and distinct calls per rollout by span of steps', () => {
    const rows = testerInputs(
      [
        [
          record(0, [
            [t('assert f(3) == 6', true), t('assert f(4) == 8', true), t('assert f(5) == 9', false)],
            [t('assert f(10) == 20', true), t('assert f(3) == 6', true, { replay: true })],
          ]),
        ],
        [record(1, [[t('assert f(7) == 14', true), t('assert f(7) == 14', false, { repeat: true })]])],
        [record(2, [[t('assert f(3) == 6', true)]])],
      ],
      2,
    );
    expect(rows).toEqual([
      // steps 0–1: five generated tests plus a repeat, the replay left out; f(3) and f( 10 ) restate examples
      { from: 0, to: 1, tests: 6, valid: 4, restated: 2, distinctPerRollout: (2 + 1 + 1) / 3 },
      { from: 2, to: 3, tests: 1, valid: 1, restated: 1, distinctPerRollout: 1 },
    ]);
  });
});
