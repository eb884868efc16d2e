// "Compare with…" on a cluster run imported from the release (npm run import-run of its console log): the run is
// labelled as a release run, and the metrics whose definitions differ are drawn as the release's, never as the lab's.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseConsoleLog, toLabMetrics } from '../../../export/verl/logs';
import { createLabStore } from '../../store/index';
import { addComparison } from '../../actions';
import { CHARTS } from './ChartsPanel';

const LOG = new URL('../../../export/verl/fixtures/release-console.log', import.meta.url);

describe('Compare with a release run', () => {
  it('"Compare with…" labels the run and draws those metrics under the release\'s definitions', async () => {
    const store = createLabStore();
    const got = toLabMetrics(parseConsoleLog(readFileSync(LOG, 'utf8')));
    const jsonl = got.map((m) => JSON.stringify(m)).join('\n');
    await addComparison(store, new File([jsonl], 'metrics.jsonl'));
    const series = store.getState().series.find((r) => r.id === 'cmp:metrics.jsonl')!;
    expect(series.label).toMatch(
      /release run: its coder\/pass_rate and tester\/valid_test_rate are by the release's definitions/,
    );
    const chart = CHARTS.find((c) => c.id === 'pass-rates')!;
    const built = chart.build(store.getState());
    const labels = built.series.map((s) => String(s.label));
    const i = labels.findIndex((l) => l.startsWith("valid tests, release's definition"));
    expect(i).toBeGreaterThanOrEqual(0);
    // The lab's "valid tests" line stays empty for this run: the release's rate is not passed off as the lab's.
    const lab = labels.findIndex((l) => l.startsWith('valid tests') && !l.includes('release'));
    expect(built.data[lab + 1].every((v) => v === null)).toBe(true);
    expect(built.data[i + 1].filter((v) => v !== null)).toHaveLength(20);
  });
});
