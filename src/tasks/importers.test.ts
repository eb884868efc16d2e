// HumanEval and MBPP JSONL importers: records become Problems; a malformed line is an error naming that line.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { docstringExamples, humanEvalTests, importJsonl } from './importers';

const fixture = (name: string) => readFileSync(new URL(`../sandbox/fixtures/${name}`, import.meta.url), 'utf8');

describe('HumanEval JSONL', () => {
  const { items, errors } = importJsonl(fixture('humaneval-mini.jsonl'));

  it('imports the good records and names each malformed line', () => {
    expect(items.map((i) => i.problem.id)).toEqual(['Mini/0', 'Mini/1', 'Mini/2', 'Mini/3', 'Mini/4']);
    expect(errors.map((e) => e.line)).toEqual([3, 5]);
    expect(errors[0].message).toMatch(/^line 3: invalid JSON/);
    expect(errors[1].message).toBe('line 5: missing field "entry_point"');
  });

  it('builds the Problem: solution = prompt + canonical solution, tests from check and the docstring', () => {
    const p = items[0].problem;
    expect(p).toMatchObject({ entryPoint: 'running_max', source: 'humaneval', family: 'humaneval', split: 'heldout' });
    expect(p.solution.startsWith(p.prompt)).toBe(true);
    expect(p.hiddenTests).toContain('assert running_max([1, 3, 2, 5]) == [1, 3, 3, 5]');
    expect(p.publicTests).toEqual(['assert running_max([1, 3, 2, 5]) == [1, 3, 3, 5]']);
    expect(items[0].verify.tests[0]).toMatch(/check\(running_max\)$/);
  });

  it('one test per self-contained assert (message dropped, strings untouched), the rest of check as one block', () => {
    const check = [
      'import math',
      'def check(candidate):',
      '    assert candidate("a(#", 1) == 1, "msg, with comma"',
      '    assert candidate(',
      '        2) == 3',
      '    n = 4',
      '    assert candidate(n) == 5',
      '    for x in range(2):',
      '        assert candidate(x) == x',
      '    assert math.isclose(candidate(0.5), 1)',
      '    assert True, "nothing"',
      '',
    ].join('\n');
    expect(humanEvalTests(check, 'f')).toEqual([
      'assert f("a(#", 1) == 1',
      [
        'for candidate in [f]:',
        '    import math',
        '    assert candidate(',
        '        2) == 3',
        '    n = 4',
        '    assert candidate(n) == 5',
        '    for x in range(2):',
        '        assert candidate(x) == x',
        '    assert math.isclose(candidate(0.5), 1)',
        '    assert True, "nothing"',
      ].join('\n'),
    ]);
    expect(humanEvalTests('def check(candidate):\n    assert True\n    assert candidate(1) == 2\n', 'g')).toEqual([
      'assert g(1) == 2',
    ]);
    expect(docstringExamples('>>> g(1)\n2\n>>> other(3)\n4\n', 'g')).toEqual(['assert g(1) == 2']);
  });
});

describe('MBPP JSONL', () => {
  const { items, errors } = importJsonl(fixture('mbpp-mini.jsonl'));

  it('imports records, infers the entry point from the tests, names a malformed line', () => {
    expect(items.map((i) => [i.problem.id, i.problem.entryPoint])).toEqual([
      ['MBPP/901', 'similar_elements'],
      ['MBPP/902', 'circle_area'],
      ['MBPP/903', 'remove_Occ'],
    ]);
    expect(errors).toEqual([{ line: 4, message: 'line 4: field "test_list" must be a list of strings' }]);
  });

  it('keeps challenge tests as hidden tests and the setup code', () => {
    expect(items[1].problem.hiddenTests).toHaveLength(3);
    expect(items[2].problem.setupCode).toBe('BASE = 1');
    expect(items[0].problem.prompt).toMatch(/^def similar_elements\(a, b\):\n {4}"""Write a function/);
  });

  it('rejects a line that is neither format', () => {
    expect(importJsonl('{"a": 1}\n[1]\n').errors.map((e) => e.message)).toEqual([
      'line 1: neither a HumanEval nor an MBPP record',
      'line 2: expected a JSON object',
    ]);
  });
});
