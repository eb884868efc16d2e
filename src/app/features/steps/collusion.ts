// How much of a step's testing is trivial or self-serving: the collusion that self-play allows and Code-A1 avoids.
import type { RolloutRecord } from '../../../rl/records';
import { alignPassed } from '../rollouts/matrix';

export interface CollusionStats {
  tests: number;
  /** Invalid on the ground truth at an input where the candidate is also wrong: the test likely encodes the
   *  candidate's own wrong answer, so it "agrees" with the code instead of checking it. */
  selfServing: number;
  /** Valid tests that a candidate which fails its hidden tests still passes: they let a wrong candidate through. */
  trivial: number;
  /** Tests that are not valid on the ground truth, for any reason. */
  invalid: number;
}

export function collusionStats(rollouts: RolloutRecord[]): CollusionStats {
  const s: CollusionStats = { tests: 0, selfServing: 0, trivial: 0, invalid: 0 };
  for (const r of rollouts) {
    for (const c of r.candidates) {
      const buggy = c.hiddenPassRate < 1;
      for (const tr of c.testerRollouts) {
        const passedAt = alignPassed(tr);
        tr.tests.forEach((t, i) => {
          if (t.replay) return;
          s.tests++;
          const passed = passedAt[i] ?? false;
          if (!t.valid) {
            s.invalid++;
            // For callOk tests `passed` is judged against the ground-truth output (see TesterRolloutRecord.passed).
            if (t.callOk && !passed) s.selfServing++;
          } else if (passed && buggy) {
            s.trivial++;
          }
        });
      }
    }
  }
  return s;
}

export function share(part: number, whole: number): string {
  return whole ? `${((100 * part) / whole).toFixed(1)}%` : '–';
}
