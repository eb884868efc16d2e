// Golden mode trained against evolved suites: a weak suite is evolved in the real sandbox, written as the JSONL the
// evolve tool writes, put in place of the problem's hidden tests (as `npm run train -- --hidden-tests` does), and the
// golden Coder reward of each candidate then follows the evolved tests: a mutant the original suite passed loses
// exactly the share of evolved tests that the evolution recorded as separating it.
import { describe, expect, it } from 'vitest';
import { evolveTests, evolvedRecord } from '../tasks/evolve';
import { importJsonl } from '../tasks/importers';
import { replaceHiddenTests } from '../tasks/hidden-tests';
import { usePool } from '../sandbox/test-helpers';
import type { Problem } from '../tasks/types';
import { presetConfig } from './config';
import { modeRules } from './modes';
import { executeCandidates, testRewards } from './trainer-judge';

const RECORD = {
  task_id: 'Toy/0',
  prompt: 'def clamp(x):\n    """Clamp x into [0, 10]."""\n',
  entry_point: 'clamp',
  canonical_solution: '    return max(0, min(10, x))\n',
  test: 'def check(candidate):\n    assert candidate(5) == 5\n    assert candidate(6) == 6\n',
};
const POOL = [
  { id: 'no-upper', code: 'def clamp(x):\n    return max(0, x)\n' },
  { id: 'no-lower', code: 'def clamp(x):\n    return min(10, x)\n' },
  { id: 'correct', code: 'def clamp(x):\n    return 0 if x < 0 else 10 if x > 10 else x\n' },
];

describe('golden mode against evolved hidden tests (real sandbox)', { timeout: 120_000 }, () => {
  const pool = usePool();
  const cfg = presetConfig('micro', { mode: 'golden' });

  async function goldenRewards(problem: Problem): Promise<number[]> {
    const s = { cfg, rules: modeRules('golden'), problems: [problem], M: POOL.length, N: 1, K: 4 };
    const judged = await executeCandidates(
      pool(),
      s,
      POOL.map((c) => c.code),
      [],
      [[]],
    );
    return testRewards(s, judged).coderRewards;
  }

  it('rewards each candidate by the share of evolved tests it passes', async () => {
    const original = importJsonl(JSON.stringify(RECORD)).items[0].problem;
    const evolved = await evolveTests(pool(), original, POOL, {
      rounds: 3,
      extraProposals: () => ['assert clamp(-4) == 0'],
    });
    const { problems, replaced } = replaceHiddenTests(
      [original],
      JSON.stringify(evolvedRecord(original, evolved)) + '\n',
    );
    expect(replaced).toEqual(['Toy/0']);
    expect(problems[0].hiddenTests).toEqual(evolved.tests.map((t) => t.text));

    // The original suite (5 and 6 only) passes every candidate.
    expect(await goldenRewards(original)).toEqual([1, 1, 1]);
    const after = await goldenRewards(problems[0]);
    const size = evolved.tests.length;
    const failed = (id: string) => evolved.tests.filter((t) => t.separated.includes(id)).length;
    console.log(`golden rewards, original suite [1, 1, 1] → evolved suite of ${size}: [${after.join(', ')}]`);
    expect(failed('no-lower')).toBeGreaterThan(0);
    expect(after).toEqual(POOL.map((c) => (size - failed(c.id)) / size));
    expect(after[1]).toBeLessThan(1);
  });
});
