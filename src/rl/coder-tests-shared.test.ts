// `reward.coder_tests=shared` in the real sandbox: every candidate of a problem is graded on the union of its group's
// valid tests, which reorders candidates that the release's per-candidate grading orders wrong, and leaves the
// Tester rewards exactly as the release computes them.
import { describe, expect, it } from 'vitest';
import { importJsonl } from '../tasks/importers';
import { usePool } from '../sandbox/test-helpers';
import { presetConfig } from './config';
import { extractAndValidate, sharedTestSet } from './judging';
import { modeRules } from './modes';
import { executeCandidates, testRewards } from './trainer-judge';

const RECORD = {
  task_id: 'Toy/0',
  prompt: 'def clamp(x):\n    """Clamp x into [0, 10]."""\n',
  entry_point: 'clamp',
  canonical_solution: '    return max(0, min(10, x))\n',
  test: 'def check(candidate):\n    assert candidate(5) == 5\n    assert candidate(-1) == 0\n    assert candidate(11) == 10\n',
};
// Candidate i is attacked by Tester rollout i: the correct one's Tester wrote nothing usable, the upper-bound bug's
// Tester missed the bug, the lower-bound bug's Tester caught it.
const CANDIDATES = [
  'def clamp(x):\n    return 0 if x < 0 else 10 if x > 10 else x\n',
  'def clamp(x):\n    return max(0, x)\n',
  'def clamp(x):\n    return min(10, x)\n',
];
const TESTER_OUTPUTS = [
  'I cannot think of tests.',
  'assert clamp(5) == 5\nassert clamp(-3) == 0',
  'assert clamp(20) == 10\nassert clamp(-3) == 0',
];

describe('reward.coder_tests (real sandbox)', { timeout: 120_000 }, () => {
  const pool = usePool();
  const problem = importJsonl(JSON.stringify(RECORD)).items[0].problem;

  async function rewards(coderTests: 'own' | 'shared') {
    const base = presetConfig('micro', { mode: 'code-a1' });
    const cfg = { ...base, reward: { ...base.reward, coder_tests: coderTests } };
    const s = { cfg, rules: modeRules('code-a1'), problems: [problem], M: 3, N: 1, K: 4 };
    const validated = await Promise.all(TESTER_OUTPUTS.map((raw) => extractAndValidate(pool(), problem, raw, 1000)));
    const judged = await executeCandidates(pool(), s, CANDIDATES, validated, [[]]);
    return { validated, judged, ...testRewards(s, judged) };
  }

  it('grades every candidate on the group union; the release grades each on its own tests', async () => {
    const own = await rewards('own');
    const shared = await rewards('shared');
    expect(sharedTestSet(shared.validated)).toEqual([
      'assert clamp(5) == 5',
      'assert clamp(-3) == 0',
      'assert clamp(20) == 10',
    ]);
    console.log(`coder rewards own [${own.coderRewards.join(', ')}] shared [${shared.coderRewards.join(', ')}]`);
    // Release: the correct candidate gets 0 (its rollout has no valid test), the missed bug 1, the caught bug 1/2.
    expect(own.coderRewards).toEqual([0, 1, 0.5]);
    // Shared: the correct candidate passes all three, each bug fails one of them.
    expect(shared.coderRewards).toEqual([1, 2 / 3, 2 / 3]);
    expect(shared.judged.map((c) => c.shared)).toEqual([
      { numValid: 3, numPassed: 3 },
      { numValid: 3, numPassed: 2 },
      { numValid: 3, numPassed: 2 },
    ]);
    expect(own.judged.every((c) => c.shared === undefined)).toBe(true);
    // Each rollout's verdicts, the Tester rewards and the hidden pass rates do not depend on the grading.
    expect(shared.judged.map((c) => c.rollouts.map((r) => r.passed))).toEqual(
      own.judged.map((c) => c.rollouts.map((r) => r.passed)),
    );
    expect(shared.testerRewards).toEqual(own.testerRewards);
    expect(shared.judged.map((c) => c.hiddenPassRate)).toEqual([1, 2 / 3, 2 / 3]);
  });
});
