// Test extraction (Python ast in Pyodide) and ground-truth validation.
import { describe, expect, it } from 'vitest';
import { usePool } from './test-helpers';

const pool = usePool();

const RAW = `Here are my tests:
\`\`\`python
# simple
assert add(1, 2) == 3
assert add(
    10,
    20,
) == 30   # a multi-line call
xs = [1, 2, 3]
assert add(xs, [4]) == [1, 2, 3, 4]
assert add("a#b", "(c") == "a#b(c"
assert add(1,2)==3
assert 7 == add(3, 4)
assert add(1, 1) != 3
assert add(0, 0)
print(add(1, 1))
import math
y = add(1, 1)
assert add(y, 1) == 3
this line is prose
assert add(2, 2) == add(1, 3)
assert sub(1, 1) == 0
assert add(5, 5) == 10, "message"
assert add(6, 6) == 12
\`\`\``;

describe('extract', () => {
  it('keeps `assert call == expr`, inlines simple assignments, normalises, dedupes, keeps first K, explains rejects', async () => {
    const ex = await pool().extract(RAW, 'add', 6);
    expect(ex.tests.map((t) => t.text)).toEqual([
      'assert add(1, 2) == 3',
      'assert add(10, 20) == 30',
      'assert add([1, 2, 3], [4]) == [1, 2, 3, 4]',
      "assert add('a#b', '(c') == 'a#b(c'",
      'assert add(3, 4) == 7',
      'assert add(5, 5) == 10',
    ]);
    expect(ex.tests[1]).toMatchObject({ call: 'add(10, 20)', expected: '30' });
    const reasons = Object.fromEntries(ex.rejected.map((r) => [r.line.split('\n')[0], r.reason]));
    console.log(JSON.stringify(ex.rejected, null, 1));
    expect(reasons['assert add(1,2)==3']).toBe('duplicate');
    expect(reasons['assert add(1, 1) != 3']).toMatch(/not of the form/);
    expect(reasons['assert add(0, 0)']).toMatch(/not of the form/);
    expect(reasons['print(add(1, 1))']).toMatch(/not an assert/);
    expect(reasons['import math']).toMatch(/import/);
    expect(reasons['y = add(1, 1)']).toMatch(/only simple assignments/);
    expect(reasons['assert add(y, 1) == 3']).toMatch(/could not be inlined/);
    expect(reasons['this line is prose']).toBe('syntax error');
    expect(reasons['assert add(2, 2) == add(1, 3)']).toMatch(/expected value calls add/);
    expect(reasons['assert sub(1, 1) == 0']).toMatch(/not a call to add/);
    expect(reasons['assert add(6, 6) == 12']).toMatch(/beyond the first 6/);
  });

  it('handles text that parses as a whole, and an empty answer', async () => {
    const ex = await pool().extract('n = 3\nassert fib(n) == 2\nassert fib(n + 1) == 3\n', 'fib', 8);
    expect(ex.tests.map((t) => t.text)).toEqual(['assert fib(3) == 2', 'assert fib(3 + 1) == 3']);
    expect(await pool().extract('', 'fib', 8)).toEqual({ tests: [], rejected: [] });
  });
});

describe('validate', () => {
  const GT = 'def add(a, b):\n    return a + b\n';
  it('marks valid, wrong-answer, raising and timing-out tests, always recording the ground-truth output', async () => {
    const tests = [
      { text: 'assert add(1, 2) == 3', call: 'add(1, 2)', expected: '3' },
      { text: 'assert add(1, 2) == 4', call: 'add(1, 2)', expected: '4' },
      { text: "assert add(1, 'x') == 1", call: "add(1, 'x')", expected: '1' },
      { text: 'assert add([1], [2.5]) == [1, 2.5]', call: 'add([1], [2.5])', expected: '[1, 2.5]' },
      { text: 'assert add(1, 2) == 3', call: 'add(1, 2)', expected: '3' },
      { text: 'assert add(10**30, 1) == 0', call: 'add(10**30, 1)', expected: '0' },
    ];
    const v = await pool().validate(GT, 'add', tests);
    expect(v.map((t) => [t.callOk, t.valid, t.gtOutput])).toEqual([
      [true, true, '3'],
      [true, false, '3'],
      [false, false, undefined],
      [true, true, '[1, 2.5]'],
      [true, false, '3'],
      [true, false, '1000000000000000000000000000001'],
    ]);
    expect(v[1].reason).toMatch(/ground truth gives 3/);
    expect(v[2].reason).toMatch(/TypeError/);
    expect(v[4].reason).toBe('duplicate test');
  });

  it('an invalid-answer test attacks candidates with the ground-truth output as its expected value', async () => {
    const [t] = await pool().validate(GT, 'add', [{ text: 'assert add(2, 2) == 5', call: 'add(2, 2)', expected: '5' }]);
    expect(t).toMatchObject({ callOk: true, valid: false, gtOutput: '4' });
    const buggy = await pool().judge({
      code: 'def add(a, b):\n    return a * b + 1\n',
      entryPoint: 'add',
      tests: [`assert ${t.call} == ${t.gtOutput}`],
    });
    expect(buggy.verdicts[0].status).toBe('failed');
    const v = await pool().validate(
      'def f():\n    while True: pass\n',
      'f',
      [{ text: 'assert f() == 1', call: 'f()', expected: '1' }],
      200,
    );
    expect(v[0]).toMatchObject({ callOk: false, valid: false });
  });
});

