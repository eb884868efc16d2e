// Mistake Book explorer: per problem, each test with its frequency and lineage; search and filter; growth over time.
import type uPlot from 'uplot';
import { labStore, useLab } from '../../store';
import { UPlotChart, type ChartSpec } from '../charts/UPlotChart';
import { filterMistakes, groupByProblem } from './filter';
import { NumberField } from '../fields';

const GROWTH: ChartSpec = {
  id: 'book-growth',
  title: 'Mistake Book over time: size, tests added and removed per step',
  yLabel: 'tests',
  deps: (s) => [s.mistakeHistory],
  build: (s) => {
    const h = s.mistakeHistory;
    const series: uPlot.Series[] = [
      { label: 'size', stroke: '#2563eb', width: 2 },
      { label: 'added', stroke: '#16a34a', dash: [4, 3] },
      { label: 'removed', stroke: '#dc2626', dash: [4, 3] },
    ];
    return {
      data: [h.map((p) => p.step), h.map((p) => p.size), h.map((p) => p.added), h.map((p) => p.removed)],
      series,
    };
  },
};

export function MistakeBookPanel() {
  const entries = useLab((s) => s.mistakes);
  const query = useLab((s) => s.mistakeQuery);
  const minF = useLab((s) => s.mistakeMinFrequency);
  const shown = filterMistakes(entries, query, minF);
  const groups = groupByProblem(shown);
  return (
    <section className="panel" data-testid="mistakes">
      <p className="note">
        Tests that broke a candidate, per problem. Frequency goes +1 each time a test breaks a candidate and −1 each
        time a replayed test is passed; at 0 the entry leaves the book. The top-k by frequency are replayed to the
        Coder.
      </p>
      <div className="form-row">
        <input
          data-testid="mistake-search"
          aria-label="search tests or problems"
          placeholder="search tests or problems"
          value={query}
          onChange={(e) => labStore.getState().setMistakeFilter(e.target.value, minF)}
        />
        <NumberField
          label="min frequency"
          ariaLabel="minimum frequency"
          min={1}
          value={minF}
          width={60}
          onChange={(v) => labStore.getState().setMistakeFilter(query, Math.max(1, v || 1))}
        />
        <span className="muted" data-testid="mistake-count">
          {shown.length} of {entries.length} entries · {groups.length} problems
        </span>
      </div>
      <UPlotChart spec={GROWTH} />
      {groups.map((g) => (
        <div key={g.problemId} className="book-group">
          <h3>
            {g.problemId}{' '}
            <span className="muted">
              ({g.entries.length} tests, total frequency {g.totalFrequency})
            </span>
          </h3>
          <table className="book">
            <thead>
              <tr>
                <th>test</th>
                <th title="times it broke a candidate minus times a replay was passed">freq</th>
                <th>born at step</th>
                <th>candidates broken</th>
                <th>replays</th>
                <th>last passed</th>
              </tr>
            </thead>
            <tbody>
              {g.entries.map((e) => (
                <tr key={e.test} data-testid="mistake-entry">
                  <td>
                    <code>{e.test}</code>
                  </td>
                  <td>{e.frequency}</td>
                  <td data-testid="lineage-born">{e.stepBorn}</td>
                  <td>{e.candidatesBroken}</td>
                  <td>{e.timesReplayed}</td>
                  <td>{e.lastPassedStep ?? 'never'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
      {!entries.length && <p className="muted">The book is empty: no generated test has broken a candidate yet.</p>}
    </section>
  );
}
