// List families, part two: rotation, chunking, best window sums, runs, first match.
import { defineFamily, edited } from '../family';
import type { Rng } from '../rng';

const list = (r: Rng, lo = -9, hi = 9, max = 8): number[] => r.ints(r.int(0, max), lo, hi);
const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);

export const rotateLeft = defineFamily<[items: number[]]>()({
  name: 'rotate_left',
  category: 'lists',
  names: ['rotate_left', 'rotate', 'shift_left', 'cycle_left', 'spin_left', 'roll_left'],
  params: (r) => ({ k: r.int(3, 11) }),
  sig: () => '(items: list[int]) -> list[int]',
  doc: (p) => `Return items rotated left by ${p.k} position${p.k > 1 ? 's' : ''} (the first element moves to the end).`,
  examples: () => [[[1, 2, 3, 4, 5]]],
  edge: (p) => [
    [[]],
    [[7]],
    [[1, 2]],
    [Array.from({ length: p.k }, (_, i) => i + 1)],
    [Array.from({ length: p.k + 1 }, (_, i) => i)],
    [[5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]],
    [[4, 4, 1]],
  ],
  random: (_p, r) => [list(r, 0, 9, 10)],
  ref: (p, items) => {
    if (items.length === 0) return [];
    const k = p.k % items.length;
    return [...items.slice(k), ...items.slice(0, k)];
  },
  styles: [
    (p) => `
      if not items:
          return []
      k = ${p.k} % len(items)
      return items[k:] + items[:k]`,
    (p) => `
      out = list(items)
      for _ in range(${p.k} % len(items) if items else 0):
          out.append(out.pop(0))
      return out`,
  ],
  mutants: [
    {
      kind: 'missed-edge-case',
      body: (p) => `
        if not items:
            return []
        return items[${p.k}:] + items[:${p.k}]`,
    },
    {
      kind: 'off-by-one',
      body: (p) => `
        if not items:
            return []
        k = (${p.k} + 1) % len(items)
        return items[k:] + items[:k]`,
    },
    {
      kind: 'wrong-comparison',
      body: (p) => `
        if len(items) < ${p.k}:
            return items
        k = ${p.k} % len(items)
        return items[k:] + items[:k]`,
    },
  ],
});

export const chunkSums = defineFamily<[nums: number[]]>()({
  name: 'chunk_sums',
  category: 'lists',
  names: [
    'chunk_sums',
    'group_totals',
    'block_sums',
    'batch_sums',
    'window_totals',
    'part_sums',
    'slice_sums',
    'segment_sums',
  ],
  params: (r) => ({ k: r.int(2, 6) }),
  sig: () => '(nums: list[int]) -> list[int]',
  doc: (p) =>
    `Split nums into consecutive chunks of ${p.k} (the last chunk may be shorter) and return the sum of each chunk.`,
  examples: (p) => [[Array.from({ length: p.k + 2 }, (_, i) => i + 1)]],
  edge: (p) => [
    [[]],
    [[4]],
    [Array(p.k).fill(1)],
    [Array(p.k + 1).fill(2)],
    [Array.from({ length: 2 * p.k + 1 }, (_, i) => i - 3)],
    [[-1, -2, -3, -4, -5, -6, -7]],
  ],
  random: (_p, r) => [list(r, -9, 9, 11)],
  ref: (p, nums) => {
    const out: number[] = [];
    for (let i = 0; i < nums.length; i += p.k) out.push(sum(nums.slice(i, i + p.k)));
    return out;
  },
  styles: [
    (p) => `return [sum(nums[i:i + ${p.k}]) for i in range(0, len(nums), ${p.k})]`,
    (p) => `
      out = []
      for i, x in enumerate(nums):
          if i % ${p.k} == 0:
              out.append(0)
          out[-1] += x
      return out`,
  ],
  mutants: [
    {
      kind: 'missed-edge-case',
      body: (p) => `return [sum(nums[i:i + ${p.k}]) for i in range(0, len(nums) - ${p.k} + 1, ${p.k})]`,
    },
    { kind: 'off-by-one', body: (p) => `return [sum(nums[i:i + ${p.k - 1}]) for i in range(0, len(nums), ${p.k})]` },
    {
      kind: 'wrong-initial-value',
      body: (p) => `
        out = []
        total = 0
        for i, x in enumerate(nums):
            total += x
            if i % ${p.k} == ${p.k - 1}:
                out.append(total)
        if len(nums) % ${p.k}:
            out.append(total)
        return out`,
    },
  ],
});

