// The power table from committed records: one row per pair with two seeds, and a plain sentence, not an empty
// table, while the records hold a single seed (the reference runs land one seed at a time).
import { describe, expect, it } from 'vitest';
import { targetRunsIn } from './compare-records-node';
import { powerTable } from './power';

describe('power table', { timeout: 120_000 }, () => {
  const runs = targetRunsIn('docs/results-data', 'heldout-task');

  it('has a row per pair of modes when two seeds are recorded', () => {
    const lines = powerTable(runs, 40, 108);
    expect(lines.filter((l) => /^\| (code-a1|golden) − /.test(l))).toHaveLength(3);
    expect(lines.join('\n')).not.toMatch(/NaN|Infinity/);
  });

  it('says in one sentence that one seed gives no spread', () => {
    const lines = powerTable(
      runs.filter((r) => r.seed === 1),
      40,
      108,
    );
    expect(lines).toEqual(['No pair of modes has two seeds evaluated at step 40 yet: the power table needs them.']);
  });
});
