// One step's judging path, from hand-written Tester outputs to rewards and Mistake Book inputs, against numbers worked
// out by hand from the published reward module (K = 8, α = 0.5): once from plain inputs (what extraction and the
// ground truth give, written by hand) and once through the real Pyodide sandbox.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeSandbox } from '../sandbox/node';
import type { RejectedLine, ValidatedTest } from '../sandbox/types';
import type { Problem } from '../tasks/types';
import {
  countTests,
  executeCandidate,
  extractAndValidate,
  goldenRollout,
  judgeRollout,
  mistakeBookInputs,
  scoreCandidate,
  type JudgedCandidate,
} from './judging';
import { goldenReward } from './rewards';

const K = 8;
const ALPHA = 0.5;
const problem: Problem = {
  id: 'wiring/0',
  family: 'wiring',
  prompt: 'def f(x):\n    """Twice x."""\n',
  entryPoint: 'f',
  solution: 'def f(x):\n    return x * 2\n',
  hiddenTests: [],
  publicTests: [],
  split: 'train',
  source: 'generated',
};
/** Wrong from 5 on: f(5) = 5 instead of 10. */
const BUGGY = 'def f(x):\n    return x * 2 if x < 5 else x\n';
/** Not valid code. */
const BROKEN = 'def f(x) return x\n';

// The gaming case: one breaking call, eight different wrong expected values. After the fill-in all eight are
// `assert f(7) == 14`: 1 valid, 7 repeats + 1 wrong expected = 8 invalid; v = 0, a = 1/8, r_T = 0.0625.
const GAMING = Array.from({ length: 8 }, (_, i) => `assert f(7) == ${i + 1}`).join('\n');
// Prose (not counted), correct, wrong expected, raising, malformed, exact repeat, repeat after fill-in, and more than
// K valid tests: 9 valid (f(1) f(2) f(5) f(6) f(7) f(8) f(9) f(0) f(11)), 5 invalid; v = min(9/8, 3/8) = 0.375;
// the buggy candidate fails f(5..9) among the first 8 and f(11) after them: a = 5/8; r_T = 0.5; pass rate 3/9.
const MIX = [
  'Here are the tests:',
  'assert f(1) == 2',
  'assert f(2) == 5',
  "assert f('a', 2) == 0",
  'assert f(3 ==',
  'assert f(1) == 2',
  'assert f(1) == 3',
  'assert f(5) == 10',
  'assert f(6) == 12',
  'assert f(7) == 14',
  'assert f(8) == 16',
  'assert f(9) == 18',
  'assert f(0) == 0',
  'assert f(11) == 22',
].join('\n');
// One valid test and one non-printable character in 21: v = 1/8, a = 0, r_T = 0.0625 − 1/21.
const NONPRINT = 'assert f(1) == 2  # é';
// With replays [f(5) == 10 (the buggy candidate fails it), f(1) == 2 (passes)]:
const REPLAYS = ['assert f(5) == 10', 'assert f(1) == 2'];
const EMPTY = ''; // no valid test: a = 0 despite the replays; the coder gets the replay pass rate 0.5
const TWO = 'assert f(1) == 2\nassert f(6) == 12'; // v = 2/8, a = (1/8 − 1/2 + 1)/2 = 0.3125, r_T = 0.28125

/** What extraction + ground-truth validation give for each output, written by hand. */
const t = (call: string, expected: string, gtOutput: string | undefined): ValidatedTest => ({
  text: `assert ${call} == ${expected}`,
  call,
  expected,
  callOk: gtOutput !== undefined,
  valid: gtOutput !== undefined && gtOutput === expected,
  ...(gtOutput !== undefined ? { gtOutput } : {}),
});
const rej = (line: string, reason: string): RejectedLine => ({ line, reason });
const PLAIN: Record<string, { tests: ValidatedTest[]; rejected: RejectedLine[] }> = {
  [GAMING]: { tests: Array.from({ length: 8 }, (_, i) => t('f(7)', `${i + 1}`, '14')), rejected: [] },
  [MIX]: {
    tests: [
      t('f(1)', '2', '2'),
      t('f(2)', '5', '4'),
      t("f('a', 2)", '0', undefined),
      t('f(1)', '3', '2'),
      ...[5, 6, 7, 8, 9, 0, 11].map((x) => t(`f(${x})`, `${2 * x}`, `${2 * x}`)),
    ],
    rejected: [
      rej('Here are the tests:', 'syntax error'),
      rej('assert f(3 ==', 'syntax error'),
      rej('assert f(1) == 2', 'duplicate'),
    ],
  },
  [NONPRINT]: { tests: [t('f(1)', '2', '2')], rejected: [] },
  [EMPTY]: { tests: [], rejected: [] },
  [TWO]: { tests: [t('f(1)', '2', '2'), t('f(6)', '12', '12')], rejected: [] },
};
/** The buggy candidate on a filled-in statement / replay: f(x) = 2x below 5, else x. */
const buggyPasses = (stmt: string) => {
  const m = /^assert f\((-?\d+)\) == (-?\d+)$/.exec(stmt);
  if (!m) throw new Error(`unexpected statement ${stmt}`);
  const x = Number(m[1]);
  return (x < 5 ? 2 * x : x) === Number(m[2]);
};

