// CodeT-style selection from a step's rollouts: pick, per problem, the candidate that passes most valid generated
// tests, and compare its hidden-test pass rate with that of a random candidate (the mean).
import type { RolloutRecord } from '../../../rl/records';
import { alignPassed } from '../rollouts/matrix';

export interface SelectionReport {
  problems: number;
  /** Mean hidden pass rate over all candidates: what picking at random gives. */
  randomPick: number;
  /** Mean hidden pass rate of the candidate with the most valid tests passed (ties: first). */
  testPick: number;
  /** Best possible pick (oracle): the best candidate's hidden pass rate. */
  oraclePick: number;
}

export function codetSelection(rollouts: RolloutRecord[]): SelectionReport {
  let random = 0;
  let picked = 0;
  let oracle = 0;
  let problems = 0;
  for (const r of rollouts) {
    if (!r.candidates.length) continue;
    problems++;
    // -Infinity: when no candidate compiles (all score −1) the first one is still picked.
    let best = 0;
    let bestScore = -Infinity;
    let sum = 0;
    let top = 0;
    r.candidates.forEach((c, ci) => {
      sum += c.hiddenPassRate;
      top = Math.max(top, c.hiddenPassRate);
      let score = 0;
      for (const tr of c.testerRollouts) {
        const passedAt = alignPassed(tr);
        tr.tests.forEach((t, i) => (score += t.valid && passedAt[i] ? 1 : 0));
      }
      if (!c.compiles) score = -1;
      if (score > bestScore) {
        bestScore = score;
        best = ci;
      }
    });
    random += sum / r.candidates.length;
    picked += r.candidates[best].hiddenPassRate;
    oracle += top;
  }
  const d = problems || 1;
  return { problems, randomPick: random / d, testPick: picked / d, oraclePick: oracle / d };
}