describe('judge', () => {
  const judge = (code: string, tests: string[], extra: { setupCode?: string } = {}) =>
    pool().judge({ code, entryPoint: 'f', tests, ...extra });

  it('reports syntax errors and a missing entry point as compile errors', async () => {
    const bad = await judge('def f(x)\n    return x\n', ['assert f(1) == 1']);
    expect(bad.compileError).toMatch(/^SyntaxError/);
    expect(bad.verdicts).toEqual([expect.objectContaining({ status: 'error', errorType: 'SyntaxError' })]);
    expect((await judge('def g():\n    return 1\n', ['assert f() == 1'])).compileError).toMatch(
      /does not define a function f/,
    );
  });

  it('ordinary Python keeps working: classes with private attributes, dataclasses, namedtuples, stdlib imports', async () => {
    const code = [
      'import collections.abc, heapq, functools, os.path',
      'from dataclasses import dataclass',
      'from collections import namedtuple',
      'from typing import List',
      'from math import *',
      "P = namedtuple('P', 'a b')",
      '@dataclass',
      'class D:',
      '    x: int',
      '    def __post_init__(self):',
      '        self.x += 1',
      'class C:',
      '    def __init__(self):',
      '        self.__hidden = 1',
      '        self._y = 2',
      '    def total(self):',
      '        return self.__hidden + self._y',
      '@functools.lru_cache(None)',
      'def fib(n):',
      '    return n if n < 2 else fib(n - 1) + fib(n - 2)',
      'def f() -> List:',
      "    return [D(1).x, P(1, 2)._replace(a=5).a, isinstance([], collections.abc.Sequence), os.path.join('a', 'b'), floor(2.5), C().total(), fib(40), heapq.nsmallest(1, [3, 1])]",
    ].join('\n');
    expect(
      (
        await judge(code, [
          "assert f() == [2, 5, True, 'a/b', 2, 3, 102334155, [1]]",
          "assert [2, 5, True, 'a/b', 2, 3, 102334155, [1]] == f()",
        ])
      ).verdicts,
    ).toEqual([{ status: 'passed' }, { status: 'passed' }]);
  });

  it('runs setup code and dataset-style statement tests (a HumanEval check function)', async () => {
    const check =
      'def check(candidate):\n    assert candidate(2) == BASE + 2\n    assert abs(candidate(0.5) - 1.5) < 1e-9\n\ncheck(f)';
    const r = await judge('def f(x):\n    return x + BASE\n', [check, 'assert f(1) > 100'], { setupCode: 'BASE = 1' });
    expect(r.verdicts.map((v) => v.status)).toEqual(['passed', 'failed']);
  });
});

describe('judge: the literal fast path and the Python path agree', () => {
  it('mixes literal, computed, reversed, keyword and statement tests in one suite', async () => {
    const code = 'def f(x, k=1):\n    return [x] * k\n';
    const tests = [
      'assert f(1) == [1]',
      'assert f(2, k=2) == [2, 2]',
      'assert f(3) == list(range(3, 4))',
      'assert [4] == f(4)',
      "assert f('a#b') == ['a#b']",
      'assert f(5) == [6]',
      'assert f(1) == 2 * [1]',
      'assert len(f(1, k=3)) == 3',
      'assert f(x=7) == [7]',
      'assert f((1, 2.5), k=1) == [(1, 2.5)]',
    ];
    const r = await pool().judge({ code, entryPoint: 'f', tests });
    expect(r.verdicts.map((v) => v.status)).toEqual([
      'passed',
      'passed',
      'passed',
      'passed',
      'passed',
      'failed',
      'failed',
      'passed',
      'passed',
      'passed',
    ]);
    // Arguments are fresh objects per test: a candidate that mutates its input cannot poison the next test.
    const m = await pool().judge({
      code: 'def f(xs):\n    xs.append(0)\n    return len(xs)\n',
      entryPoint: 'f',
      tests: ['assert f([1]) == 2', 'assert f([1]) == 2'],
    });
    expect(m.verdicts.map((v) => v.status)).toEqual(['passed', 'passed']);
  });
});
