// List families, part one: counting, filtering sums, running balances, neighbour gaps, distinct ranks.
import { defineFamily } from '../family';
import type { Rng } from '../rng';

const list = (r: Rng, lo = -9, hi = 9, max = 8): number[] => r.ints(r.int(0, max), lo, hi);

const cmpWord = { '>': 'greater than', '<': 'less than' } as const;

export const countItems = defineFamily<[nums: number[]]>()({
  name: 'count_items',
  category: 'lists',
  names: ['count_items', 'count_nums', 'tally', 'count_matching', 'how_many'],
  params: (r) => ({ t: r.int(-5, 12), op: r.pick(['>', '<'] as const) }),
  // Held-out variants: thresholds the curriculum never draws.
  variants: (r) => ({ t: r.bool() ? r.int(13, 30) : r.int(-20, -6), op: r.pick(['>', '<'] as const) }),
  sig: () => '(nums: list[int]) -> int',
  doc: (p) => `Return how many numbers in nums are ${cmpWord[p.op]} ${p.t}.`,
  examples: (p) => [[[p.t - 2, p.t, p.t + 3, p.t + 1]]],
  edge: (p) => [
    [[]],
    [[p.t]],
    [[p.t, p.t, p.t]],
    [[p.t + 1, p.t + 1]],
    [[p.t - 1, p.t - 1]],
    [[p.t + 1]],
    [[p.t - 1]],
    [[p.t - 1, p.t + 1, p.t]],
  ],
  random: (p, r) => [list(r, p.t - 6, p.t + 6)],
  ref: (p, nums) => nums.filter((x) => (p.op === '>' ? x > p.t : x < p.t)).length,
  styles: [
    (p) => `
      count = 0
      for x in nums:
          if x ${p.op} ${p.t}:
              count += 1
      return count`,
    (p) => `return sum(1 for x in nums if x ${p.op} ${p.t})`,
    (p) => `return len([x for x in nums if x ${p.op} ${p.t}])`,
  ],
  mutants: [
    { kind: 'wrong-comparison', body: (p) => `return sum(1 for x in nums if x ${p.op}= ${p.t})` },
    {
      kind: 'off-by-one',
      body: (p) => `
        count = 0
        for i in range(1, len(nums)):
            if nums[i] ${p.op} ${p.t}:
                count += 1
        return count`,
    },
    { kind: 'duplicates', body: (p) => `return len(set(x for x in nums if x ${p.op} ${p.t}))` },
  ],
});

export const sumMultiples = defineFamily<[nums: number[]]>()({
  name: 'sum_multiples',
  category: 'lists',
  names: ['sum_multiples', 'sum_divisible', 'multiple_sum', 'add_multiples', 'total_multiples'],
  params: (r) => ({ k: r.int(2, 13) }),
  sig: () => '(nums: list[int]) -> int',
  doc: (p) => `Return the sum of the numbers in nums that are divisible by ${p.k}.`,
  examples: (p) => [[[p.k, 1, 2 * p.k + 1, 3 * p.k]]],
  edge: (p) => [[[]], [[p.k]], [[1]], [[-p.k, p.k + 1]], [[1, p.k, 2 * p.k]], [[0, -2 * p.k]], [[p.k + 1, p.k, p.k]]],
  random: (p, r) => [list(r, -3 * p.k, 3 * p.k)],
  ref: (p, nums) => nums.filter((x) => x % p.k === 0).reduce((a, b) => a + b, 0),
  styles: [
    (p) => `
      total = 0
      for x in nums:
          if x % ${p.k} == 0:
              total += x
      return total`,
    (p) => `return sum(x for x in nums if x % ${p.k} == 0)`,
  ],
  mutants: [
    {
      kind: 'wrong-initial-value',
      body: (p) => `
        if not nums:
            return 0
        total = nums[0]
        for x in nums[1:]:
            if x % ${p.k} == 0:
                total += x
        return total`,
    },
    {
      kind: 'off-by-one',
      body: (p) => `
        total = 0
        for i in range(1, len(nums)):
            if nums[i] % ${p.k} == 0:
                total += nums[i]
        return total`,
    },
    { kind: 'missed-edge-case', body: (p) => `return sum(x for x in nums if x > 0 and x % ${p.k} == 0)` },
  ],
});