export const maxSubarray = defineFamily<[nums: number[]]>()({
  name: 'max_subarray',
  category: 'lists',
  names: [
    'max_subarray',
    'best_run_sum',
    'max_window_sum',
    'largest_sum',
    'best_window',
    'max_block_sum',
    'top_window_sum',
    'peak_window',
  ],
  params: (r) => ({ len: r.int(2, 5), d: r.pick([0, -1, 0]) }),
  sig: () => '(nums: list[int]) -> int',
  doc: (p) =>
    `Return the largest sum of ${p.len} consecutive numbers in nums, or ${p.d} if nums has fewer than ${p.len} numbers.`,
  examples: (p) => [[[2, -1, 4, 1, -3, 5, 0].slice(0, p.len + 3)]],
  edge: (p) => [
    [[]],
    [[3]],
    [Array(p.len - 1).fill(1)],
    [Array(p.len).fill(-2)],
    [Array.from({ length: p.len + 2 }, (_, i) => -i - 1)],
    [[...Array(p.len + 1).fill(0), 5]],
    [[9, ...Array(p.len + 1).fill(-3)]],
    [[-5, -5, -5, -5, -5, -5, -1]],
  ],
  random: (_p, r) => [list(r, -9, 9, 9)],
  ref: (p, nums) => {
    if (nums.length < p.len) return p.d;
    let best = -Infinity;
    for (let i = 0; i + p.len <= nums.length; i++) best = Math.max(best, sum(nums.slice(i, i + p.len)));
    return best;
  },
  styles: [
    (p) => `
      if len(nums) < ${p.len}:
          return ${p.d}
      return max(sum(nums[i:i + ${p.len}]) for i in range(len(nums) - ${p.len - 1}))`,
    (p) => `
      if len(nums) < ${p.len}:
          return ${p.d}
      window = sum(nums[:${p.len}])
      best = window
      for i in range(${p.len}, len(nums)):
          window += nums[i] - nums[i - ${p.len}]
          best = max(best, window)
      return best`,
  ],
  mutants: [
    {
      kind: 'wrong-initial-value',
      body: (p) => `
        if len(nums) < ${p.len}:
            return ${p.d}
        best = 0
        for i in range(len(nums) - ${p.len - 1}):
            best = max(best, sum(nums[i:i + ${p.len}]))
        return best`,
    },
    {
      kind: 'off-by-one',
      body: (p) => `
        if len(nums) < ${p.len}:
            return ${p.d}
        return max(sum(nums[i:i + ${p.len}]) for i in range(max(1, len(nums) - ${p.len})))`,
    },
    {
      kind: 'missed-edge-case',
      body: (p) => `return max(sum(nums[i:i + ${p.len}]) for i in range(len(nums) - ${p.len - 1})) if nums else ${p.d}`,
    },
  ],
});

type RunParams = { rel: 'increasing' | 'equal' | 'non-decreasing' };
const runPairs = (p: RunParams) => `
      if not nums:
          return 0
      best = cur = 1
      for a, b in zip(nums, nums[1:]):
          if b ${op(p.rel)} a:
              cur += 1
              best = max(best, cur)
          else:
              cur = 1
      return best`;

