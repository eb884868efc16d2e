// Through the real Pyodide sandbox: every family's correct styles pass all hidden tests, every mutant is caught but not trivially.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeSandbox } from '../sandbox/node';
import type { SandboxPool } from '../sandbox/pool';
import { FAMILIES } from './families/index';
import { generateCurriculum } from './generate';
import { checkInstances, sampleByFamily } from './verify';

// Two instances per family keeps this under ~30 s here; `npm run tasks -- stats --check all` judges every instance.
const PER_FAMILY = Number(process.env.TASKS_CHECK_PER_FAMILY ?? 2);

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
    const insts = sampleByFamily(generateCurriculum(), PER_FAMILY);
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

  it('catches a broken reference: a wrong expected value fails the style check', async () => {
    const [inst] = generateCurriculum({ families: ['three_sum'], perFamily: 1 });
    const tampered = { ...inst, problem: { ...inst.problem, hiddenTests: [...inst.problem.hiddenTests] } };
    tampered.problem.hiddenTests[3] = tampered.problem.hiddenTests[3].replace(/== (.*)$/, '== [(99, 99, 99)]');
    const [check] = await checkInstances(sandbox, [tampered]);
    expect(check.failures.some((f) => f.startsWith('style 0: failed'))).toBe(true);
  });
});
