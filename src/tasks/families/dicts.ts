// Dict families: character counts, grouping, most frequent, inversion, repeated words, merging counts, filtering keys.
import { defineFamily } from '../family';
import { type Py, PyDict, dict } from '../pyrepr';
import type { Rng } from '../rng';

const words = (r: Rng, max = 7, alphabet = 'abc'): string[] =>
  Array.from({ length: r.int(0, max) }, () => r.word(r.int(1, 3), alphabet));
const strDict = (r: Rng, max = 5, lo = -3, hi = 9): PyDict => {
  const keys = [...new Set(words(r, max, 'abcde'))];
  return dict(keys.map((k): [Py, Py] => [k, r.int(lo, hi)]));
};
/** Count occurrences in first-seen order (a Python dict built by a loop has the same order). */
function counts<T extends string | number>(xs: readonly T[]): Map<T, number> {
  const m = new Map<T, number>();
  for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
  return m;
}
const entries = (d: PyDict): [string, number][] => d.entries.map(([k, v]) => [k as string, v as number]);

export const charFrequency = defineFamily<[s: string]>()({
  name: 'char_frequency',
  category: 'dicts',
  names: [
    'char_frequency',
    'letter_counts',
    'count_each_char',
    'histogram',
    'char_counts',
    'count_characters',
    'freq_map',
    'tally_letters',
  ],
  params: (r) => ({ ci: r.bool(), skipSpaces: r.bool() }),
  sig: () => '(s: str) -> dict[str, int]',
  doc: (p) =>
    `Return a dict mapping each character of s to how many times it occurs${p.ci ? ', ignoring case (use lowercase keys)' : ''}${p.skipSpaces ? '. Spaces are not counted' : ''}.`,
  examples: () => [['abA b']],
  edge: () => [[''], ['a'], ['aaa'], ['aA'], ['a b'], ['  '], ['abcabc'], ['Ab ba']],
  random: (_p, r) => [r.word(r.int(0, 9), 'aabB ')],
  ref: (p, s) => {
    let t = p.ci ? s.toLowerCase() : s;
    if (p.skipSpaces) t = t.replaceAll(' ', '');
    return dict([...counts([...t])]);
  },
  styles: [
    (p) => `
      out = {}
      for c in s${p.ci ? '.lower()' : ''}:
          ${p.skipSpaces ? "if c != ' ':\n              out[c] = out.get(c, 0) + 1" : 'out[c] = out.get(c, 0) + 1'}
      return out`,
    (p) => `
      t = s${p.ci ? '.lower()' : ''}${p.skipSpaces ? ".replace(' ', '')" : ''}
      return {c: t.count(c) for c in t}`,
  ],
  mutants: [
    {
      kind: 'duplicates',
      body: (p) => `return {c: 1 for c in s${p.ci ? '.lower()' : ''}${p.skipSpaces ? " if c != ' '" : ''}}`,
    },
    {
      kind: 'missed-edge-case',
      body: (p) => `
        t = s${p.ci ? '' : '.lower()'}${p.skipSpaces ? '' : ".replace(' ', '')"}
        return {c: t.count(c) for c in t}`,
    },
    {
      kind: 'off-by-one',
      body: (p) => `
        t = s${p.ci ? '.lower()' : ''}${p.skipSpaces ? ".replace(' ', '')" : ''}
        return {c: t.count(c) for c in t[:-1]}`,
    },
  ],
});

export const groupBy = defineFamily<[words: string[]]>()({
  name: 'group_by',
  category: 'dicts',
  names: [
    'group_by',
    'group_words',
    'bucket_words',
    'index_words',
    'cluster_words',
    'split_by_key',
    'words_by_key',
    'bucketize',
  ],
  params: (r) => ({ key: r.pick(['length', 'first letter', 'last letter'] as const), sortValues: r.bool() }),
  sig: (p) => `(words: list[str]) -> dict[${p.key === 'length' ? 'int' : 'str'}, list[str]]`,
  doc: (p) =>
    `Group words by their ${p.key}: return a dict from each ${p.key} to the list of words with it, ${p.sortValues ? 'sorted alphabetically' : 'in their original order'}.`,
  examples: () => [[['bb', 'a', 'ab', 'c']]],
  edge: () => [[[]], [['a']], [['a', 'a']], [['ba', 'ab']], [['abc', 'b', 'ca', 'a']], [['cb', 'ab', 'cb']]],
  random: (_p, r) => [words(r)],
  ref: (p, ws) => {
    const key = (w: string): string | number =>
      p.key === 'length' ? w.length : p.key === 'first letter' ? w[0] : w[w.length - 1];
    const m = new Map<string | number, string[]>();
    for (const w of ws) m.set(key(w), [...(m.get(key(w)) ?? []), w]);
    return dict([...m].map(([k, v]): [Py, Py] => [k, p.sortValues ? [...v].sort() : v]));
  },
  styles: [
    (p) => `
      out = {}
      for w in ${p.sortValues ? 'sorted(words)' : 'words'}:
          out.setdefault(${keyExpr(p.key)}, []).append(w)
      return out`,
    (p) => `
      out = {}
      for w in words:
          k = ${keyExpr(p.key)}
          if k not in out:
              out[k] = []
          out[k].append(w)
      ${p.sortValues ? 'return {k: sorted(v) for k, v in out.items()}' : 'return out'}`,
  ],
  mutants: [
    {
      kind: 'duplicates',
      body: (p) => `
        out = {}
        for w in ${p.sortValues ? 'sorted(set(words))' : 'dict.fromkeys(words)'}:
            out.setdefault(${keyExpr(p.key)}, []).append(w)
        return out`,
    },
    {
      kind: 'wrong-initial-value',
      body: (p) => `
        out = {}
        for w in ${p.sortValues ? 'sorted(words)' : 'words'}:
            k = ${keyExpr(p.key)}
            if k in out:
                out[k].append(w)
            else:
                out[k] = []
        return out`,
    },
    {
      kind: 'off-by-one',
      body: (p) => `
        out = {}
        for w in ${p.sortValues ? 'sorted(words)' : 'words'}:
            out.setdefault(${p.key === 'length' ? 'len(w) - 1' : p.key === 'first letter' ? 'w[1:2] or w[0]' : 'w[-2:-1] or w[-1]'}, []).append(w)
        return out`,
    },
  ],
});