export const runningBalance = defineFamily<[changes: number[]]>()({
  name: 'running_balance',
  category: 'lists',
  names: ['running_balance', 'balances', 'balance_history', 'track_balance'],
  params: (r) => ({ s: r.int(1, 40) * 5 }),
  sig: () => '(changes: list[int]) -> list[int]',
  doc: (p) =>
    `An account starts with balance ${p.s}. Each number in changes is added to it.\nReturn the balance after each change.`,
  examples: () => [[[10, -5, 20]]],
  edge: (p) => [[[]], [[0]], [[-p.s]], [[5, 5]], [[-1, -2, -3]], [[3, 4]]],
  random: (_p, r) => [list(r, -30, 30, 7)],
  ref: (p, changes) => {
    let b = p.s;
    return changes.map((x) => (b += x));
  },
  styles: [
    (p) => `
      balance = ${p.s}
      out = []
      for x in changes:
          balance += x
          out.append(balance)
      return out`,
    (p) => `
      out = []
      for x in changes:
          out.append((out[-1] if out else ${p.s}) + x)
      return out`,
  ],
  mutants: [
    {
      kind: 'wrong-initial-value',
      body: () => `
        balance = 0
        out = []
        for x in changes:
            balance += x
            out.append(balance)
        return out`,
    },
    {
      kind: 'off-by-one',
      body: (p) => `
        balance = ${p.s}
        out = []
        for x in changes:
            out.append(balance)
            balance += x
        return out`,
    },
    {
      kind: 'missed-edge-case',
      body: (p) => `
        balance = ${p.s}
        out = []
        for x in changes:
            if x > 0:
                balance += x
            out.append(balance)
        return out`,
    },
  ],
});

export const maxGap = defineFamily<[nums: number[]]>()({
  name: 'max_gap',
  category: 'lists',
  names: [
    'max_gap',
    'largest_step',
    'biggest_jump',
    'max_neighbor_diff',
    'widest_step',
    'max_spread',
    'largest_jump',
    'max_shift',
  ],
  params: (r) => ({ k: r.int(1, 3), d: r.pick([0, -1]) }),
  sig: () => '(nums: list[int]) -> int',
  doc: (p) =>
    `Return the largest absolute difference between nums[i] and nums[i + ${p.k}].\nReturn ${p.d} if there is no such pair.`,
  examples: (p) => [[[1, 4, 2, 9, 3].slice(0, p.k + 3)]],
  edge: (p) => [
    [[]],
    [[5]],
    [Array(p.k).fill(2)],
    [[3, ...Array(p.k).fill(3)]],
    [[1, ...Array(p.k - 1).fill(0), 7]],
    [[9, ...Array(p.k - 1).fill(0), 2, 0, 0, 0]],
    [[0, 0, 0, 0, 0, 0, 8]],
    [[-4, ...Array(p.k - 1).fill(0), -9]],
  ],
  random: (_p, r) => [list(r, -10, 10, 8)],
  ref: (p, nums) => {
    let best: number | null = null;
    for (let i = 0; i + p.k < nums.length; i++) best = Math.max(best ?? 0, Math.abs(nums[i + p.k] - nums[i]));
    return best ?? p.d;
  },
  styles: [
    (p) => `
      if len(nums) <= ${p.k}:
          return ${p.d}
      best = 0
      for i in range(len(nums) - ${p.k}):
          best = max(best, abs(nums[i + ${p.k}] - nums[i]))
      return best`,
    (p) => `
      diffs = [abs(a - b) for a, b in zip(nums, nums[${p.k}:])]
      return max(diffs) if diffs else ${p.d}`,
  ],
  mutants: [
    {
      kind: 'off-by-one',
      body: (p) => `
        if len(nums) <= ${p.k}:
            return ${p.d}
        best = 0
        for i in range(len(nums) - ${p.k} - 1):
            best = max(best, abs(nums[i + ${p.k}] - nums[i]))
        return best`,
    },
    {
      kind: 'missed-edge-case',
      body: (p) => `
        diffs = [a - b for a, b in zip(nums, nums[${p.k}:])]
        return max(diffs) if diffs else ${p.d}`,
    },
    {
      kind: 'wrong-initial-value',
      body: (p) => `
        best = ${p.d === 0 ? -1 : 0}
        for i in range(len(nums) - ${p.k}):
            best = max(best, abs(nums[i + ${p.k}] - nums[i]))
        return best`,
    },
  ],
});

