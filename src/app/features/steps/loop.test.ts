// The loop diagram's counts for a step agree with the heatmap's view of the same records.
import { describe, expect, it } from 'vitest';
import { freshSeed } from '../../../testing/random';
import { sampleRollout } from '../../testing/sample-run';
import { passMatrix } from '../rollouts/matrix';
import { stepCounts } from '../../../rl/vocabulary';

describe('loop diagram counts', () => {
  it('candidates, valid / invalid tests, breaks and replays of a step', () => {
    const seed = freshSeed();
    const rollouts = [
      sampleRollout(seed, 3, { candidates: 4, testers: 2, k: 3 }),
      sampleRollout(seed + 1, 3, { candidates: 3, testers: 1, k: 2 }),
    ];
    const c = stepCounts(rollouts);
    expect(c.candidates, `seed ${seed}`).toBe(7);
    expect(c.compiled).toBe(rollouts.flatMap((r) => r.candidates).filter((x) => x.compiles).length);
    expect(c.replays).toBe(rollouts.reduce((a, r) => a + r.replays.length, 0));
    const tests = rollouts.flatMap((r) =>
      r.candidates.flatMap((x) => x.testerRollouts.flatMap((t) => t.tests.filter((q) => !q.replay))),
    );
    // A test with a wrong expected value is valid (its call ran) and counts as invalid too (the release's counting).
    expect(c.valid + c.invalid - c.wrongExpected).toBe(tests.length);
    expect(c.valid).toBe(tests.filter((t) => t.callOk).length);
    expect(c.wrongExpected).toBe(tests.filter((t) => t.callOk && !t.valid).length);
    // Every break is a failed valid cell of a compiling candidate in the heatmap (a test repeated for one candidate
    // shows once there).
    const failedCells = rollouts.reduce(
      (a, r) =>
        a +
        passMatrix(r)
          .filter((row) => row.callOk)
          .reduce((b, row) => b + row.cells.filter((x, ci) => x === 0 && r.candidates[ci].compiles).length, 0),
      0,
    );
    expect(c.breaks, `seed ${seed}`).toBeGreaterThanOrEqual(failedCells);
  });
});
