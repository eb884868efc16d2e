// What the Tester's valid tests call, per span of training steps, from a run's saved rollouts: how many restate a
// docstring example (an input the curriculum's mutants pass by design) and how many distinct calls a rollout makes.
import { splitAssert } from '../sandbox/split';
import { docstringExamples } from '../tasks/importers';
import type { RolloutRecord } from '../rl/records';

export interface TesterInputsRow {
  /** First and last step of the span. */
  from: number;
  to: number;
  /** Generated tests (Mistake Book replays left out) and how many were valid on the ground truth. */
  tests: number;
  valid: number;
  /** Valid tests whose call is one of the problem's docstring examples. */
  restated: number;
  /** Mean number of distinct valid calls per Tester rollout. */
  distinctPerRollout: number;
}

/** The call of `assert CALL == EXPECTED`, spaces dropped; null where the sandbox's own split declines the line. */
export function callOf(assertion: string): string | null {
  return splitAssert(assertion)?.[0].replace(/\s+/g, '') ?? null;
}

/** One row per `stepsPerRow` steps (steps with no rollouts skipped). */
export function testerInputs(steps: readonly (readonly RolloutRecord[])[], stepsPerRow = 10): TesterInputsRow[] {
  const bySpan = new Map<number, { tests: number; valid: number; restated: number; distinct: number[] }>();
  for (const records of steps)
    for (const r of records) {
      const k = Math.floor(r.step / stepsPerRow);
      const acc = bySpan.get(k) ?? { tests: 0, valid: 0, restated: 0, distinct: [] };
      bySpan.set(k, acc);
      const examples = new Set(docstringExamples(r.prompt, r.entryPoint).map(callOf));
      for (const c of r.candidates)
        for (const t of c.testerRollouts) {
          const own = t.tests.filter((x) => !x.replay);
          const calls = own.filter((x) => x.valid && !x.repeat).map((x) => callOf(x.text));
          acc.tests += own.length;
          acc.valid += calls.length;
          // a valid test the split declines still counts as valid, but as no call of either kind
          const known = calls.filter((x): x is string => x !== null);
          acc.restated += known.filter((x) => examples.has(x)).length;
          acc.distinct.push(new Set(known).size);
        }
    }
  return [...bySpan.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([k, a]) => ({
      from: k * stepsPerRow,
      to: (k + 1) * stepsPerRow - 1,
      tests: a.tests,
      valid: a.valid,
      restated: a.restated,
      distinctPerRollout: a.distinct.length ? a.distinct.reduce((x, y) => x + y, 0) / a.distinct.length : 0,
    }));
}
