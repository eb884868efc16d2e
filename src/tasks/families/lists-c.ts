// List families, part three: alternating sums and clamping.
import { defineFamily } from '../family';
import type { Rng } from '../rng';

const list = (r: Rng, lo = -9, hi = 9, max = 8): number[] => r.ints(r.int(0, max), lo, hi);

export const alternatingSum = defineFamily<[nums: number[]]>()({
  name: 'alternating_sum',
  category: 'lists',
  names: ['alternating_sum', 'alt_sum', 'plus_minus_sum', 'signed_sum', 'zigzag_sum', 'seesaw_total'],
  params: (r) => ({ first: r.pick(['+', '-'] as const), step: r.pick([2, 2, 3, 4]) }),
  sig: () => '(nums: list[int]) -> int',
  doc: (p) =>
    p.step === 2
      ? `Return nums[0] - nums[1] + nums[2] - nums[3] + ...${p.first === '-' ? ', negated' : ''} (0 for an empty list).`
      : `Add every ${p.step === 3 ? 'third' : 'fourth'} number starting at index 0 and subtract all the others${p.first === '-' ? ', then negate the result' : ''}.`,
  examples: () => [[[5, 2, 4, 1]]],
  edge: () => [[[]], [[7]], [[-3]], [[1, 1]], [[4, -4, 4]], [[2, 2, 2, 2, 2]], [[0, 9, 0, 9, 0, 9, 1]]],
  random: (_p, r) => [list(r, -9, 9, 9)],
  ref: (p, nums) => {
    const s = nums.reduce((a, x, i) => a + (i % p.step === 0 ? x : -x), 0);
    return p.first === '-' ? -s : s;
  },
  styles: [
    (p) => `
      total = 0
      for i, x in enumerate(nums):
          if i % ${p.step} == 0:
              total += x
          else:
              total -= x
      return ${p.first === '-' ? '-total' : 'total'}`,
    (p) => `return ${p.first === '-' ? '-' : ''}sum(x if i % ${p.step} == 0 else -x for i, x in enumerate(nums))`,
  ],
  mutants: [
    {
      kind: 'off-by-one',
      body: (p) =>
        `return ${p.first === '-' ? '-' : ''}sum(x if i % ${p.step} == 1 else -x for i, x in enumerate(nums))`,
    },
    {
      kind: 'wrong-initial-value',
      body: (p) =>
        `return ${p.first === '-' ? '-' : ''}sum((x if i % ${p.step} == 0 else -x for i, x in enumerate(nums)), nums[-1] if nums else 0)`,
    },
    {
      kind: 'missed-edge-case',
      body: (p) =>
        `return ${p.first === '-' ? '-' : ''}sum(abs(x) if i % ${p.step} == 0 else -abs(x) for i, x in enumerate(nums))`,
    },
  ],
});

export const clampValues = defineFamily<[nums: number[]]>()({
  name: 'clamp_values',
  category: 'lists',
  names: ['clamp_values', 'clip_all', 'bound_values', 'limit_range'],
  params: (r) => {
    const lo = r.int(-6, 4);
    return { lo, hi: lo + r.int(1, 8) };
  },
  sig: () => '(nums: list[int]) -> list[int]',
  doc: (p) =>
    `Return nums with every value below ${p.lo} replaced by ${p.lo} and every value above ${p.hi} replaced by ${p.hi}.`,
  examples: (p) => [[[p.lo - 2, p.lo + 1, p.hi + 5]]],
  edge: (p) => [
    [[]],
    [[p.lo]],
    [[p.hi]],
    [[p.lo - 1, p.hi + 1]],
    [[p.hi + 1, p.hi + 1]],
    [[p.lo - 9]],
    [[p.lo, p.hi, p.lo + 1]],
  ],
  random: (p, r) => [list(r, p.lo - 5, p.hi + 5, 8)],
  ref: (p, nums) => nums.map((x) => Math.min(p.hi, Math.max(p.lo, x))),
  styles: [
    (p) => `return [min(${p.hi}, max(${p.lo}, x)) for x in nums]`,
    (p) => `
      out = []
      for x in nums:
          if x < ${p.lo}:
              x = ${p.lo}
          elif x > ${p.hi}:
              x = ${p.hi}
          out.append(x)
      return out`,
  ],
  mutants: [
    {
      kind: 'wrong-comparison',
      body: (p) => `return [min(${p.hi}, max(${p.lo}, x)) if x >= ${p.lo} else ${p.lo + 1} for x in nums]`,
    },
    { kind: 'missed-edge-case', body: (p) => `return [max(${p.lo}, x) for x in nums]` },
    { kind: 'off-by-one', body: (p) => `return [min(${p.hi - 1}, max(${p.lo}, x)) for x in nums]` },
  ],
});
