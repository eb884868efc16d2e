// The presenter's picture of one training step (GAN Lab's model overview is the model): Coder → candidates →
// white-box Tester → ground-truth validation → execution → rewards → Mistake Book → GRPO, the running part lit, each
// with this step's counts (from the phase reports while the step runs, then from its rollout records).
import type { Mode } from '../../../rl/metrics';
import { modeRules } from '../../../rl/modes';
import type { Phase } from '../../../rl/records';
import { useLab } from '../../store';
import type { LabState } from '../../store/types';
import {
  bookText,
  executionText,
  goldenExecutionText,
  stepCounts,
  validationText,
  type StepCounts,
} from '../../../rl/vocabulary';
import type { BookHistoryPoint } from '../../../rl/mistake-book';

interface Node {
  id: string;
  title: string;
  phase: Phase;
  what: (mode: Mode) => string;
}

const NODES: Node[] = [
  { id: 'coder', title: 'Coder', phase: 'coder-rollout', what: () => 'writes M candidate solutions per problem' },
  { id: 'candidates', title: 'Candidates', phase: 'coder-rollout', what: () => 'one GRPO group per problem' },
  {
    id: 'tester',
    title: 'White-box Tester',
    phase: 'tester-rollout',
    what: (m) =>
      m === 'golden'
        ? 'none in golden mode: the problem’s own tests'
        : m === 'self-play'
          ? 'the Coder itself writes the tests'
          : m === 'ace'
            ? 'the same model writes inputs meant to crash each program'
            : m === 'tcs'
              ? 'attacks buffered programs (stage 2: only failing ones)'
              : 'reads each candidate, writes asserts to break it',
  },
  {
    id: 'validation',
    title: 'Ground-truth validation',
    phase: 'validation',
    what: (m) =>
      m === 'ace' ? 'none: no ground truth, calls only' : 'each test’s call runs on the reference solution',
  },
  {
    id: 'execution',
    title: 'Execution',
    phase: 'execution',
    what: () => 'candidates run the tests in the Python sandbox',
  },
  {
    id: 'rewards',
    title: 'Rewards',
    phase: 'rewards',
    what: (m) =>
      m === 'ace'
        ? 'robust programs kept · inputs that broke one = desirable'
        : m === 'tcs'
          ? 'coder: pass rate · tester: consistency, then counterexamples'
          : 'coder: pass rate · tester: α·validity + (1−α)·attack',
  },
  { id: 'book', title: 'Mistake Book', phase: 'mistake-book', what: () => 'keeps tests that broke code, replays them' },
  {
    id: 'grpo',
    title: 'GRPO update',
    phase: 'update',
    what: (m) =>
      m === 'golden'
        ? 'updates the Coder'
        : m === 'self-play'
          ? 'updates the one model'
          : m === 'ace'
            ? 'SFT on robust programs, KTO on the inputs'
            : 'updates both models',
  },
];

const LOOP_TITLE: Record<Mode, string> = {
  'code-a1': 'Code-A1',
  golden: 'the golden-tests baseline',
  'self-play': 'the self-play baseline',
  tcs: 'TCS (two-stage test generator)',
  ace: 'ACE (execution-only adversary)',
};

export { stepCounts };

/** A node's counts after a step, in the same words (and from the same formulas) as the trainer's phase reports. */
function nodeCounts(
  id: string,
  c: StepCounts | null,
  m: LabState['series'][number]['metrics'][number] | undefined,
  book: BookHistoryPoint | undefined,
  mode: Mode,
): string | null {
  if (!c || !m) return null;
  switch (id) {
    case 'coder':
      return `entropy ${m['coder/entropy'].toFixed(2)}`;
    case 'candidates':
      return `${c.candidates} written, ${c.compiled} compile`;
    case 'tester':
      // What it wrote; the validation node beside it says which of it counts.
      return mode === 'golden' ? null : `${c.lines} assert lines written`;
    case 'validation':
      return mode === 'golden' ? `${c.golden} golden tests` : validationText(c);
    case 'execution':
      return mode === 'golden' ? goldenExecutionText(c) : executionText(c);
    case 'rewards':
      return mode === 'golden'
        ? `coder ${m['coder/reward_mean'].toFixed(2)}`
        : `coder ${m['coder/reward_mean'].toFixed(2)} · tester ${m['tester/reward_mean'].toFixed(2)}`;
    case 'book':
      return book ? bookText(book) : `${m['mistake_book/size']} tests in the book`;
    case 'grpo':
      return `KL ${m['coder/kl'].toExponential(1)}`;
  }
  return null;
}

