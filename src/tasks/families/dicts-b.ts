// Dict families, part two: repeated words, merging counters, filtering keys by value.
import { defineFamily } from '../family';
import { type Py, PyDict, dict } from '../pyrepr';
import type { Rng } from '../rng';

const words = (r: Rng, max = 8, alphabet = 'ab'): string[] =>
  Array.from({ length: r.int(0, max) }, () => r.word(r.int(1, 2), alphabet));
const strDict = (r: Rng, max = 5, lo = -3, hi = 9): PyDict => {
  const keys = [...new Set(words(r, max, 'abcd'))];
  return dict(keys.map((k): [Py, Py] => [k, r.int(lo, hi)]));
};
const entries = (d: PyDict): [string, number][] => d.entries.map(([k, v]) => [k as string, v as number]);
const cmpStr = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export const repeatedWords = defineFamily<[words: string[]]>()({
  name: 'repeated_words',
  category: 'dicts',
  names: ['repeated_words', 'frequent_words', 'common_words', 'words_seen_often', 'popular_words', 'recurring_words'],
  params: (r) => ({ k: r.int(2, 4), order: r.pick(['alphabetical', 'first appearance'] as const) }),
  sig: () => '(words: list[str]) -> list[str]',
  doc: (p) => `Return the words that occur at least ${p.k} times in words, each once, in ${p.order} order.`,
  examples: (p) => [[['b', ...Array(p.k).fill('a'), 'b', 'c'].concat(Array(p.k - 2).fill('b'))]],
  edge: (p) => [
    [[]],
    [['a']],
    [Array(p.k).fill('x')],
    [Array(p.k - 1).fill('x')],
    [[...Array(p.k + 1).fill('b'), ...Array(p.k).fill('a')]],
    [[...Array(p.k).fill('ab'), 'b', ...Array(p.k).fill('b')]],
  ],
  random: (p, r) => [words(r, 4 * p.k)],
  ref: (p, ws) => {
    const m = new Map<string, number>();
    for (const w of ws) m.set(w, (m.get(w) ?? 0) + 1);
    const out = [...m].filter(([, n]) => n >= p.k).map(([w]) => w);
    return p.order === 'alphabetical' ? out.sort(cmpStr) : out;
  },
  styles: [
    (p) => `
      counts = {}
      for w in words:
          counts[w] = counts.get(w, 0) + 1
      return ${p.order === 'alphabetical' ? 'sorted(' : '['}w for w in counts if counts[w] >= ${p.k}${p.order === 'alphabetical' ? ')' : ']'}`,
    (p) => `
      out = []
      for w in words:
          if words.count(w) >= ${p.k} and w not in out:
              out.append(w)
      return ${p.order === 'alphabetical' ? 'sorted(out)' : 'out'}`,
  ],
  mutants: [
    {
      kind: 'wrong-comparison',
      body: (p) =>
        `return ${p.order === 'alphabetical' ? 'sorted(' : '['}w for w in dict.fromkeys(words) if words.count(w) > ${p.k}${p.order === 'alphabetical' ? ')' : ']'}`,
    },
    {
      kind: 'duplicates',
      body: (p) =>
        `return ${p.order === 'alphabetical' ? 'sorted(' : '['}w for w in words if words.count(w) >= ${p.k}${p.order === 'alphabetical' ? ')' : ']'}`,
    },
    {
      kind: 'other',
      body: (p) =>
        `return ${p.order === 'alphabetical' ? '[' : 'sorted('}w for w in dict.fromkeys(words) if words.count(w) >= ${p.k}${p.order === 'alphabetical' ? ']' : ')'}`,
    },
  ],
});

