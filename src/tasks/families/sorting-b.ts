// Sorting / two-pointer families, part two: custom sort keys, k-th smallest, sortedness, partitioning, closest pair.
import { defineFamily } from '../family';
import type { Rng } from '../rng';

const list = (r: Rng, lo: number, hi: number, max: number): number[] => r.ints(r.int(0, max), lo, hi);
const asc = (xs: number[]): number[] => [...xs].sort((a, b) => a - b);
const cmpStr = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export const sortWords = defineFamily<[words: string[]]>()({
  name: 'sort_words',
  category: 'sorting',
  names: [
    'sort_words',
    'order_words',
    'arrange_words',
    'sort_by_length',
    'rank_words',
    'sort_strings',
    'length_sort',
    'order_by_size',
  ],
  params: (r) => ({ longFirst: r.bool(), tieDesc: r.bool(0.3) }),
  sig: () => '(words: list[str]) -> list[str]',
  doc: (p) =>
    `Return words sorted by length, ${p.longFirst ? 'longest' : 'shortest'} first; words of equal length in ${p.tieDesc ? 'reverse ' : ''}alphabetical order.`,
  examples: () => [[['pear', 'fig', 'apple', 'kiwi']]],
  edge: () => [
    [[]],
    [['a']],
    [['b', 'a']],
    [['bb', 'a']],
    [['a', 'bb']],
    [['ab', 'ab', 'c']],
    [['cc', 'aa', 'bb']],
    [['abc', 'b', 'ca', 'ba']],
  ],
  random: (_p, r) => [Array.from({ length: r.int(0, 6) }, () => r.word(r.int(1, 3), 'abc'))],
  ref: (p, ws) =>
    [...ws].sort(
      (a, b) => (p.longFirst ? b.length - a.length : a.length - b.length) || (p.tieDesc ? cmpStr(b, a) : cmpStr(a, b)),
    ),
  styles: [
    (p) =>
      p.longFirst === p.tieDesc
        ? `return sorted(words, key=lambda w: (len(w), w)${p.longFirst ? ', reverse=True' : ''})`
        : `return sorted(sorted(words${p.tieDesc ? ', reverse=True' : ''}), key=len${p.longFirst ? ', reverse=True' : ''})`,
    (p) => `
      out = sorted(words${p.tieDesc ? ', reverse=True' : ''})
      out.sort(key=len${p.longFirst ? ', reverse=True' : ''})
      return out`,
  ],
  mutants: [
    { kind: 'missed-edge-case', body: (p) => `return sorted(words, key=len${p.longFirst ? ', reverse=True' : ''})` },
    {
      kind: 'duplicates',
      body: (p) =>
        `return sorted(sorted(set(words)${p.tieDesc ? ', reverse=True' : ''}), key=len${p.longFirst ? ', reverse=True' : ''})`,
    },
    {
      kind: 'wrong-comparison',
      body: (p) =>
        `return sorted(sorted(words${p.tieDesc ? ', reverse=True' : ''}), key=len${p.longFirst ? '' : ', reverse=True'})`,
    },
  ],
});

export const kthSmallest = defineFamily<[nums: number[]]>()({
  name: 'kth_smallest',
  category: 'sorting',
  names: ['kth_smallest', 'nth_lowest', 'kth_lowest', 'pick_kth', 'kth_min', 'select_kth'],
  params: (r) => ({ k: r.int(2, 4), distinct: r.bool() }),
  sig: () => '(nums: list[int]) -> int | None',
  doc: (p) =>
    `Return the ${ordinal(p.k)} smallest ${p.distinct ? 'distinct value' : 'value (duplicates count separately)'} in nums, or None if there is none.`,
  examples: () => [[[5, 1, 4, 1, 3]]],
  edge: (p) => [
    [[]],
    [[7]],
    [Array(p.k).fill(2)],
    [Array.from({ length: p.k }, (_, i) => 9 - i)],
    [[...Array(p.k).fill(1), 5, 6]],
    [[3, 3, 2, 2, 1, 1, 0, 0]],
    [[-5, 4, -5, 4, 0]],
  ],
  random: (_p, r) => [list(r, -5, 5, 8)],
  ref: (p, nums) => {
    const s = asc(p.distinct ? [...new Set(nums)] : nums);
    return s.length >= p.k ? s[p.k - 1] : null;
  },
  styles: [
    (p) => `
      values = sorted(${p.distinct ? 'set(nums)' : 'nums'})
      if len(values) < ${p.k}:
          return None
      return values[${p.k - 1}]`,
    (p) => `
      values = ${p.distinct ? 'list(set(nums))' : 'list(nums)'}
      for _ in range(${p.k - 1}):
          if not values:
              return None
          values.remove(min(values))
      return min(values) if values else None`,
  ],
  mutants: [
    {
      kind: 'off-by-one',
      body: (p) => `
        values = sorted(${p.distinct ? 'set(nums)' : 'nums'})
        if len(values) <= ${p.k}:
            return None
        return values[${p.k - 1}]`,
    },
    {
      kind: 'duplicates',
      body: (p) => `
        values = sorted(${p.distinct ? 'nums' : 'set(nums)'})
        if len(values) < ${p.k}:
            return None
        return values[${p.k - 1}]`,
    },
    {
      kind: 'wrong-comparison',
      body: (p) => `
        values = sorted(${p.distinct ? 'set(nums)' : 'nums'}, reverse=True)
        if len(values) < ${p.k}:
            return None
        return values[${p.k - 1}]`,
    },
  ],
});

