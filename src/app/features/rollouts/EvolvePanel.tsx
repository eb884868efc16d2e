// "Evolve this problem's tests": runs test-suite evolution (src/tasks/evolve.ts) for the inspected curriculum problem
// in a sandbox of its own, shows the pool's pass rate, suite size and redundancy before and after, the kept tests
// with their lineage, and offers the evolved problem as a JSONL line the importers read.
import { useState } from 'react';
import { createBrowserSandbox } from '../../../sandbox/browser';
import {
  curriculumPool,
  curriculumProposals,
  evolveTests,
  evolvedRecord,
  type EvolveResult,
} from '../../../tasks/evolve';
import { loadCurriculum } from '../../../run/lab-setup';
import { PRESETS } from '../../../rl/config';
import { useLab } from '../../store';

const ROUNDS = 2;

type State =
  | { kind: 'idle' }
  | { kind: 'running'; round: number }
  | { kind: 'done'; r: EvolveResult; href: string }
  | { kind: 'error'; message: string };

export function EvolvePanel({ problemId }: { problemId: string }) {
  const preset = useLab((s) => s.config.preset);
  const [st, setSt] = useState<State>({ kind: 'idle' });
  const inst = loadCurriculum(PRESETS[preset].tasks.families).instances.find((i) => i.problem.id === problemId);
  if (!inst) return null;
  const run = async () => {
    setSt({ kind: 'running', round: 0 });
    const sandbox = createBrowserSandbox({ size: 1 });
    try {
      const r = await evolveTests(sandbox, inst.problem, curriculumPool(inst), {
        rounds: ROUNDS,
        extraProposals: curriculumProposals(inst),
        onRound: (x) => setSt({ kind: 'running', round: x.round }),
      });
      const jsonl = JSON.stringify(evolvedRecord(inst.problem, r)) + '\n';
      setSt({ kind: 'done', r, href: URL.createObjectURL(new Blob([jsonl], { type: 'application/jsonl' })) });
    } catch (e) {
      setSt({ kind: 'error', message: e instanceof Error ? e.message : String(e) });
    } finally {
      await sandbox.close();
    }
  };
  return (
    <div className="evolve" data-testid="evolve-panel">
      <button data-testid="evolve-tests" disabled={st.kind === 'running'} onClick={() => void run()}>
        Evolve this problem’s tests
      </button>{' '}
      <span className="muted">
        {st.kind === 'running'
          ? `running round ${st.round + 1} of ${ROUNDS}…`
          : `${ROUNDS} rounds against ${curriculumPool(inst).length} candidate programs (the problem’s bug mutants and other correct styles): keeps tests that separate candidates, drops redundant ones`}
      </span>
      {st.kind === 'error' && <p className="error">{st.message}</p>}
      {st.kind === 'done' && <EvolveResultView r={st.r} href={st.href} id={problemId} />}
    </div>
  );
}

function EvolveResultView({ r, href, id }: { r: EvolveResult; href: string; id: string }) {
  return (
    <div data-testid="evolve-result">
      <p>
        Pool pass rate {r.passBefore.toFixed(2)} → <b>{r.passAfter.toFixed(2)}</b> · suite {r.sizeBefore} →{' '}
        <b>{r.sizeAfter}</b> tests · redundancy {r.redundancyBefore.toFixed(2)} → <b>{r.redundancyAfter.toFixed(2)}</b>{' '}
        <a data-testid="evolve-download" href={href} download={`${id.replace(/\W+/g, '_')}-evolved.jsonl`}>
          download JSONL
        </a>
      </p>
      <ul className="evolve-tests">
        {r.tests.map((t) => (
          <li key={t.text} data-testid="evolved-test">
            <code>{t.text}</code>{' '}
            <span className="muted">
              round {t.round} · separates {t.separated.length ? t.separated.join(', ') : 'nothing'}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
