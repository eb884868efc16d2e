// One vocabulary for a step's tests (the published release's counting, docs/method.md): what valid, invalid, attack,
// break and replay mean, each test record's kind, a step's counts from its records, and the count texts that the
// trainer's phase reports and every view (diagram, step-through, inspector, Mistake Book) print the same way.
import { alignPassed, type RolloutRecord, type TestRecord } from './records';

/** The words, as a class reads them: every view shows these definitions, never its own. */
export const TERMS = {
  valid:
    'valid test: a distinct assert whose call ran on the reference solution; it runs with the reference output filled in as the expected value',
  wrongExpected:
    'wrong expected: a valid test whose written expected value differs from the reference output; it still runs (with the reference output) and also counts as invalid',
  invalid:
    'invalid: an assert line that earns no validity: malformed, its call raised on the reference, a wrong expected value, or a repeat of a filled-in statement',
  attack: 'attack: a valid test run against the candidate it was written for',
  break: 'break: an attack that a compiling candidate failed; each break adds 1 to the test’s Mistake Book frequency',
  replay: 'replay: a Mistake Book test run again against every compiling candidate of its problem',
  step: 'steps are numbered from 0, as on the charts and in saved records; “N steps done” counts them',
} as const;

/** What one recorded test is, in the words above. */
export type TestKind = 'valid' | 'wrong-expected' | 'raised' | 'repeat' | 'replay' | 'golden';

export const KIND_LABEL: Record<TestKind, string> = {
  valid: 'valid',
  'wrong-expected': 'valid · wrong expected',
  raised: 'invalid · call raised',
  repeat: 'invalid · repeat',
  replay: 'replay',
  golden: 'golden',
};

export function testKind(t: TestRecord, mode?: string): TestKind {
  if (t.replay) return 'replay';
  if (mode === 'golden') return 'golden';
  if (t.callOk) return t.valid ? 'valid' : 'wrong-expected';
  return t.repeat ? 'repeat' : 'raised';
}

/** A kind counts toward the validity reward's #valid. */
export const isValidKind = (k: TestKind) => k === 'valid' || k === 'wrong-expected';

export interface StepCounts {
  candidates: number;
  compiled: number;
  /** Assert lines the Tester wrote (malformed ones included when the record has their count). */
  lines: number;
  valid: number;
  /** Of the valid tests, those whose written expected value was wrong (counted in `invalid` too). */
  wrongExpected: number;
  /** The release's #invalid: malformed + raised + wrong expected + repeats. */
  invalid: number;
  /** Valid tests that a compiling candidate failed (what the Mistake Book adds, +1 each). */
  breaks: number;
  /** Distinct Mistake Book tests replayed, summed over problems. */
  replays: number;
  /** Golden mode: the problem's own tests run, and how many of them a candidate failed. */
  golden: number;
  goldenFailed: number;
}

/** Counts of one step from its rollout records. */
export function stepCounts(rollouts: RolloutRecord[]): StepCounts {
  const c: StepCounts = {
    candidates: 0,
    compiled: 0,
    lines: 0,
    valid: 0,
    wrongExpected: 0,
    invalid: 0,
    breaks: 0,
    replays: 0,
    golden: 0,
    goldenFailed: 0,
  };
  for (const r of rollouts) {
    c.replays += r.replays.length;
    for (const cand of r.candidates) {
      c.candidates++;
      if (cand.compiles) c.compiled++;
      for (const tr of cand.testerRollouts) {
        const passed = alignPassed(tr);
        const malformed = tr.malformed ?? 0;
        c.lines += malformed;
        c.invalid += malformed;
        tr.tests.forEach((t, i) => {
          const k = testKind(t, r.mode);
          if (k === 'replay') return;
          if (k === 'golden') {
            c.golden++;
            if (passed[i] === false) c.goldenFailed++;
            return;
          }
          c.lines++;
          if (isValidKind(k)) {
            c.valid++;
            if (cand.compiles && passed[i] === false) c.breaks++;
          }
          if (k !== 'valid') c.invalid++;
          if (k === 'wrong-expected') c.wrongExpected++;
        });
      }
    }
  }
  return c;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The validation count text (the phase report while the step runs, the diagram and step-through after it). */
export function validationText(c: Pick<StepCounts, 'lines' | 'valid' | 'invalid' | 'wrongExpected'>): string {
  return `${plural(c.lines, 'assert line')} · ${c.valid} valid · ${c.invalid} invalid (${c.wrongExpected} wrong expected)`;
}

export function executionText(c: Pick<StepCounts, 'compiled' | 'candidates' | 'breaks' | 'replays'>): string {
  return `${c.compiled}/${c.candidates} candidates compile · ${plural(c.breaks, 'break')} · ${plural(c.replays, 'replayed test')}`;
}

export function goldenExecutionText(c: Pick<StepCounts, 'compiled' | 'candidates' | 'golden' | 'goldenFailed'>) {
  return `${c.compiled}/${c.candidates} candidates compile · ${c.goldenFailed} of ${plural(c.golden, 'golden test run')} failed`;
}

export function bookText(p: { added: number; removed: number; size: number }): string {
  return `${p.added} new · ${p.removed} removed · ${plural(p.size, 'test')} in the book`;
}

/** "1 step done · last: step 0" (steps are numbered from 0; see TERMS.step). */
export function stepsDoneText(n: number): string {
  return n === 0 ? 'no step done yet' : `${plural(n, 'step')} done · last: step ${n - 1}`;
}