export const longestRun = defineFamily<[nums: number[]]>()({
  name: 'longest_run',
  category: 'lists',
  names: [
    'longest_run',
    'longest_streak',
    'max_run_length',
    'longest_climb',
    'longest_stretch',
    'best_streak',
    'longest_sequence',
    'max_streak',
  ],
  params: (r) => ({ rel: r.pick(['increasing', 'equal', 'non-decreasing'] as const) }),
  sig: () => '(nums: list[int]) -> int',
  doc: (p) =>
    p.rel === 'increasing'
      ? 'Return the length of the longest run of consecutive elements that strictly increase.'
      : p.rel === 'equal'
        ? 'Return the length of the longest run of consecutive equal elements.'
        : 'Return the length of the longest run of consecutive elements that never decrease.',
  examples: () => [[[1, 2, 2, 3, 1, 4]]],
  edge: () => [
    [[]],
    [[5]],
    [[3, 3]],
    [[1, 2]],
    [[2, 1]],
    [[1, 2, 3, 1]],
    [[4, 4, 4, 1, 2]],
    [[3, 2, 1, 1, 2, 3, 4]],
    [[1, 1, 2, 2, 2]],
  ],
  random: (_p, r) => [list(r, 0, 5, 9)],
  ref: (p, nums) => {
    let best = 0;
    let cur = 0;
    nums.forEach((x, i) => {
      const ok =
        i > 0 && (p.rel === 'increasing' ? x > nums[i - 1] : p.rel === 'equal' ? x === nums[i - 1] : x >= nums[i - 1]);
      cur = ok ? cur + 1 : 1;
      best = Math.max(best, cur);
    });
    return best;
  },
  styles: [
    (p) => `
      best = 0
      cur = 0
      for i, x in enumerate(nums):
          cur = cur + 1 if i > 0 and x ${op(p.rel)} nums[i - 1] else 1
          best = max(best, cur)
      return best`,
    runPairs,
  ],
  mutants: [
    {
      kind: 'wrong-comparison',
      body: (p) => `
        best = 0
        cur = 0
        for i, x in enumerate(nums):
            cur = cur + 1 if i > 0 and x ${p.rel === 'increasing' ? '>=' : p.rel === 'equal' ? '>=' : '>'} nums[i - 1] else 1
            best = max(best, cur)
        return best`,
    },
    { kind: 'wrong-initial-value', body: edited(runPairs, ['\n      if not nums:\n          return 0', '']) },
    {
      kind: 'off-by-one',
      body: (p) => `
        best = 0
        cur = 0
        for a, b in zip(nums, nums[1:]):
            cur = cur + 1 if b ${op(p.rel)} a else 0
            best = max(best, cur)
        return best`,
    },
  ],
});

function op(rel: 'increasing' | 'equal' | 'non-decreasing'): string {
  return rel === 'increasing' ? '>' : rel === 'equal' ? '==' : '>=';
}

export const firstIndexOver = defineFamily<[nums: number[]]>()({
  name: 'first_index_over',
  category: 'lists',
  names: ['first_index_over', 'find_first', 'first_above', 'index_of_first'],
  params: (r) => ({ t: r.int(-3, 12), d: r.pick([-1, -1, 0]) === 0 ? 'None' : '-1' }),
  sig: (p) => `(nums: list[int]) -> ${p.d === 'None' ? 'int | None' : 'int'}`,
  doc: (p) => `Return the index of the first number in nums that is at least ${p.t}, or ${p.d} if there is none.`,
  examples: (p) => [[[p.t - 3, p.t + 2, p.t]], [[p.t - 1]]],
  edge: (p) => [
    [[]],
    [[p.t]],
    [[p.t - 1]],
    [[p.t + 1, p.t]],
    [[p.t - 1, p.t]],
    [[p.t - 2, p.t - 1, p.t + 4]],
    [[p.t - 5, p.t - 5]],
    [[p.t - 1, p.t - 1, p.t + 1, p.t + 2]],
  ],
  random: (p, r) => [list(r, p.t - 8, p.t + 3, 8)],
  ref: (p, nums) => {
    const i = nums.findIndex((x) => x >= p.t);
    return i >= 0 ? i : p.d === 'None' ? null : -1;
  },
  styles: [
    (p) => `
      for i, x in enumerate(nums):
          if x >= ${p.t}:
              return i
      return ${p.d}`,
    (p) => `
      i = 0
      while i < len(nums):
          if nums[i] >= ${p.t}:
              return i
          i += 1
      return ${p.d}`,
  ],
  mutants: [
    {
      kind: 'wrong-comparison',
      body: (p) => `
        for i, x in enumerate(nums):
            if x > ${p.t}:
                return i
        return ${p.d}`,
    },
    {
      kind: 'off-by-one',
      body: (p) => `
        for i in range(1, len(nums)):
            if nums[i] >= ${p.t}:
                return i
        return ${p.d}`,
    },
    {
      kind: 'other',
      body: (p) => `
        found = ${p.d}
        for i, x in enumerate(nums):
            if x >= ${p.t}:
                found = i
        return found`,
    },
  ],
});
