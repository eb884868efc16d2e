// Sorting / two-pointer families, part one: ThreeSum with duplicates (the paper's case study), pair sums, merging.
import { defineFamily, edited } from '../family';
import { tuple } from '../pyrepr';
import type { Rng } from '../rng';

const list = (r: Rng, lo: number, hi: number, max: number): number[] => r.ints(r.int(0, max), lo, hi);
const asc = (xs: number[]): number[] => [...xs].sort((a, b) => a - b);

/** Unique sorted triplets (as sorted number arrays) from distinct positions summing to t, in ascending order. */
function triplets(nums: number[], t: number): number[][] {
  const s = asc(nums);
  const seen = new Set<string>();
  const out: number[][] = [];
  for (let i = 0; i < s.length; i++)
    for (let j = i + 1; j < s.length; j++)
      for (let k = j + 1; k < s.length; k++) {
        if (s[i] + s[j] + s[k] !== t) continue;
        const key = `${s[i]},${s[j]},${s[k]}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.push([s[i], s[j], s[k]]);
      }
  return out.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
}

type ThreeSumParams = { t: number; out: 'list' | 'count' };
const threeSumBrute = (p: ThreeSumParams) => `
      found = set()
      for i in range(len(nums)):
          for j in range(i + 1, len(nums)):
              for k in range(j + 1, len(nums)):
                  if nums[i] + nums[j] + nums[k] == ${p.t}:
                      found.add(tuple(sorted((nums[i], nums[j], nums[k]))))
      return ${p.out === 'list' ? 'sorted(found)' : 'len(found)'}`;
const threeSumTwoPointer = (p: ThreeSumParams) => `
      nums = sorted(nums)
      out = []
      for i in range(len(nums) - 2):
          if i > 0 and nums[i] == nums[i - 1]:
              continue
          lo, hi = i + 1, len(nums) - 1
          while lo < hi:
              s = nums[i] + nums[lo] + nums[hi]
              if s < ${p.t}:
                  lo += 1
              elif s > ${p.t}:
                  hi -= 1
              else:
                  out.append((nums[i], nums[lo], nums[hi]))
                  while lo < hi and nums[lo] == nums[lo + 1]:
                      lo += 1
                  lo += 1
                  hi -= 1
      return ${p.out === 'list' ? 'out' : 'len(out)'}`;

export const threeSum = defineFamily<[nums: number[]]>()({
  name: 'three_sum',
  category: 'sorting',
  names: ['three_sum', 'find_triplets', 'triple_sum', 'zero_triplets', 'sum_to_target'],
  params: (r) => ({ t: r.pick([0, 0, 0, r.int(-4, 8)]), out: r.pick(['list', 'list', 'count'] as const) }),
  sig: (p) => (p.out === 'list' ? '(nums: list[int]) -> list[tuple[int, int, int]]' : '(nums: list[int]) -> int'),
  doc: (p) =>
    p.out === 'list'
      ? `Return all unique triplets (a, b, c) with a <= b <= c, taken from three different positions of nums,\nsuch that a + b + c == ${p.t}. Return them sorted, without duplicates.`
      : `Return how many unique triplets (a, b, c) with a <= b <= c, taken from three different positions of nums,\nsatisfy a + b + c == ${p.t}. Triplets with the same values count once.`,
  examples: (p) => [[[p.t - 1, 0, 1, 2, -1, -4].map((x, i) => (i === 0 ? x : x))]],
  edge: (p) => [
    [[]],
    [[p.t]],
    [[0, p.t]],
    [[0, 0, p.t]],
    [[0, 0, 0, p.t, p.t]],
    [[p.t - 2, 1, 1, 1, 1]],
    [[-1, -1, p.t + 2, p.t + 2, -1]],
    [[p.t, 0, 0, 0, 0, 0]],
    [[p.t + 4, -2, -2, -2, 2, 2]],
    [[3, -3, p.t, 1, -1, 0, p.t - 1]],
    [[p.t - 10, 5, 6]],
  ],
  random: (p, r) => [list(r, -4 + Math.floor(p.t / 3), 4 + Math.floor(p.t / 3), 8)],
  ref: (p, nums) => {
    const ts = triplets(nums, p.t);
    return p.out === 'count' ? ts.length : ts.map((x) => tuple(...x));
  },
  styles: [threeSumBrute, threeSumTwoPointer],
  mutants: [
    {
      kind: 'duplicates',
      body: edited(
        threeSumTwoPointer,
        ['\n          if i > 0 and nums[i] == nums[i - 1]:\n              continue', ''],
        ['\n                  while lo < hi and nums[lo] == nums[lo + 1]:\n                      lo += 1', ''],
      ),
    },
    {
      kind: 'duplicates',
      body: edited(threeSumBrute, ['found = set()', 'found = []'], ['found.add(', 'found.append(']),
    },
    { kind: 'off-by-one', body: edited(threeSumBrute, ['range(j + 1, len(nums))', 'range(j, len(nums))']) },
    { kind: 'wrong-comparison', body: edited(threeSumTwoPointer, ['while lo < hi:', 'while lo <= hi:']) },
  ],
});

export const pairSumCount = defineFamily<[nums: number[]]>()({
  name: 'pair_sum_count',
  category: 'sorting',
  names: [
    'pair_sum_count',
    'count_pairs',
    'two_sum_pairs',
    'matching_pairs',
    'pairs_with_sum',
    'count_two_sum',
    'sum_pairs',
  ],
  params: (r) => ({ t: 2 * r.int(-2, 6) }),
  sig: () => '(nums: list[int]) -> int',
  doc: (p) =>
    `Return how many unique pairs of values (a, b) with a <= b, taken from two different positions of nums, satisfy a + b == ${p.t}.`,
  examples: (p) => [[[1, p.t - 1, p.t - 1, 3, p.t - 3]]],
  edge: (p) => [
    [[]],
    [[p.t]],
    [[0, p.t]],
    [[p.t, 0, 0, p.t]],
    [[1, p.t - 1, 1]],
    [[Math.floor(p.t / 2), Math.ceil(p.t / 2)]],
    [[Math.floor(p.t / 2), Math.floor(p.t / 2), p.t - Math.floor(p.t / 2)]],
    [[Math.floor(p.t / 2)]],
    [[-1, p.t + 1, 2, p.t - 2]],
  ],
  random: (p, r) => [list(r, -3, p.t + 3, 8)],
  ref: (p, nums) => {
    const seen = new Set<string>();
    for (let i = 0; i < nums.length; i++)
      for (let j = i + 1; j < nums.length; j++)
        if (nums[i] + nums[j] === p.t) seen.add(String(Math.min(nums[i], nums[j])));
    return seen.size;
  },
  styles: [
    (p) => `
      pairs = set()
      for i in range(len(nums)):
          for j in range(i + 1, len(nums)):
              if nums[i] + nums[j] == ${p.t}:
                  pairs.add(min(nums[i], nums[j]))
      return len(pairs)`,
    (p) => `
      nums = sorted(nums)
      lo, hi = 0, len(nums) - 1
      count = 0
      while lo < hi:
          s = nums[lo] + nums[hi]
          if s < ${p.t}:
              lo += 1
          elif s > ${p.t}:
              hi -= 1
          else:
              count += 1
              while lo < hi and nums[lo] == nums[lo + 1]:
                  lo += 1
              lo += 1
              hi -= 1
      return count`,
  ],
  mutants: [
    {
      kind: 'duplicates',
      body: (p) => `
        count = 0
        for i in range(len(nums)):
            for j in range(i + 1, len(nums)):
                if nums[i] + nums[j] == ${p.t}:
                    count += 1
        return count`,
    },
    {
      kind: 'off-by-one',
      body: (p) => `
        pairs = set()
        for i in range(len(nums)):
            for j in range(i, len(nums)):
                if nums[i] + nums[j] == ${p.t}:
                    pairs.add(min(nums[i], nums[j]))
        return len(pairs)`,
    },
    {
      kind: 'missed-edge-case',
      body: (p) => `return len({x for x in nums if ${p.t} - x in nums and x <= ${p.t} - x})`,
    },
  ],
});

type MergeParams = { dedupe: boolean; desc: boolean };
const mergeTwoPointer = (p: MergeParams) => `
      out = []
      i = j = 0
      while i < len(a) or j < len(b):
          if j == len(b) or (i < len(a) and a[i] ${p.desc ? '>=' : '<='} b[j]):
              x = a[i]
              i += 1
          else:
              x = b[j]
              j += 1
          ${p.dedupe ? 'if not out or out[-1] != x:\n              out.append(x)' : 'out.append(x)'}
      return out`;

export const mergeSorted = defineFamily<[a: number[], b: number[]]>()({
  name: 'merge_sorted',
  category: 'sorting',
  names: ['merge_sorted', 'merge_lists', 'combine_sorted', 'merge_two', 'join_sorted', 'merge_ordered'],
  params: (r) => ({ dedupe: r.bool(), desc: r.bool(0.3) }),
  sig: () => '(a: list[int], b: list[int]) -> list[int]',
  doc: (p) =>
    `a and b are sorted in ${p.desc ? 'descending' : 'ascending'} order. Return one list with all their values, sorted the same way${p.dedupe ? ', without duplicates' : ''}.`,
  examples: (p) => [
    p.desc
      ? [
          [5, 3, 1],
          [4, 3],
        ]
      : [
          [1, 3, 5],
          [3, 4],
        ],
  ],
  edge: (p) =>
    [
      [[], []],
      [[1], []],
      [[], [2]],
      [[2, 2], [2]],
      [
        [1, 4],
        [2, 3, 5, 6],
      ],
      [[7, 8, 9], [1]],
      [
        [-3, 0],
        [-3, 0],
      ],
    ].map(([a, b]): [number[], number[]] => (p.desc ? [[...a].reverse(), [...b].reverse()] : [a, b])),
  random: (p, r) => {
    const a = asc(list(r, -5, 9, 5));
    const b = asc(list(r, -5, 9, 5));
    return p.desc ? [a.reverse(), b.reverse()] : [a, b];
  },
  ref: (p, a, b) => {
    let out = asc([...a, ...b]);
    if (p.dedupe) out = [...new Set(out)];
    return p.desc ? out.reverse() : out;
  },
  styles: [
    (p) => `return sorted(${p.dedupe ? 'set(a + b)' : 'a + b'}${p.desc ? ', reverse=True' : ''})`,
    mergeTwoPointer,
  ],
  mutants: [
    {
      kind: 'missed-edge-case',
      body: (p) => `
        out = []
        i = j = 0
        while i < len(a) and j < len(b):
            if a[i] ${p.desc ? '>=' : '<='} b[j]:
                out.append(a[i])
                i += 1
            else:
                out.append(b[j])
                j += 1
        return ${p.dedupe ? 'list(dict.fromkeys(out))' : 'out'}`,
    },
    {
      kind: 'duplicates',
      body: (p) => `return sorted(${p.dedupe ? 'a + b' : 'set(a + b)'}${p.desc ? ', reverse=True' : ''})`,
    },
    {
      kind: 'wrong-comparison',
      body: edited(mergeTwoPointer, (p) =>
        p.desc ? ['a[i] >= b[j]', 'a[i] <= b[j]'] : ['a[i] <= b[j]', 'a[i] >= b[j]'],
      ),
    },
  ],
});