function keyExpr(key: 'length' | 'first letter' | 'last letter'): string {
  return key === 'length' ? 'len(w)' : key === 'first letter' ? 'w[0]' : 'w[-1]';
}

export const mostFrequent = defineFamily<[nums: number[]]>()({
  name: 'most_frequent',
  category: 'dicts',
  names: ['most_frequent', 'mode', 'most_common', 'top_value', 'frequent_item', 'top_frequency', 'commonest', 'winner'],
  params: (r) => ({ tie: r.pick(['smallest', 'largest'] as const), d: r.pick(['None', '-1', '0']) }),
  sig: (p) => `(nums: list[int]) -> ${p.d === 'None' ? 'int | None' : 'int'}`,
  doc: (p) =>
    `Return the value that occurs most often in nums; on a tie return the ${p.tie} such value. Return ${p.d} for an empty list.`,
  examples: () => [[[3, 1, 3, 2, 1]]],
  edge: () => [
    [[]],
    [[5]],
    [[2, 1]],
    [[1, 2]],
    [[4, 4, 1]],
    [[1, 4, 4]],
    [[7, 3, 3, 7]],
    [[-1, -2, -2, -1, 0]],
    [[5, 5, 6, 6, 6]],
  ],
  random: (_p, r) => [r.ints(r.int(0, 8), -3, 4)],
  ref: (p, nums) => {
    if (!nums.length) return p.d === 'None' ? null : Number(p.d);
    const c = counts(nums);
    const top = Math.max(...c.values());
    const best = [...c].filter(([, n]) => n === top).map(([x]) => x);
    return p.tie === 'smallest' ? Math.min(...best) : Math.max(...best);
  },
  styles: [
    (p) => `
      if not nums:
          return ${p.d}
      counts = {}
      for x in nums:
          counts[x] = counts.get(x, 0) + 1
      top = max(counts.values())
      return ${p.tie === 'smallest' ? 'min' : 'max'}(x for x in counts if counts[x] == top)`,
    (p) => `
      if not nums:
          return ${p.d}
      return max(sorted(set(nums)${p.tie === 'largest' ? ', reverse=True' : ''}), key=nums.count)`,
  ],
  mutants: [
    {
      kind: 'wrong-comparison',
      body: (p) => `
        if not nums:
            return ${p.d}
        return max(set(nums), key=lambda x: (nums.count(x), ${p.tie === 'smallest' ? 'x' : '-x'}))`,
    },
    {
      kind: 'missed-edge-case',
      body: (p) => `return max(sorted(set(nums)${p.tie === 'largest' ? ', reverse=True' : ''}), key=nums.count)`,
    },
    {
      kind: 'other',
      body: (p) => `
        if not nums:
            return ${p.d}
        return max(nums, key=nums.count)`,
    },
  ],
});

export const invertDict = defineFamily<[d: PyDict]>()({
  name: 'invert_dict',
  category: 'dicts',
  names: ['invert_dict', 'swap_keys_values', 'reverse_mapping', 'invert', 'flip_dict', 'value_to_key'],
  params: (r) => ({ keep: r.pick(['smallest', 'largest'] as const) }),
  sig: () => '(d: dict[str, int]) -> dict[int, str]',
  doc: (p) =>
    `Return a dict mapping each value of d to its key. If several keys share a value, keep the alphabetically ${p.keep} key.`,
  examples: () => [
    [
      dict([
        ['b', 1],
        ['a', 1],
        ['c', 2],
      ]),
    ],
  ],
  edge: () => [
    [dict([])],
    [dict([['a', 1]])],
    [
      dict([
        ['a', 1],
        ['b', 1],
      ]),
    ],
    [
      dict([
        ['b', 1],
        ['a', 1],
      ]),
    ],
    [
      dict([
        ['x', 0],
        ['y', -1],
      ]),
    ],
    [
      dict([
        ['c', 2],
        ['a', 2],
        ['b', 2],
      ]),
    ],
  ],
  random: (_p, r) => [strDict(r, 6, 0, 3)],
  ref: (p, d) => {
    const m = new Map<number, string>();
    for (const [k, v] of entries(d)) {
      const cur = m.get(v);
      if (cur === undefined || (p.keep === 'smallest' ? k < cur : k > cur)) m.set(v, k);
    }
    return dict([...m]);
  },
  styles: [
    (p) => `
      out = {}
      for k, v in d.items():
          if v not in out or k ${p.keep === 'smallest' ? '<' : '>'} out[v]:
              out[v] = k
      return out`,
    (p) => `return {v: k for k, v in sorted(d.items()${p.keep === 'smallest' ? ', reverse=True' : ''})}`,
  ],
  mutants: [
    { kind: 'duplicates', body: () => 'return {v: k for k, v in d.items()}' },
    {
      kind: 'wrong-comparison',
      body: (p) => `return {v: k for k, v in sorted(d.items()${p.keep === 'smallest' ? '' : ', reverse=True'})}`,
    },
    {
      kind: 'off-by-one',
      body: (p) => `return {v: k for k, v in sorted(d.items()${p.keep === 'smallest' ? ', reverse=True' : ''})[1:]}`,
    },
  ],
});
