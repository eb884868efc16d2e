// Mistake Book explorer for teaching: what the book is, then per problem (collapsed) each test with the candidate it
// broke, expected vs got, when it was born and replayed; search and filter; growth over time.
import type uPlot from 'uplot';
import { labStore, useLab } from '../../store';
import { UPlotChart, type ChartSpec } from '../charts/UPlotChart';
import { filterMistakes, groupByProblem } from './filter';
import { NumberField } from '../fields';
import { presetValue } from '../../config/run-config';
import { TERMS } from '../../../rl/vocabulary';
import { splitAssert } from '../../../sandbox/split';
import type { MistakeEntry } from '../../../rl/records';

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
  const config = useLab((s) => s.config);
  const topK = String(config.overrides.replayTopK ?? presetValue(config.preset, 'replayTopK') ?? 8);
  return (
    <section className="panel" data-testid="mistakes">
      <div className="note book-intro" data-testid="mistake-explain">
        <p>
          <b>What this is.</b> The Tester’s best attacks, kept per problem. Each entry is a test that broke a candidate:{' '}
          {TERMS.break.replace(/^break: /, '')}. At the next steps the {topK} most frequent of a problem are replayed to
          the Coder with its new candidates; a replay a candidate passes takes 1 off, and at 0 the test leaves the book.
          So the book holds the bugs the Coder has not yet unlearned.
        </p>
        <p className="muted">
          Each entry shows the test (its expected value is the reference solution’s output), what the broken candidate
          did instead, that candidate’s code, and when the test was born and replayed. Problems start collapsed: open
          one to read its tests.
        </p>
      </div>
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
        <details key={g.problemId} className="book-group" data-testid="mistake-group">
          <summary>
            <b>{g.problemId}</b>{' '}
            <span className="muted">
              {g.entries.length} {g.entries.length === 1 ? 'test' : 'tests'} · total frequency {g.totalFrequency}
            </span>
          </summary>
          <ol className="book-entries">
            {g.entries.map((e) => (
              <MistakeCard key={e.test} e={e} />
            ))}
          </ol>
        </details>
      ))}
      {!entries.length && <p className="muted">The book is empty: no generated test has broken a candidate yet.</p>}
    </section>
  );
}

/** The expected value a test asserts: the reference output, filled in when the test was validated. */
function expectedOf(test: string): string {
  return splitAssert(test)?.[1] ?? test.replace(/^assert\s+/, '');
}

function MistakeCard({ e }: { e: MistakeEntry }) {
  const replays = e.replayedAt?.length
    ? `replayed ${e.timesReplayed}× (at step ${e.replayedAt.join(', ')}${e.timesReplayed > e.replayedAt.length ? ', …' : ''})`
    : e.timesReplayed
      ? `replayed ${e.timesReplayed}×`
      : 'not replayed yet';
  return (
    <li className="book-entry" data-testid="mistake-entry">
      <code className="book-test">{e.test}</code>
      <dl className="book-facts">
        <div>
          <dt>expected</dt>
          <dd data-testid="mistake-expected">
            <code>{expectedOf(e.test)}</code>
          </dd>
        </div>
        <div>
          <dt>got</dt>
          <dd data-testid="mistake-got">{e.got ?? <span className="muted">not recorded (an older run)</span>}</dd>
        </div>
        <div>
          <dt>born</dt>
          <dd data-testid="lineage-born">step {e.stepBorn}</dd>
        </div>
        <div>
          <dt>replays</dt>
          <dd data-testid="mistake-replayed">
            {replays}
            {e.lastPassedStep !== null ? ` · last passed at step ${e.lastPassedStep}` : ''}
          </dd>
        </div>
        <div>
          <dt title="breaks minus passed replays">frequency</dt>
          <dd>
            {e.frequency} (broke {e.candidatesBroken} {e.candidatesBroken === 1 ? 'candidate' : 'candidates'})
          </dd>
        </div>
      </dl>
      {e.brokeCandidate ? (
        <details className="book-candidate">
          <summary>the candidate it broke first</summary>
          <pre className="code" data-testid="mistake-candidate">
            {e.brokeCandidate}
          </pre>
        </details>
      ) : (
        <p className="muted">The candidate it broke was not recorded (an older run).</p>
      )}
    </li>
  );
}
