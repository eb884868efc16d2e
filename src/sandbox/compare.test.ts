// CPython `==` on tagged plain data: numeric tower by exact value, no tolerance, unordered sets/dicts, list vs tuple.
import { describe, expect, it } from 'vitest';
import { preview, pyEqual, sameTree, type Tree } from './compare';
import { freshSeed, mulberry32 } from '../testing/random';

const i = (n: number): Tree => ['i', n];
const f = (x: number | string): Tree => ['f', x];

describe('pyEqual', () => {
  it('follows Python across bool, int, float and big ints', () => {
    expect(pyEqual(true, i(1))).toBe(true);
    expect(pyEqual(i(1), f(1))).toBe(true);
    expect(pyEqual(i(2), i(3))).toBe(false);
    expect(pyEqual(['I', '1' + '0'.repeat(30)], ['I', '1' + '0'.repeat(30)])).toBe(true);
    expect(pyEqual(['I', '-ff'], i(-255))).toBe(true);
    expect(pyEqual(['I', '1' + '0'.repeat(30)], ['I', '1' + '0'.repeat(29) + '1'])).toBe(false);
    expect(pyEqual(null, i(0))).toBe(false);
    expect(pyEqual('1', i(1))).toBe(false);
  });

  it('compares floats exactly: no tolerance, NaN is not NaN, ints against floats by exact value (issue 13, 5)', () => {
    expect(pyEqual(f(0.1 + 0.2), f(0.3))).toBe(false);
    expect(pyEqual(f(0.5), f(0.5))).toBe(true);
    expect(pyEqual(f(0), f(-0))).toBe(true);
    expect(pyEqual(f('nan'), f('nan'))).toBe(false);
    expect(pyEqual(f('inf'), f('inf'))).toBe(true);
    expect(pyEqual(f('inf'), f('-inf'))).toBe(false);
    expect(pyEqual(i(100000000), f(100000099))).toBe(false);
    expect(pyEqual(i(0), f(1e-10))).toBe(false);
    // 2**53 + 1 is not the float 2**53, though Number() would round it there.
    expect(pyEqual(['I', (2n ** 53n + 1n).toString(16)], f(2 ** 53))).toBe(false);
    expect(pyEqual(['I', (2n ** 60n).toString(16)], f(2 ** 60))).toBe(true);
    expect(pyEqual(['c', f(1), f(0)], i(1))).toBe(true);
    expect(pyEqual(['c', f(1), f(2)], ['c', f(1), f(2.0000000001)])).toBe(false);
  });

  it('matches dict keys and set members by the same exact equality (1 == 1.0 == True, NaN never)', () => {
    expect(pyEqual(['d', f(1.0000000001), 'a'], ['d', i(1), 'a'])).toBe(false);
    expect(pyEqual(['d', f(1), 'a'], ['d', true, 'a'])).toBe(true);
    expect(pyEqual(['S', f(1.0000000001)], ['S', i(1)])).toBe(false);
    expect(pyEqual(['S', f('nan')], ['S', f('nan')])).toBe(false);
    expect(pyEqual(['S', ['t', i(1), f(2)]], ['S', ['t', f(1), i(2)]])).toBe(true);
  });

  it('sameTree: the same value with the same types (what a repr must read back as)', () => {
    expect(sameTree(['l', i(1), f(2)], ['l', i(1), f(2)])).toBe(true);
    expect(sameTree(['l', i(1)], ['l', f(1)])).toBe(false);
    expect(sameTree(f(0), f(-0))).toBe(false);
  });

  it('distinguishes list from tuple, matches sets and dicts without order', () => {
    expect(pyEqual(['l', i(1)], ['t', i(1)])).toBe(false);
    expect(pyEqual(['S', i(1), i(2)], ['S', i(2), i(1)])).toBe(true);
    expect(pyEqual(['S', i(1), i(2)], ['S', i(2), i(3)])).toBe(false);
    expect(pyEqual(['d', 'a', i(1), 'b', ['l']], ['d', 'b', ['l'], 'a', f(1)])).toBe(true);
    expect(pyEqual(['d', 'a', i(1)], ['d', 'b', i(1)])).toBe(false);
    expect(pyEqual(['d', 'a', i(1)], ['d', 'a', i(2)])).toBe(false);
    expect(pyEqual(['y', '00ff'], ['y', '00ff'])).toBe(true);
  });

  it('agrees with a direct recomputation on fresh random nested data', () => {
    const seed = freshSeed();
    const rand = mulberry32(seed);
    let mismatches = 0;
    for (let n = 0; n < 500; n++) {
      const xs = Array.from({ length: 1 + Math.floor(rand() * 6) }, () => Math.floor(rand() * 10));
      const ys = rand() < 0.5 ? [...xs] : xs.map((x) => (rand() < 0.2 ? x + 1 : x));
      const expected = xs.length === ys.length && xs.every((x, k) => x === ys[k]);
      const asSet = (v: number[]): Tree => ['S', ...[...new Set(v)].sort(() => rand() - 0.5).map(i)];
      const sameSet = new Set(xs).size === new Set(ys).size && [...new Set(xs)].every((x) => ys.includes(x));
      if (pyEqual(['l', ...xs.map(i)], ['l', ...ys.map(f)]) !== expected) mismatches++;
      if (pyEqual(asSet(xs), asSet(ys)) !== sameSet) mismatches++;
    }
    console.log(`seed ${seed}: ${mismatches} mismatches in 1000 comparisons`);
    expect(mismatches).toBe(0);
  });

  it('preview renders Python-like text', () => {
    expect(preview(['d', 'a', ['t', i(1)]])).toBe('{"a": (1,)}');
  });
});