export const secondLargest = defineFamily<[nums: number[]]>()({
  name: 'second_largest',
  category: 'lists',
  names: [
    'second_largest',
    'runner_up',
    'second_best',
    'next_largest',
    'second_max',
    'second_place',
    'silver_value',
    'pick_second',
  ],
  params: (r) => ({ which: r.pick(['largest', 'smallest'] as const), d: r.pick(['None', '-1', '0']) }),
  sig: (p) => `(nums: list[int]) -> ${p.d === 'None' ? 'int | None' : 'int'}`,
  doc: (p) => `Return the second ${p.which} distinct value in nums, or ${p.d} if there is none.`,
  examples: () => [[[4, 1, 7, 7, 3]]],
  edge: () => [[[]], [[5]], [[5, 5]], [[5, 5, 3]], [[3, 5, 5]], [[-2, -7]], [[1, 2]], [[2, 1, 1]], [[0, 9, 9, 0]]],
  random: (_p, r) => [list(r, -8, 8, 7)],
  ref: (p, nums) => {
    const s = [...new Set(nums)].sort((a, b) => (p.which === 'largest' ? b - a : a - b));
    return s.length < 2 ? (p.d === 'None' ? null : Number(p.d)) : s[1];
  },
  styles: [
    (p) => `
      values = sorted(set(nums)${p.which === 'largest' ? ', reverse=True' : ''})
      if len(values) < 2:
          return ${p.d}
      return values[1]`,
    (p) => `
      values = set(nums)
      if len(values) < 2:
          return ${p.d}
      values.remove(${p.which === 'largest' ? 'max' : 'min'}(values))
      return ${p.which === 'largest' ? 'max' : 'min'}(values)`,
  ],
  mutants: [
    {
      kind: 'duplicates',
      body: (p) => `
        values = sorted(nums${p.which === 'largest' ? ', reverse=True' : ''})
        if len(values) < 2:
            return ${p.d}
        return values[1]`,
    },
    {
      kind: 'missed-edge-case',
      body: (p) => `
        values = sorted(set(nums)${p.which === 'largest' ? ', reverse=True' : ''})
        if not values:
            return ${p.d}
        return values[1] if len(values) > 1 else values[0]`,
    },
    {
      kind: 'off-by-one',
      body: (p) => `
        values = sorted(set(nums)${p.which === 'largest' ? ', reverse=True' : ''})
        if len(values) < 2:
            return ${p.d}
        return values[len(values) - 2]`,
    },
  ],
});

export const dedupeKeepOrder = defineFamily<[nums: number[]]>()({
  name: 'dedupe_keep_order',
  category: 'lists',
  names: [
    'dedupe',
    'unique_in_order',
    'remove_duplicates',
    'distinct_items',
    'first_occurrences',
    'keep_first_seen',
    'unique_values',
    'drop_repeats',
  ],
  params: (r) => ({ limit: r.pick([0, 3, 4, 5]) }),
  sig: () => '(nums: list[int]) -> list[int]',
  doc: (p) =>
    p.limit === 0
      ? 'Return nums without repeated values, keeping the first occurrence of each, in order.'
      : `Return the first ${p.limit} distinct values of nums, in order of first occurrence.`,
  examples: () => [[[3, 1, 3, 2, 1, 5, 6]]],
  edge: () => [
    [[]],
    [[7]],
    [[7, 7, 7]],
    [[1, 2, 1, 2]],
    [[4, 3, 2, 1]],
    [[-1, 1, -1, 0, 5, 6, 5]],
    [[2, 2, 3, 3, 4, 4, 5, 5, 6]],
  ],
  random: (_p, r) => [list(r, -4, 6, 10)],
  ref: (p, nums) => {
    const out = [...new Set(nums)];
    return p.limit === 0 ? out : out.slice(0, p.limit);
  },
  styles: [
    (p) => `
      seen = set()
      out = []
      for x in nums:
          if x not in seen:
              seen.add(x)
              out.append(x)
      return out${p.limit ? `[:${p.limit}]` : ''}`,
    (p) => `return list(dict.fromkeys(nums))${p.limit ? `[:${p.limit}]` : ''}`,
  ],
  mutants: [
    { kind: 'duplicates', body: (p) => `return sorted(set(nums))${p.limit ? `[:${p.limit}]` : ''}` },
    {
      kind: 'duplicates',
      body: (p) => `
        out = []
        for i, x in enumerate(nums):
            if i == 0 or x != nums[i - 1]:
                out.append(x)
        return out${p.limit ? `[:${p.limit}]` : ''}`,
    },
    {
      kind: 'off-by-one',
      body: (p) => `
        seen = set()
        out = []
        for x in nums:
            if x not in seen:
                seen.add(x)
                out.append(x)
        return out${p.limit ? `[:${p.limit - 1}]` : '[1:]'}`,
    },
  ],
});