/** A count text with its numbers set large (the key numbers a class reads from the back of the room). */
function Numbers({ text }: { text: string }) {
  return (
    <>
      {text.split(/(-?\d+(?:\.\d+)?(?:e-?\d+)?)/).map((part, i) =>
        i % 2 ? (
          <span key={i} className="num">
            {part}
          </span>
        ) : (
          part
        ),
      )}
    </>
  );
}

/** What the Coder or the Tester is writing right now, as the sampler reads it back (a few sequences). */
function LiveText() {
  const stream = useLab((s) => s.stream);
  const status = useLab((s) => s.status);
  const step = useLab((s) => s.step);
  const running = status === 'running' || status === 'stepping' || status === 'paused';
  if (!stream || !running || stream.step !== step) return null;
  const who = stream.phase === 'coder-rollout' ? 'coder' : 'tester';
  return (
    <div className="live-text" data-testid={`stream-${who}`} aria-live="off">
      <b>
        {who === 'coder' ? 'The Coder is writing' : 'The Tester is writing'} ({stream.texts.length} of {stream.total}{' '}
        {who === 'coder' ? 'candidates' : 'test groups'}):
      </b>
      <div className="live-cols">
        {stream.texts.map((t, i) => (
          <pre key={i} className="code live">
            {t || '…'}
          </pre>
        ))}
      </div>
    </div>
  );
}

export function LoopDiagram() {
  const mode = useLab((s) => s.config.mode);
  const status = useLab((s) => s.status);
  const current = useLab((s) => s.currentPhase);
  const events = useLab((s) => s.phaseEvents);
  const last = useLab((s) => s.rolloutSteps.at(-1));
  const runId = useLab((s) => s.runId);
  const metrics = useLab((s) => s.series.find((r) => r.id === runId)?.metrics.at(-1));
  const running = status === 'running' || status === 'stepping';
  const history = useLab((s) => s.mistakeHistory);
  const counts = last ? stepCounts(last.rollouts) : null;
  const book = last ? history.find((h) => h.step === last.step) : undefined;
  return (
    <section
      className="panel loop"
      data-testid="loop-diagram"
      aria-label="One training step"
      data-step={last?.step ?? ''}
      data-valid={counts?.valid ?? ''}
      data-invalid={counts?.invalid ?? ''}
      data-breaks={counts?.breaks ?? ''}
      data-book-added={book?.added ?? ''}
    >
      <h2 className="loop-title">
        One step of {LOOP_TITLE[mode]}
        <span className="muted">
          {' '}
          ·{' '}
          {running && current
            ? 'lit: running now'
            : last
              ? `counts from step ${last.step}`
              : 'counts appear after the first step'}
        </span>
      </h2>
      <ol className="loop-nodes">
        {NODES.map((n) => {
          const active = running && current === n.phase;
          const ev = events.find((e) => e.phase === n.phase);
          const skip =
            (!modeRules(mode).usesTester && n.id === 'tester') || (!modeRules(mode).mistakeBook && n.id === 'book');
          return (
            <li
              key={n.id}
              className={`loop-node${active ? ' active' : ''}${ev && running ? ' done' : ''}${skip ? ' skipped' : ''}`}
              data-testid={`loop-${n.id}`}
              data-active={active}
              aria-current={active ? 'step' : undefined}
            >
              <b>{n.title}</b>
              <span className="loop-what">{n.what(mode)}</span>
              <span className="loop-count" data-testid={`loop-count-${n.id}`}>
                <Numbers text={running && ev ? ev.summary : (nodeCounts(n.id, counts, metrics, book, mode) ?? '')} />
              </span>
            </li>
          );
        })}
      </ol>
      <LiveText />
      <p className="loop-back muted" aria-hidden="true">
        ↺ the updated models write the next step’s candidates and tests
      </p>
    </section>
  );
}