function plainCandidate(code: string, raws: string[], replays: string[]): JudgedCandidate {
  const compiles = code === BUGGY;
  const rollouts = raws.map((raw) => {
    const c = countTests(raw, PLAIN[raw].tests, PLAIN[raw].rejected);
    return judgeRollout(
      c,
      c.valid.map((s) => compiles && buggyPasses(s)),
      K,
    );
  });
  const replayPassed = replays.map((s) => compiles && buggyPasses(s));
  return {
    code,
    compiles,
    rollouts,
    replay: { numReplayed: replays.length, numReplayFailed: replayPassed.filter((p) => !p).length },
    replayPassed,
    hiddenPassRate: 0,
  };
}

const sandbox = createNodeSandbox();
async function sandboxCandidate(code: string, raws: string[], replays: string[]): Promise<JudgedCandidate> {
  const rollouts = await Promise.all(raws.map((raw) => extractAndValidate(sandbox, problem, raw, 1000)));
  return executeCandidate(sandbox, problem, code, rollouts, replays, K, 1000);
}

type Judge = (code: string, raws: string[], replays: string[]) => JudgedCandidate | Promise<JudgedCandidate>;

function checkStep1(buggy: JudgedCandidate, broken: JudgedCandidate) {
  expect(buggy.compiles).toBe(true);
  expect(broken.compiles).toBe(false);
  expect(buggy.rollouts.map((r) => [r.outcome.numValid, r.outcome.numInvalid])).toEqual([
    [1, 8],
    [9, 5],
    [1, 0],
  ]);
  const a = scoreCandidate(buggy, K, ALPHA);
  const np = 1 / 21;
  expect(a.tester.map((x) => x.validity)).toEqual([0, 0.375, 0.125]);
  expect(a.tester.map((x) => x.adversarial)).toEqual([1 / 8, 5 / 8, 0]);
  expect(a.tester[0].reward).toBeCloseTo(0.0625, 12);
  expect(a.tester[1].reward).toBeCloseTo(0.5, 12);
  expect(a.tester[2].reward).toBeCloseTo(0.0625 - np, 12);
  expect(a.coder).toBeCloseTo((0 + 3 / 9 + 1) / 3, 12);
  // Not valid code: 0 before the penalty, and a coder reward of 0.
  const b = scoreCandidate(broken, K, ALPHA);
  expect(b.tester.map((x) => x.reward)).toEqual([0, 0, -np]);
  expect(b.coder).toBe(0);
  // Mistake Book: only the valid candidate's breaks, once per rollout (f(7) == 14 broke it in two rollouts).
  const { newFailing, oldPassed } = mistakeBookInputs([buggy, broken], []);
  expect(oldPassed).toEqual([]);
  expect([...newFailing].sort()).toEqual([
    'assert f(11) == 22',
    'assert f(5) == 10',
    'assert f(6) == 12',
    'assert f(7) == 14',
    'assert f(7) == 14',
    'assert f(8) == 16',
    'assert f(9) == 18',
  ]);
}

function checkStep2(buggy: JudgedCandidate) {
  expect(buggy.replayPassed).toEqual([false, true]);
  const a = scoreCandidate(buggy, K, ALPHA);
  expect(a.tester.map((x) => [x.validity, x.adversarial])).toEqual([
    [0, 0],
    [0.25, 0.3125],
  ]);
  expect(a.tester[0].reward).toBe(0);
  expect(a.tester[1].reward).toBeCloseTo(0.28125, 12);
  expect(a.coder).toBeCloseTo(0.5, 12); // empty rollout: replay rate 0.5; the other: (0.5 + 0.5) / 2
  const book = mistakeBookInputs([buggy], REPLAYS);
  expect({ newFailing: book.newFailing, oldPassed: book.oldPassed }).toEqual({
    newFailing: ['assert f(6) == 12'],
    oldPassed: ['assert f(1) == 2'],
  });
  // The teaching detail of the one break: the candidate it broke (and, through the sandbox, what it returned).
  expect(book.detail.map((d) => d.candidate)).toEqual([buggy.code]);
  if (buggy.rollouts.some((r) => r.got)) expect(book.detail[0].got).toBe('got 6, expected 12');
}

async function runBoth(judge: Judge) {
  const raws = [GAMING, MIX, NONPRINT];
  checkStep1(await judge(BUGGY, raws, []), await judge(BROKEN, raws, []));
  checkStep2(await judge(BUGGY, [EMPTY, TWO], REPLAYS));
}

describe('reward wiring (hand-computed, release rules)', () => {
  it('plain inputs', async () => {
    await runBoth(plainCandidate);
  });

  describe('through the Pyodide sandbox', { timeout: 300_000 }, () => {
    beforeAll(async () => {
      await sandbox.warm();
    }, 300_000);
    afterAll(async () => {
      await sandbox.close();
    });
    it('same numbers', async () => {
      await runBoth(sandboxCandidate);
    });
    it('golden tests run verbatim: MBPP-style asserts without ==, == inside an argument, any expression', async () => {
      const golden = [
        'assert f(2) == 4',
        'assert f(3)',
        "assert f(len('ab==cd')) == 12",
        'assert abs(f(0.5) - 1.0) < 1e-9',
      ];
      const score = async (code: string) => {
        const c = await executeCandidate(sandbox, problem, code, [goldenRollout(golden)], [], K, 1000);
        return goldenReward(c.compiles, c.rollouts[0].outcome.numPassed, c.rollouts[0].outcome.numValid);
      };
      expect(await score(problem.solution)).toBe(1);
      expect(await score(BUGGY)).toBe(0.75); // f(6) = 6, not 12
      expect(await score(BROKEN)).toBe(0);
    });
  });
});
