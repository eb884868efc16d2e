// A step's counts in the words of vocabulary.ts, taken from the trainer's own judging structures, so the phase reports
// say exactly what the diagram later counts from the step's records.
import type { CountedRollout, JudgedCandidate } from './judging';
import { executionText, goldenExecutionText } from './vocabulary';

/** Assert lines, valid, invalid and wrong-expected tests of the validated rollouts (the release's counting). */
export function countedTotals(v: CountedRollout[]) {
  let lines = 0;
  let valid = 0;
  let invalid = 0;
  let wrongExpected = 0;
  for (const r of v) {
    lines += r.tests.length + r.malformed;
    valid += r.valid.length;
    invalid += r.numInvalid;
    wrongExpected += r.tests.filter((t) => t.filled !== undefined && !t.repeat && !t.valid).length;
  }
  return { lines, valid, invalid, wrongExpected };
}

/** The execution phase's counts: compiling candidates, breaks (valid tests a compiling candidate failed), replays. */
export function judgedText(j: JudgedCandidate[], replays: string[][], golden: boolean): string {
  const compiled = j.filter((c) => c.compiles).length;
  if (golden) {
    const golden = j.reduce((a, c) => a + c.rollouts.reduce((b, r) => b + r.passed.length, 0), 0);
    const goldenFailed = j.reduce(
      (a, c) => a + c.rollouts.reduce((b, r) => b + r.passed.filter((x) => !x).length, 0),
      0,
    );
    return goldenExecutionText({ compiled, candidates: j.length, golden, goldenFailed });
  }
  const breaks = j
    .filter((c) => c.compiles)
    .reduce((a, c) => a + c.rollouts.reduce((b, r) => b + r.passed.filter((x) => !x).length, 0), 0);
  return executionText({
    compiled,
    candidates: j.length,
    breaks,
    replays: replays.reduce((a, r) => a + r.length, 0),
  });
}
