// Replacing training problems' hidden tests from a JSONL file: what is replaced, what is left alone, and one clear
// error listing every bad line (malformed JSON, unknown or held-out ids, repeats, a different entry point, no asserts).
import { describe, expect, it } from 'vitest';
import { generateCurriculum } from './generate';
import { replaceHiddenTests } from './hidden-tests';
import type { Problem } from './types';

const all = generateCurriculum().map((i) => i.problem);
const train = all.filter((p) => p.split === 'train').slice(0, 3);
const heldout = all.filter((p) => p.split === 'renamed').slice(0, 1);

function humanEval(p: Problem, tests: string[], over: Record<string, unknown> = {}): string {
  const body = tests.map((t) => `    ${t.replace(new RegExp(`\\b${p.entryPoint}\\(`, 'g'), 'candidate(')}`).join('\n');
  return JSON.stringify({
    task_id: p.id,
    prompt: p.prompt,
    entry_point: p.entryPoint,
    canonical_solution: '    pass\n',
    test: `def check(candidate):\n${body}\n`,
    ...over,
  });
}

describe('replaceHiddenTests', () => {
  it('replaces the named problems only, in HumanEval and MBPP form (the form evolve writes for the curriculum)', () => {
    const [a, b, c] = train;
    const ta = [`assert ${a.entryPoint}(*[]) == 0`];
    const mbpp = JSON.stringify({ task_id: c.id, text: 'x', code: c.solution, test_list: c.hiddenTests.slice(-2) });
    const r = replaceHiddenTests(train, [humanEval(a, ta), '', mbpp].join('\n'));
    expect(r.replaced).toEqual([a.id, c.id]);
    expect(r.problems[0]).toEqual({ ...a, hiddenTests: ta });
    expect(r.problems[1]).toBe(b);
    expect(r.problems[2].hiddenTests).toEqual(c.hiddenTests.slice(-2));
  });

  it('refuses a file with bad lines, naming each', () => {
    const [a, b] = train;
    const lines = [
      '{not json',
      humanEval({ ...a, id: 'no_such_family/0001' }, a.hiddenTests),
      humanEval(heldout[0], heldout[0].hiddenTests),
      humanEval(a, a.hiddenTests),
      humanEval(a, a.hiddenTests),
      humanEval(b, b.hiddenTests, { entry_point: 'other_name' }),
      humanEval(b, ['print(1)']),
      JSON.stringify({ task_id: b.id }),
    ].join('\n');
    let msg = '';
    try {
      replaceHiddenTests(train, lines, heldout);
    } catch (e) {
      msg = (e as Error).message;
    }
    expect(msg).toMatch(/^hidden tests: 7 bad line\(s\): line 1: invalid JSON/);
    expect(msg).toContain(`line 2: unknown task id 'no_such_family/0001'`);
    expect(msg).toContain(`line 3: '${heldout[0].id}' is a held-out problem`);
    expect(msg).toContain(`line 5: task id '${a.id}' appears twice`);
    // The listing stops after five; the count says how many there are.
    expect(msg).toContain('(7 in all)');
    // The entry point, no-assert and missing-field cases, each alone.
    const one = (line: string) => () => replaceHiddenTests(train, line, heldout);
    expect(one(humanEval(b, b.hiddenTests, { entry_point: 'other_name' }))).toThrow(
      `line 1: '${b.id}' calls other_name, the curriculum's problem is ${b.entryPoint}`,
    );
    expect(one(humanEval(b, ['print(1)']))).toThrow(`line 1: '${b.id}' has no`);
    expect(one(JSON.stringify({ task_id: b.id }))).toThrow('line 1: neither a HumanEval nor an MBPP record');
    expect(one('\n\n')).toThrow('no records (an empty file)');
  });
});
