// The JS fast path for literal tests and the assert splitter: what they read, and that they refuse what is unusual.
import { describe, expect, it } from 'vitest';
import { literalTest, parseLiteral } from './literal';
import { splitAssert } from './split';

describe('parseLiteral', () => {
  it('reads Python literals into tagged data with Python semantics', () => {
    expect(parseLiteral("[1, -2, 3.5, 'a\\'b', None, True, (1,), ()]")).toEqual([
      'l',
      ['i', 1],
      ['i', -2],
      ['f', 3.5],
      "a'b",
      null,
      true,
      ['t', ['i', 1]],
      ['t'],
    ]);
    expect(parseLiteral('(1)')).toEqual(['i', 1]);
    expect(parseLiteral('99999999999999999999')).toEqual(['I', '56bc75e2d630fffff']);
    expect(parseLiteral('-0x10')).toEqual(['i', -16]);
    expect(parseLiteral("{1: 'a', 1.0: 'b', 'k': [2]}")).toEqual(['d', ['i', 1], 'b', 'k', ['l', ['i', 2]]]);
    expect(parseLiteral('{1, 1.0, True, 2}')).toEqual(['S', ['i', 1], ['i', 2]]);
    expect(parseLiteral('"\\x41\\u00e9\\n"')).toEqual('Aé\n');
  });

  it('refuses anything that is not a plain literal', () => {
    for (const src of [
      'x',
      '1 + 2',
      '10**3',
      "'a' 'b'",
      "b'x'",
      "f'x'",
      '1_000',
      '007',
      '1j',
      '{[1]: 2}',
      "'\\d'",
      '[1, 2',
      '"""x"""',
      'float("inf")',
    ]) {
      expect([src, parseLiteral(src)]).toEqual([src, undefined]);
    }
  });
});

describe('splitAssert / literalTest', () => {
  it('splits one-line asserts at the top-level ==, ignoring strings and brackets', () => {
    expect(splitAssert('assert f("a == b", [1 == 1]) == "=="')).toEqual(['f("a == b", [1 == 1])', '"=="']);
    expect(splitAssert('assert obj.method(1)(2) == 3')).toEqual(['obj.method(1)(2)', '3']);
  });

  it('leaves anything ambiguous to the Python parser', () => {
    for (const t of [
      'assert 3 == f(1)',
      'assert f(1) == 2 == 2',
      'assert f(1) == 2, "msg"',
      'assert not f(1) == 2',
      'assert f(1) + 1 == 2',
      'assert f(1) == 2 if x else 3',
      'assert f(1) == 2 # c',
      'assert f(1) ==\\\n 2',
      'assert f(1) == 2 and g()',
      'assert f(1)[0] == 1',
      'assert f(1) < 2',
      "assert f(r'x') == 1",
      'x = 1',
    ]) {
      expect([t, splitAssert(t)]).toEqual([t, null]);
    }
  });

  it('reads name(literals, k=literal) == literal and nothing fancier', () => {
    expect(literalTest("assert f([1, 2], k='x') == {'a': 1}")).toEqual({
      fn: 'f',
      args: [['l', ['i', 1], ['i', 2]]],
      kwargs: { k: 'x' },
      expected: ['d', 'a', ['i', 1]],
    });
    for (const t of [
      'assert f(x) == 1',
      'assert m.f(1) == 1',
      'assert f(*a) == 1',
      'assert f(k=1, 2) == 1',
      'assert _f(1) == 1',
      'assert f(1) == g(2)',
    ]) {
      expect([t, literalTest(t)]).toEqual([t, undefined]);
    }
  });
});

describe('literal reading cost grows at most like n log n', () => {
  /** Best of three timings of reading `make(n)` (ms). */
  const cost = (make: (n: number) => string, n: number): number => {
    const src = make(n);
    let best = Infinity;
    for (let r = 0; r < 3; r++) {
      const t0 = performance.now();
      expect(parseLiteral(src)).toBeDefined();
      best = Math.min(best, performance.now() - t0);
    }
    return best;
  };
  const shapes: [string, (n: number) => string][] = [
    ['a dict with n duplicate keys', (n) => `{${Array.from({ length: n }, (_, i) => `${i % 2}: ${i}`).join(', ')}}`],
    ['a dict with n distinct keys', (n) => `{${Array.from({ length: n }, (_, i) => `'k${i}': ${i}`).join(', ')}}`],
    [
      'a set with n equal elements across types',
      (n) => `{${Array.from({ length: n }, (_, i) => ['1', '1.0', 'True'][i % 3]).join(', ')}}`,
    ],
    ['a set of n tuples', (n) => `{${Array.from({ length: n }, (_, i) => `(${i}, '${i}')`).join(', ')}}`],
    ['a list of n floats', (n) => `[${Array.from({ length: n }, (_, i) => `${i}.5`).join(', ')}]`],
    ['a string of n escapes', (n) => `'${'a\\n\\x41'.repeat(n)}'`],
  ];
  for (const [name, make] of shapes)
    it(`${name}: 8x the size costs well under 64x (quadratic)`, () => {
      const n = 2000;
      cost(make, n); // warm-up (JIT)
      const small = Math.max(cost(make, n), 0.05);
      const large = cost(make, 8 * n);
      // n log n: 8 · log(16000)/log(2000) ≈ 10; a generous bound well below quadratic's 64.
      expect(large / small).toBeLessThan(28);
    }, 60_000);
});
