// The coder warm-start corpus: the trainer's prompt, mutants at the bug rate, determinism, JSONL round trip.
// (The tester corpus needs the sandbox: src/tasks/families.sandbox.test.ts checks it with the Pyodide pool it warms.)
import { describe, expect, it } from 'vitest';
import { SPECIAL_TOKENS } from '../model/special-tokens';
import { generateCurriculum } from '../tasks/generate';
import { buildCoderCorpus, toJsonl } from './corpus';
import { coderPrompt, solutionBody } from './prompts';

const insts = generateCurriculum();

describe('coder corpus', () => {
  it('uses the trainer prompt, mixes mutants at the bug rate, and is deterministic', () => {
    const train = insts.filter((i) => i.problem.split === 'train');
    const a = buildCoderCorpus(train, { seed: 3, bugRate: 0.3 });
    expect(a.length).toBe(train.length);
    expect(buildCoderCorpus(train, { seed: 3, bugRate: 0.3 })).toEqual(a);
    const rate = a.filter((e) => e.meta.source === 'mutant').length / a.length;
    console.log(`coder corpus: ${a.length} examples, mutant share ${rate.toFixed(3)} (bugRate 0.3)`);
    expect(Math.abs(rate - 0.3)).toBeLessThan(0.04);
    expect(buildCoderCorpus(train, { seed: 3, bugRate: 0 }).every((e) => e.meta.source === 'style')).toBe(true);
    a.forEach((e, i) => {
      expect(e.prompt).toBe(coderPrompt(train[i].problem.prompt));
      expect(e.completion.endsWith(SPECIAL_TOKENS.end)).toBe(true);
      // The completion is a solution's body (HumanEval style).
      const body = e.completion.slice(0, -SPECIAL_TOKENS.end.length).trimEnd();
      expect(
        (e.meta.source === 'style' ? train[i].styles : train[i].mutants.map((m) => m.code)).map(solutionBody),
      ).toContain(body);
    });
    const lines = toJsonl(a.slice(0, 3)).trimEnd().split('\n');
    expect(lines.map((l) => JSON.parse(l))).toEqual(a.slice(0, 3));
  });
});
