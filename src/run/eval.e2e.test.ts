// evaluateSplit end to end on `micro` (shipped micro models, real sandbox): one record per problem whose counts give
// the reported metrics and hold their CIs, deterministic for a seed, and cutting generation into small batches leaves
// greedy decoding (seed-free) unchanged, so the chunks are put back in order; --show keeps the greedy programs asked
// for.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedNodeGpu } from '../gpu/node';
import { createNodeSandbox } from '../sandbox/node';
import { presetConfig } from '../rl/config';
import { buildPolicies, loadCurriculum } from './lab-setup';
import { loadCheckpointDir } from '../model/checkpoint-node';
import { DEFAULT_EVAL, evaluateSplit, type EvalOptions, type SplitReport } from './eval';
import { CI_METRICS, summarize } from './eval-ci';
import type { Policy } from '../rl/policy';

const sandbox = createNodeSandbox();
const c = presetConfig('micro');
const cur = loadCurriculum(c.tasks.families);
const problems = cur.heldout.slice(0, 2);
let coder: Policy;
let tester: Policy;

beforeAll(async () => {
  const gpu = await sharedNodeGpu();
  await sandbox.warm();
  const pol = buildPolicies(gpu, c, {
    coder: await loadCheckpointDir(`public/${c.model.coderCheckpoint}`),
    tester: await loadCheckpointDir(`public/${c.model.testerCheckpoint}`),
  });
  coder = pol.coder;
  tester = pol.tester;
}, 300_000);

afterAll(async () => {
  await sandbox.close();
});

const opts = (o: Partial<EvalOptions> = {}): EvalOptions => ({
  ...DEFAULT_EVAL,
  samples: 2,
  k: c.rollout.tests_per_group,
  maxNewTokens: 32,
  maxTestTokens: 24,
  mutantsPerProblem: 1,
  ...o,
});
const run = (o: Partial<EvalOptions> = {}) =>
  evaluateSplit('heldout', problems, cur.mutants, coder, tester, sandbox, opts(o));

describe('evaluateSplit on micro', { timeout: 600_000 }, () => {
  let a: SplitReport;
  it('keeps per-problem counts that give the reported metrics, with CIs around them', async () => {
    a = await run();
    expect(problems.length).toBe(2);
    const recs = a.perProblem!;
    expect(recs.map((r) => r.id)).toEqual(problems.map((p) => p.id));
    for (const r of recs) {
      expect(r.n).toBe(2);
      expect(r.passed).toBeLessThanOrEqual(2);
      expect(r.mutants).toBe(Math.min(1, cur.mutants.get(r.id)?.length ?? 0));
      expect(r.refCorrect).toBeLessThanOrEqual(r.refLines);
      expect(r.correct).toBeLessThanOrEqual(r.lines);
      expect(r.lines).toBeGreaterThanOrEqual(r.refLines);
      expect(r.selected).toBeTypeOf('boolean');
    }
    const s = summarize(recs);
    for (const m of CI_METRICS) {
      expect(a[m]).toBe(s[m]);
      expect(a.ci![m][0]).toBeLessThanOrEqual(a[m] + 1e-12);
      expect(a.ci![m][1]).toBeGreaterThanOrEqual(a[m] - 1e-12);
    }
    expect(Object.keys(a.seconds!)).toEqual(
      expect.arrayContaining(['coder generation', 'tester generation', 'selection generation']),
    );
  });

  it('is deterministic, and small generation batches change neither greedy results nor what is counted', async () => {
    const again = await run({ selection: false, showGreedy: 1 });
    // --show 1: the first problem's greedy program, judged as the record counts it; nothing unless asked.
    expect(a.greedy).toBeUndefined();
    expect(again.greedy!.map((g) => [g.id, g.passed])).toEqual([[problems[0].id, Boolean(a.perProblem![0].greedy)]]);
    expect(again.greedy![0].code).toContain(`def ${problems[0].entryPoint}(`);
    expect(again.perProblem!.map(({ selected: _s, ...r }) => r)).toEqual(
      a.perProblem!.map(({ selected: _s, ...r }) => r),
    );
    expect(again.perProblem!.every((r) => r.selected === undefined)).toBe(true);
    const chunked = await run({ selection: false, maxBatch: 1 });
    expect(chunked.perProblem!.map((r) => r.greedy)).toEqual(a.perProblem!.map((r) => r.greedy));
    expect(chunked.perProblem!.map((r) => [r.n, r.mutants])).toEqual(a.perProblem!.map((r) => [r.n, r.mutants]));
  });

  it('rejects a sample count below 1 and a negative --show', async () => {
    await expect(run({ samples: 0 })).rejects.toThrow(/samples must be an integer >= 1/);
    await expect(run({ showGreedy: -2 })).rejects.toThrow(/showGreedy \(--show\) must be an integer >= 0, got -2/);
  });
});
