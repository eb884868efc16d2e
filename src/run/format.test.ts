// The evaluation table `npm run eval` prints: a row per split with its metrics, the 95% intervals under it, and the
// resampling unit named when the records were drawn over tasks.
import { describe, expect, it } from 'vitest';
import { formatReport } from './format';
import { problemRecord } from './eval-ci';
import { heldoutReport } from '../analysis/report-fixture';
import { overTasks } from '../analysis/targets';

const recs = Array.from({ length: 6 }, (_, i) => problemRecord(`f/${i}`, 8, i === 5 ? 6 : i, false));

describe('formatReport', () => {
  it('prints each split’s pass@1 and its interval over problems', () => {
    const lines = formatReport([heldoutReport(recs)]).split('\n');
    expect(lines[1]).toMatch(/^heldout\s+6\s+33\.3%/); // (0+1+2+3+4+6) / 48
    expect(lines[2]).toMatch(/^ {2}95% CI \(6 problems × 8 samples\): pass@1 \d+\.\d–\d+\.\d /);
  });

  it('names the tasks the interval was drawn over when the records name them', () => {
    const byTask = overTasks(heldoutReport(recs), (id) => `task${Number(id.split('/')[1]) % 2}`);
    const lines = formatReport([byTask]).split('\n');
    expect(lines[1]).toMatch(/^heldout\s+6\s+33\.3%/);
    expect(lines[2]).toMatch(/^ {2}95% CI \(6 problems × 8 samples, drawn over 2 tasks\): pass@1 /);
  });
});
