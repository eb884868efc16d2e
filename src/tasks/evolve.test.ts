// Test evolution: call mutation, the greedy cover and redundancy on hand-made kill sets, and one weak HumanEval suite
// evolved in the real sandbox into one that separates the pool, written as JSONL the importer reads back.
import { describe, expect, it } from 'vitest';
import { evolveTests, evolvedRecord, greedyCover, mutateCall, redundancy, sourceMutants } from './evolve';
import { importJsonl } from './importers';
import { usePool } from '../sandbox/test-helpers';

describe('evolution parts', () => {
  it('mutates one literal at a time', () => {
    expect(mutateCall('f(2, "ab")').sort()).toEqual([
      'f(-2, "ab")',
      'f(0, "ab")',
      'f(1, "ab")',
      'f(2, "")',
      'f(2, "abab")',
      'f(3, "ab")',
    ]);
    expect(mutateCall('f([5, 6])')).toEqual(expect.arrayContaining(['f([])', 'f([5])', 'f([6, 6])', 'f([5, 7])']));
    expect(mutateCall('f(x)')).toEqual([]);
  });

  it('keeps the fewest tests that make every separation, and measures redundancy', () => {
    const kills = [['a'], ['a', 'b'], [], ['c'], ['b']];
    expect(greedyCover(kills)).toEqual([1, 3]);
    // Each of tests 0, 1, 4 separates only what the others also separate, the empty test 2 trivially; 3 alone finds c.
    expect(redundancy(kills)).toBeCloseTo(4 / 5, 12);
    expect(redundancy([['a'], ['b']])).toBe(0);
  });

  it('single-edit mutants of a reference differ from it in one place', () => {
    const ms = sourceMutants('def f(x):\n    return x >= 0 and x < 10\n');
    expect(ms.map((m) => m.code)).toEqual(
      expect.arrayContaining([
        'def f(x):\n    return x > 0 and x < 10\n',
        'def f(x):\n    return x >= 0 and x <= 10\n',
        'def f(x):\n    return x >= 0 or x < 10\n',
      ]),
    );
  });
});

describe('evolving a weak suite (real sandbox)', { timeout: 120_000 }, () => {
  const pool = usePool();
  const record = {
    task_id: 'Toy/0',
    prompt: 'def clamp(x):\n    """Clamp x into [0, 10]."""\n',
    entry_point: 'clamp',
    canonical_solution: '    return max(0, min(10, x))\n',
    test: 'def check(candidate):\n    assert candidate(5) == 5\n    assert candidate(6) == 6\n',
  };

  it('the evolved suite separates mutants the original passed, drops redundant tests, and re-imports with lineage', async () => {
    const problem = importJsonl(JSON.stringify(record)).items[0].problem;
    const candidates = [
      { id: 'no-upper', code: 'def clamp(x):\n    return max(0, x)\n' },
      { id: 'no-lower', code: 'def clamp(x):\n    return min(10, x)\n' },
      { id: 'correct', code: 'def clamp(x):\n    return 0 if x < 0 else 10 if x > 10 else x\n' },
    ];
    const r = await evolveTests(pool(), problem, candidates, {
      rounds: 3,
      extraProposals: () => ['assert clamp(-4) == 0'],
    });
    console.log(
      `evolve toy: pass ${r.passBefore} → ${r.passAfter}, suite ${r.sizeBefore} → ${r.sizeAfter}, redundancy ${r.redundancyBefore} → ${r.redundancyAfter}`,
    );
    expect(r.passBefore).toBe(1);
    // Negative inputs (the extra proposal, or 5 → −5) separate no-lower; the upper bug needs an input above 10, which
    // literal edits (±1, 0, −x) of 5 and 6 never reach within three rounds: no-upper survives.
    expect(r.passAfter).toBeCloseTo(2 / 3, 12);
    expect(r.tests.flatMap((t) => t.separated)).toContain('no-lower');
    expect(r.tests.every((t) => t.round >= 1 && !t.separated.includes('correct'))).toBe(true);
    expect(r.redundancyAfter).toBe(0);
    const back = importJsonl(JSON.stringify(evolvedRecord(problem, r)));
    expect(back.errors).toEqual([]);
    expect(back.items[0].problem.hiddenTests).toEqual(r.tests.map((t) => t.text));
  });
});
