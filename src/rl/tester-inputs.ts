// What the Tester's valid tests call, per window of training steps, from a run's saved rollouts: how many restate a
// docstring example (an input the curriculum's mutants pass by design) and how many distinct calls a rollout makes.
import { docstringExamples } from '../tasks/importers';
import type { RolloutRecord } from './records';

export interface TesterInputsRow {
  /** First and last step of the window. */
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

/** The call of `assert CALL == EXPECTED`: the text before the first `==` outside brackets and strings. */
export function callOf(assertion: string): string | null {
  const m = /^\s*assert\s+/.exec(assertion);
  if (!m) return null;
  const s = assertion.slice(m[0].length);
  let depth = 0;
  let quote = '';
  for (let i = 0; i < s.length - 1; i++) {
    const ch = s[i];
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = '';
    } else if (ch === "'" || ch === '"') quote = ch;
    else if ('([{'.includes(ch)) depth++;
    else if (')]}'.includes(ch)) depth--;
    else if (depth === 0 && ch === '=' && s[i + 1] === '=') return s.slice(0, i).replace(/\s+/g, '');
  }
  return null;
}

/** One row per `stepsPerRow` steps (steps with no rollouts skipped). */
export function testerInputs(steps: readonly (readonly RolloutRecord[])[], stepsPerRow = 10): TesterInputsRow[] {
  const byWindow = new Map<number, { tests: number; valid: number; restated: number; distinct: number[] }>();
  for (const records of steps)
    for (const r of records) {
      const w = Math.floor(r.step / stepsPerRow);
      const acc = byWindow.get(w) ?? { tests: 0, valid: 0, restated: 0, distinct: [] };
      byWindow.set(w, acc);
      const examples = new Set(docstringExamples(r.prompt, r.entryPoint).map(callOf));
      for (const c of r.candidates)
        for (const t of c.testerRollouts) {
          const own = t.tests.filter((x) => !x.replay);
          const calls = own.filter((x) => x.valid && !x.repeat).map((x) => callOf(x.text));
          acc.tests += own.length;
          acc.valid += calls.length;
          acc.restated += calls.filter((x) => x !== null && examples.has(x)).length;
          acc.distinct.push(new Set(calls).size);
        }
    }
  return [...byWindow.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([w, a]) => ({
      from: w * stepsPerRow,
      to: (w + 1) * stepsPerRow - 1,
      tests: a.tests,
      valid: a.valid,
      restated: a.restated,
      distinctPerRollout: a.distinct.length ? a.distinct.reduce((x, y) => x + y, 0) / a.distinct.length : 0,
    }));
}