function ordinal(k: number): string {
  return ['', '1st', '2nd', '3rd', '4th'][k];
}

export const isSorted = defineFamily<[nums: number[]]>()({
  name: 'is_sorted',
  category: 'sorting',
  names: [
    'is_sorted',
    'in_order',
    'check_sorted',
    'is_ordered',
    'sorted_check',
    'is_monotonic',
    'ordered_check',
    'check_order',
  ],
  params: (r) => ({
    rel: r.pick(['non-decreasing', 'strictly increasing', 'non-increasing', 'strictly decreasing'] as const),
  }),
  sig: () => '(nums: list[int]) -> bool',
  doc: (p) => `Return True if nums is in ${p.rel} order (an empty list counts as sorted).`,
  examples: () => [[[1, 2, 2, 5]], [[3, 1]]],
  edge: () => [
    [[]],
    [[4]],
    [[1, 1]],
    [[1, 2]],
    [[2, 1]],
    [[1, 2, 2, 3]],
    [[3, 2, 2, 1]],
    [[1, 3, 2]],
    [[3, 1, 2]],
    [[1, 2, 3, 4]],
    [[4, 3, 2, 1]],
    [[5, 4, 3, 3]],
  ],
  random: (_p, r) => {
    const xs = list(r, -4, 4, 6);
    return [r.bool(0.5) ? asc(xs) : r.bool() ? asc(xs).reverse() : xs];
  },
  ref: (p, nums) => nums.every((x, i) => i === 0 || holds(p.rel, nums[i - 1], x)),
  styles: [
    (p) => `
      for i in range(1, len(nums)):
          if not nums[i - 1] ${pyOp(p.rel)} nums[i]:
              return False
      return True`,
    (p) => `return all(a ${pyOp(p.rel)} b for a, b in zip(nums, nums[1:]))`,
  ],
  mutants: [
    {
      kind: 'wrong-comparison',
      body: (p) =>
        `return all(a ${pyOp(p.rel).length === 1 ? pyOp(p.rel) + '=' : pyOp(p.rel)[0]} b for a, b in zip(nums, nums[1:]))`,
    },
    {
      kind: 'off-by-one',
      body: (p) => `
        for i in range(1, len(nums) - 1):
            if not nums[i - 1] ${pyOp(p.rel)} nums[i]:
                return False
        return True`,
    },
    {
      kind: 'missed-edge-case',
      body: (p) => `return len(nums) > 1 and all(a ${pyOp(p.rel)} b for a, b in zip(nums, nums[1:]))`,
    },
  ],
});

type Rel = 'non-decreasing' | 'strictly increasing' | 'non-increasing' | 'strictly decreasing';
function pyOp(rel: Rel): string {
  return { 'non-decreasing': '<=', 'strictly increasing': '<', 'non-increasing': '>=', 'strictly decreasing': '>' }[
    rel
  ];
}
function holds(rel: Rel, a: number, b: number): boolean {
  return {
    'non-decreasing': a <= b,
    'strictly increasing': a < b,
    'non-increasing': a >= b,
    'strictly decreasing': a > b,
  }[rel];
}

