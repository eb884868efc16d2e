// Through the real Pyodide sandbox: styles pass all hidden tests, mutants are caught but not trivially; tester corpus is valid.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeSandbox } from '../sandbox/node';
import type { SandboxPool } from '../sandbox/pool';
import { SPECIAL_TOKENS } from '../model/special-tokens';
import { testerPrompt } from '../rl/prompts';
import { buildTesterCorpus } from '../rl/corpus';
import { FAMILIES } from './families/index';
import { generateCurriculum, generateHeldoutTasks } from './generate';
import { checkInstances, sampleByFamily } from './verify';

// Two instances per family keeps this under ~30 s here; `npm run tasks -- stats --check all` judges every instance.
const PER_FAMILY = Number(process.env.TASKS_CHECK_PER_FAMILY ?? 2);
const curriculum = generateCurriculum();

describe('curriculum through the sandbox', () => {
  let sandbox: SandboxPool;
  beforeAll(async () => {
    sandbox = createNodeSandbox({ size: 1 });
    await sandbox.warm();
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it(`styles pass and mutants fail some/pass some (${PER_FAMILY} instances per family)`, async () => {
    const insts = sampleByFamily(curriculum, PER_FAMILY);
    expect(new Set(insts.map((i) => i.problem.family)).size).toBe(FAMILIES.length);
    const t0 = performance.now();
    const checks = await checkInstances(sandbox, insts);
    const judged = checks.reduce((a, c) => a + c.judged, 0);
    console.log(
      `judged ${judged} programs on ${insts.length} problems in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    const bad = checks
      .filter((c) => c.failures.length)
      .map((c) => `${c.problemId}: ${c.failures.slice(0, 3).join('; ')}`);
    expect(bad).toEqual([]);
  });

  it('held-out-task instances (parameters no curriculum instance uses) check out like the curriculum', async () => {
    const insts = sampleByFamily(generateHeldoutTasks(), 2);
    expect(insts.length).toBeGreaterThan(10);
    const checks = await checkInstances(sandbox, insts);
    expect(checks.filter((c) => c.failures.length).map((c) => `${c.problemId}: ${c.failures[0]}`)).toEqual([]);
  });

  it('the TS mirror agrees with the Python reference on every test of 6 instances per family', async () => {
    const insts = sampleByFamily(curriculum, 6);
    const results = await Promise.all(
      insts.map((i) =>
        sandbox.judge({
          code: i.problem.solution,
          entryPoint: i.problem.entryPoint,
          tests: [...i.problem.hiddenTests, ...i.problem.publicTests],
        }),
      ),
    );
    const wrong = results.flatMap((r, k) =>
      r.verdicts.flatMap((v, j) => (v.status === 'passed' ? [] : [`${insts[k].problem.id}: ${v.status} ${j}`])),
    );
    console.log(`references: ${insts.length} problems, ${results.reduce((a, r) => a + r.verdicts.length, 0)} asserts`);
    expect(wrong).toEqual([]);
  });

  it('catches a broken reference: a wrong expected value fails the style check', async () => {
    const [inst] = generateCurriculum({ families: ['three_sum'], perFamily: 1 });
    const tampered = { ...inst, problem: { ...inst.problem, hiddenTests: [...inst.problem.hiddenTests] } };
    tampered.problem.hiddenTests[3] = tampered.problem.hiddenTests[3].replace(/== (.*)$/, '== [(99, 99, 99)]');
    const [check] = await checkInstances(sandbox, [tampered]);
    expect(check.failures.some((f) => f.startsWith('style 0: failed'))).toBe(true);
    // An equivalent "mutant" and one that always crashes are both flagged.
    const weak = {
      ...inst,
      mutants: [
        { ...inst.mutants[0], code: inst.styles[1] },
        { ...inst.mutants[1], code: inst.styles[0].replace(/\n    .*$/s, '\n    return 1 / 0\n') },
      ],
    };
    const [weakCheck] = await checkInstances(sandbox, [weak]);
    expect(weakCheck.failures.filter((f) => f.includes('passes every hidden test')).length).toBe(1);
    expect(weakCheck.failures.filter((f) => f.includes('fails every hidden test')).length).toBe(1);
  });

  it('counts the mutants the docstring example misses, and none once the example pins their bug', async () => {
    // reverse_integer's first mutant drops the sign: its examples (123, -45) catch it; swapped for an example on a
    // positive number only, the mutant passes it while failing the hidden tests with negatives.
    const [inst] = generateCurriculum({ families: ['reverse_integer'], perFamily: 1 });
    const [check] = await checkInstances(sandbox, [inst]);
    expect(check.mutants).toBe(inst.mutants.length);
    const positive = inst.problem.hiddenTests.find((t) => /\(\d+\) ==/.test(t) && !/\(0\) ==/.test(t));
    expect(positive).toBeDefined();
    const weakExample = { ...inst, problem: { ...inst.problem, publicTests: [positive ?? ''] } };
    const [weak] = await checkInstances(sandbox, [weakExample]);
    expect(weak.failures).toEqual([]);
    expect(weak.exampleEscapes).toBeGreaterThan(check.exampleEscapes);
    const pinned = { ...inst, problem: { ...inst.problem, publicTests: inst.problem.hiddenTests } };
    expect((await checkInstances(sandbox, [pinned]))[0].exampleEscapes).toBe(0);
  });

  it('tester corpus: K reference-valid asserts per candidate, some aimed at the mutant bug', async () => {
    const K = 6;
    const insts = sampleByFamily(curriculum, 1).filter((_, i) => i % 3 === 0);
    const corpus = await buildTesterCorpus(sandbox, insts, { seed: 5, k: K, candidateBugRate: 0.7 });
    expect(await buildTesterCorpus(sandbox, insts.slice(0, 3), { seed: 5, k: K, candidateBugRate: 0.7 })).toEqual(
      corpus.slice(0, 3),
    );
    let aimedMutants = 0;
    let mutants = 0;
    for (const [i, ex] of corpus.entries()) {
      const inst = insts[i];
      const candidate =
        ex.meta.source === 'mutant' ? inst.mutants.find((m) => m.kind === ex.meta.kind)?.code : undefined;
      expect(ex.prompt.startsWith(testerPrompt(inst.problem.prompt, K).split('"""\n')[0])).toBe(true);
      expect(ex.completion.endsWith(SPECIAL_TOKENS.end)).toBe(true);
      const body = ex.completion.slice(0, -SPECIAL_TOKENS.end.length);
      const extracted = await sandbox.extract(body, inst.problem.entryPoint, K);
      expect(extracted.tests.length, inst.problem.id).toBe(K);
      const validated = await sandbox.validate(inst.problem.solution, inst.problem.entryPoint, extracted.tests);
      expect(
        validated.filter((v) => !v.valid).map((v) => v.text),
        inst.problem.id,
      ).toEqual([]);
      // The shown candidate fails exactly the aimed lines; a correct candidate fails none.
      const shown = ex.prompt.slice(SPECIAL_TOKENS.tester.length, ex.prompt.indexOf(SPECIAL_TOKENS.tests));
      const res = await sandbox.judge({
        code: shown,
        entryPoint: inst.problem.entryPoint,
        tests: extracted.tests.map((t) => t.text),
      });
      expect(res.verdicts.filter((v) => v.status !== 'passed').length, inst.problem.id).toBe(ex.meta.aimed);
      if (ex.meta.source === 'mutant') {
        expect(candidate).toBeDefined();
        mutants++;
        if ((ex.meta.aimed ?? 0) > 0) aimedMutants++;
      } else expect(ex.meta.aimed).toBe(0);
    }
    console.log(
      `tester corpus: ${corpus.length} examples, ${mutants} mutant candidates, ${aimedMutants} with aimed asserts`,
    );
    expect(mutants).toBeGreaterThan(0);
    // Probe inputs (edge cases + random) reveal nearly every mutant; a few may need inputs outside the pool.
    expect(aimedMutants).toBeGreaterThanOrEqual(0.8 * mutants);
  });
});
