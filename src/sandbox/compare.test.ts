// Python `==` on tagged plain data: numeric tower, tolerance for floats, unordered sets/dicts, list vs tuple.
import { describe, expect, it } from 'vitest';
import { close, preview, pyEqual, type Tree } from './compare';
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

  it('compares floats with a tolerance, NaN equal to NaN, infinities by sign', () => {
    expect(pyEqual(f(0.1 + 0.2), f(0.3))).toBe(true);
    expect(pyEqual(f(1.0), f(1.001))).toBe(false);
    expect(pyEqual(f('nan'), f('nan'))).toBe(true);
    expect(pyEqual(f('inf'), f('-inf'))).toBe(false);
    expect(pyEqual(['c', f(1), f(2)], ['c', f(1), f(2.0000000001)])).toBe(true);
  });

  it('distinguishes list from tuple, matches sets and dicts without order', () => {
    expect(pyEqual(['l', i(1)], ['t', i(1)])).toBe(false);
    expect(pyEqual(['S', i(1), i(2)], ['S', i(2), i(1)])).toBe(true);
    expect(pyEqual(['S', i(1), i(2)], ['S', i(2), i(3)])).toBe(false);
    expect(pyEqual(['d', 'a', i(1), 'b', ['l']], ['d', 'b', ['l'], 'a', f(1)])).toBe(true);
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

  it('close() uses relative and absolute tolerance', () => {
    expect(close(1e12, 1e12 + 1)).toBe(true);
    expect(close(0, 1e-10)).toBe(true);
    expect(close(0, 1e-6)).toBe(false);
    expect(preview(['d', 'a', ['t', i(1)]])).toBe('{"a": (1,)}');
  });
});