export const moveToEnd = defineFamily<[nums: number[]]>()({
  name: 'move_to_end',
  category: 'sorting',
  names: ['move_to_end', 'push_back', 'sink_value', 'move_value_last', 'partition_out'],
  params: (r) => ({ v: r.int(-2, 9), front: r.bool(0.3) }),
  sig: () => '(nums: list[int]) -> list[int]',
  doc: (p) =>
    `Return nums with every ${p.v} moved to the ${p.front ? 'front' : 'end'}; the other values keep their order.`,
  examples: (p) => [[[p.v, 1, p.v, 2].map((x, i) => (i === 1 && p.v === 1 ? 3 : x))]],
  edge: (p) => [
    [[]],
    [[p.v]],
    [[p.v, p.v]],
    [[p.v + 1]],
    [[p.v, p.v + 1, p.v]],
    [[p.v + 2, p.v + 1, p.v]],
    [[p.v + 1, p.v, p.v + 3, p.v, p.v + 2]],
  ],
  random: (p, r) => [list(r, p.v - 2, p.v + 2, 8)],
  ref: (p, nums) => {
    const hit = nums.filter((x) => x === p.v);
    const rest = nums.filter((x) => x !== p.v);
    return p.front ? [...hit, ...rest] : [...rest, ...hit];
  },
  styles: [
    (p) => `
      hits = [x for x in nums if x == ${p.v}]
      rest = [x for x in nums if x != ${p.v}]
      return ${p.front ? 'hits + rest' : 'rest + hits'}`,
    (p) => `return sorted(nums, key=lambda x: x ${p.front ? '!=' : '=='} ${p.v})`,
  ],
  mutants: [
    {
      kind: 'duplicates',
      body: (p) => `
        out = list(nums)
        if ${p.v} in out:
            out.remove(${p.v})
            ${p.front ? `out.insert(0, ${p.v})` : `out.append(${p.v})`}
        return out`,
    },
    { kind: 'other', body: (p) => `return sorted(nums, key=lambda x: (x ${p.front ? '!=' : '=='} ${p.v}, x))` },
    {
      kind: 'off-by-one',
      body: (p) => `
        hits = [x for x in nums[1:] if x == ${p.v}]
        rest = [x for x in nums if x != ${p.v}]
        return ${p.front ? 'hits + rest' : 'rest + hits'}`,
    },
  ],
});

export const minPairDiff = defineFamily<[nums: number[]]>()({
  name: 'min_pair_diff',
  category: 'sorting',
  names: [
    'min_pair_diff',
    'closest_pair_gap',
    'smallest_gap',
    'min_difference',
    'nearest_gap',
    'tightest_pair',
    'min_gap',
    'closest_values',
  ],
  params: (r) => ({ d: r.pick([-1, 0, -1]), distinct: r.bool(0.3) }),
  sig: () => '(nums: list[int]) -> int',
  doc: (p) =>
    `Return the smallest absolute difference between two ${p.distinct ? 'different values' : 'elements at different positions'} of nums, or ${p.d} if there are no two such ${p.distinct ? 'values' : 'elements'}.`,
  examples: () => [[[9, 2, 7, 4]]],
  edge: () => [
    [[]],
    [[5]],
    [[5, 5]],
    [[1, 9]],
    [[9, 1, 5]],
    [[3, 3, 8, 1]],
    [[10, 1, 4, 7, 2]],
    [[-4, 6, -1]],
    [[4, 4, 4]],
    [[0, 20]],
  ],
  random: (_p, r) => [list(r, -12, 12, 7)],
  ref: (p, nums) => {
    const s = asc(p.distinct ? [...new Set(nums)] : nums);
    if (s.length < 2) return p.d;
    return Math.min(...s.slice(1).map((x, i) => x - s[i]));
  },
  styles: [
    (p) => `
      values = sorted(${p.distinct ? 'set(nums)' : 'nums'})
      if len(values) < 2:
          return ${p.d}
      return min(b - a for a, b in zip(values, values[1:]))`,
    (p) => `
      values = ${p.distinct ? 'list(set(nums))' : 'nums'}
      best = None
      for i in range(len(values)):
          for j in range(i + 1, len(values)):
              gap = abs(values[i] - values[j])
              if best is None or gap < best:
                  best = gap
      return ${p.d} if best is None else best`,
  ],
  mutants: [
    {
      kind: 'missed-edge-case',
      body: (p) => `
        values = ${p.distinct ? 'list(dict.fromkeys(nums))' : 'nums'}
        if len(values) < 2:
            return ${p.d}
        return min(abs(b - a) for a, b in zip(values, values[1:]))`,
    },
    {
      kind: 'wrong-initial-value',
      body: (p) => `
        values = sorted(${p.distinct ? 'set(nums)' : 'nums'})
        best = ${p.d === 0 ? '10' : '0'}
        for a, b in zip(values, values[1:]):
            best = min(best, b - a)
        return best if len(values) > 1 else ${p.d}`,
    },
    {
      kind: 'duplicates',
      body: (p) => `
        values = sorted(${p.distinct ? 'nums' : 'set(nums)'})
        if len(values) < 2:
            return ${p.d}
        return min(b - a for a, b in zip(values, values[1:]))`,
    },
  ],
});