export const mergeCounts = defineFamily<[a: PyDict, b: PyDict]>()({
  name: 'merge_counts',
  category: 'dicts',
  names: ['merge_counts', 'combine_counts', 'add_counters', 'merge_tallies', 'join_counts', 'union_counts'],
  params: (r) => ({ op: r.pick(['sum', 'max', 'min'] as const) }),
  sig: () => '(a: dict[str, int], b: dict[str, int]) -> dict[str, int]',
  doc: (p) =>
    p.op === 'sum'
      ? 'Return a dict with every key of a and b; the value is the sum of its values (a missing value counts as 0).'
      : `Return a dict with every key of a and b; the value is the ${p.op === 'max' ? 'larger' : 'smaller'} of its values in a and b (or its only value).`,
  examples: () => [
    [
      dict([
        ['x', 1],
        ['y', 2],
      ]),
      dict([['y', 5]]),
    ],
  ],
  edge: () => [
    [dict([]), dict([])],
    [dict([['a', 1]]), dict([])],
    [dict([]), dict([['b', 2]])],
    [dict([['a', 1]]), dict([['a', 1]])],
    [
      dict([['a', -2]]),
      dict([
        ['a', 3],
        ['b', -1],
      ]),
    ],
    [
      dict([
        ['a', 5],
        ['c', 0],
      ]),
      dict([
        ['c', 4],
        ['a', 2],
      ]),
    ],
  ],
  random: (_p, r) => [strDict(r), strDict(r)],
  ref: (p, a, b) => {
    const m = new Map(entries(a));
    for (const [k, v] of entries(b)) {
      const cur = m.get(k);
      m.set(k, cur === undefined ? v : p.op === 'sum' ? cur + v : p.op === 'max' ? Math.max(cur, v) : Math.min(cur, v));
    }
    return dict([...m]);
  },
  styles: [
    (p) => `
      out = dict(a)
      for k, v in b.items():
          out[k] = ${p.op === 'sum' ? 'out.get(k, 0) + v' : `${p.op}(out[k], v) if k in out else v`}
      return out`,
    (p) =>
      `return {k: ${p.op === 'sum' ? 'a.get(k, 0) + b.get(k, 0)' : `${p.op}(x for x in (a.get(k), b.get(k)) if x is not None)`} for k in list(a) + list(b)}`,
  ],
  mutants: [
    { kind: 'wrong-initial-value', body: () => 'return {**a, **b}' },
    {
      kind: 'missed-edge-case',
      body: (p) => `
        out = dict(a)
        for k, v in b.items():
            if k in out:
                out[k] = ${p.op === 'sum' ? 'out[k] + v' : `${p.op}(out[k], v)`}
        return out`,
    },
    {
      kind: 'wrong-comparison',
      body: (p) => `
        out = dict(a)
        for k, v in b.items():
            out[k] = ${p.op === 'sum' ? 'max(out.get(k, 0), v) + min(out.get(k, 0), 0)' : `${p.op === 'max' ? 'min' : 'max'}(out[k], v) if k in out else v`}
        return out`,
    },
  ],
});

export const keysAbove = defineFamily<[d: PyDict]>()({
  name: 'keys_above',
  category: 'dicts',
  names: ['keys_above', 'passing_keys', 'high_scorers', 'keys_over', 'select_keys'],
  params: (r) => ({ t: r.int(-2, 8), cmp: r.pick(['greater than', 'at least'] as const) }),
  variants: (r) => ({
    t: r.bool() ? r.int(9, 25) : r.int(-12, -3),
    cmp: r.pick(['greater than', 'at least'] as const),
  }),
  sig: () => '(d: dict[str, int]) -> list[str]',
  doc: (p) => `Return, in alphabetical order, the keys of d whose value is ${p.cmp} ${p.t}.`,
  examples: (p) => [
    [
      dict([
        ['bo', p.t + 3],
        ['al', p.t - 1],
        ['cy', p.t + 1],
      ]),
    ],
  ],
  edge: (p) => [
    [dict([])],
    [dict([['a', p.t]])],
    [dict([['a', p.t + 1]])],
    [dict([['a', p.t - 1]])],
    [
      dict([
        ['b', p.t + 1],
        ['a', p.t + 2],
      ]),
    ],
    [
      dict([
        ['c', p.t],
        ['b', p.t + 5],
        ['a', p.t - 4],
      ]),
    ],
  ],
  random: (p, r) => [strDict(r, 6, p.t - 4, p.t + 4)],
  ref: (p, d) =>
    entries(d)
      .filter(([, v]) => (p.cmp === 'at least' ? v >= p.t : v > p.t))
      .map(([k]) => k)
      .sort(cmpStr),
  styles: [
    (p) => `return sorted(k for k, v in d.items() if v ${p.cmp === 'at least' ? '>=' : '>'} ${p.t})`,
    (p) => `
      out = []
      for k in d:
          if d[k] ${p.cmp === 'at least' ? '>=' : '>'} ${p.t}:
              out.append(k)
      out.sort()
      return out`,
  ],
  mutants: [
    {
      kind: 'wrong-comparison',
      body: (p) => `return sorted(k for k, v in d.items() if v ${p.cmp === 'at least' ? '>' : '>='} ${p.t})`,
    },
    {
      kind: 'missed-edge-case',
      body: (p) => `return [k for k, v in d.items() if v ${p.cmp === 'at least' ? '>=' : '>'} ${p.t}]`,
    },
    {
      kind: 'off-by-one',
      body: (p) => `return sorted(k for k, v in list(d.items())[1:] if v ${p.cmp === 'at least' ? '>=' : '>'} ${p.t})`,
    },
  ],
});
