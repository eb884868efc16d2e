// The result sentences follow the records: the committed pilot records say no method effect; the same records with
// golden's final evaluation emptied (every sample failing) make code-a1 − golden's interval exclude 0, and the
// sentences must say so; the reference directory's wording never calls its runs pilots or pending.
import { describe, expect, it } from 'vitest';
import { pageClaims, readmeClaims, REFERENCE_DIR, type ClaimInputs } from './claims';
import { targetRunsIn } from './compare-records-node';
import type { TargetRun } from './targets';

const DATA = 'docs/results-data';
const DIR = 'heldout-task';
const STEP = 40;

function inputs(runs: TargetRun[], dir = DIR): ClaimInputs {
  return { runs, step: STEP, dir, powerRuns: [runs], powerStep: STEP, planTasks: 108 };
}

/** Golden's evaluation at STEP with no sample passing: a large, certain code-a1 − golden gap. */
function goldenFailsAll(runs: TargetRun[]): TargetRun[] {
  return runs.map((r) =>
    r.mode !== 'golden'
      ? r
      : {
          ...r,
          evals: r.evals.map((e) =>
            e.step !== STEP
              ? e
              : {
                  ...e,
                  rows: e.rows.map((row) => ({
                    ...row,
                    perProblem: row.perProblem?.map((p) => ({ ...p, passed: 0 })),
                  })),
                },
          ),
        },
  );
}

describe('result sentences', { timeout: 300_000 }, () => {
  const runs = targetRunsIn(DATA, DIR);

  it('say "no method effect" only while code-a1 − golden includes 0', () => {
    expect(runs.length).toBeGreaterThanOrEqual(6);
    const plain = readmeClaims(inputs(runs)).join(' ');
    expect(plain).toContain('no method effect is visible');
    const tampered = readmeClaims(inputs(goldenFailsAll(runs))).join(' ');
    expect(tampered).toContain('its interval excludes 0');
    expect(tampered).not.toContain('no method effect');
  });

  it('call pilot runs pilots, and the reference runs neither pilots nor pending', () => {
    expect(readmeClaims(inputs(runs)).join(' ')).toContain('pilot runs');
    const ref = [...readmeClaims(inputs(runs, REFERENCE_DIR)), ...pageClaims(inputs(runs, REFERENCE_DIR))].join(' ');
    expect(ref).not.toMatch(/pilot|pending/);
    expect(ref).toContain('reference runs');
    const refOutside = pageClaims(inputs(goldenFailsAll(runs), REFERENCE_DIR)).join(' ');
    expect(refOutside).toContain('outside its interval is one of three comparisons');
  });

  it('name the comparisons whose intervals exclude 0', () => {
    expect(pageClaims(inputs(runs))[0]).toContain('no difference lies outside its interval');
    const shows = pageClaims(inputs(goldenFailsAll(runs)))[0];
    // Golden failing everything at the step: code-a1 − golden and golden − its start move away from 0.
    expect(shows).toMatch(/the interval excludes 0 for [^.]*code-a1 − golden/);
    expect(shows).toMatch(/the interval excludes 0 for [^.]*golden − its start/);
    expect(shows).not.toContain('none between modes');
    expect(shows).not.toMatch(/\b1 seeds\b/);
  });

  it('state one seed as one seed, with no power figure a single seed cannot give', () => {
    // The reference runs land seed by seed; the sentences of a one-seed record set must still be true sentences.
    const one = runs.filter((r) => r.seed === 1);
    const text = [...pageClaims(inputs(one, REFERENCE_DIR)), ...readmeClaims(inputs(one, REFERENCE_DIR))].join(' ');
    expect(text).not.toMatch(/Infinity|NaN|one seeds|seeds 1\b/);
    expect(text).toContain('one seed of 40 steps');
    expect(text).toContain('once two seeds are recorded');
    expect(text).not.toMatch(/below (what )?this lab/);
  });

  it("say the paper's gap is out of reach only while the computed power is below 80%", () => {
    // With 10 million tasks the task term vanishes and code-a1 − self-play's seed spread (0.0 in these records) leaves
    // almost no standard error: even the paper's 1.07 points is then within reach.
    const page = pageClaims({ ...inputs(runs), planTasks: 1e7 }).join(' ');
    expect(page).toContain('within what this lab can resolve');
    expect(pageClaims(inputs(runs)).join(' ')).toMatch(/far below what this lab can resolve/);
  });
});
