// Number families, part two: Collatz steps, reversals, multiples, powers, sequences.
import { defineFamily, one } from '../family';

export const collatzSteps = defineFamily<[n: number]>()({
  name: 'collatz_steps',
  category: 'numbers',
  names: ['collatz_steps', 'steps_down', 'hailstone_steps', 'count_steps', 'hailstone', 'collatz_count'],
  params: (r) => ({ t: r.int(1, 12) }),
  sig: () => '(n: int) -> int',
  doc: (p) =>
    `Starting from n (n >= 1), repeatedly halve n if it is even, otherwise replace it by 3 * n + 1.\nReturn how many steps it takes until n is at most ${p.t}.`,
  examples: (p) => [[p.t + 5]],
  edge: (p) => one([1, p.t, p.t + 1, p.t + 2, 2 * p.t + 2, 27, 7, 16, 3]),
  random: (_p, r) => [r.int(1, 60)],
  ref: (p, n) => {
    let steps = 0;
    while (n > p.t) {
      n = n % 2 === 0 ? n / 2 : 3 * n + 1;
      steps++;
    }
    return steps;
  },
  styles: [
    (p) => `
      steps = 0
      while n > ${p.t}:
          n = n // 2 if n % 2 == 0 else 3 * n + 1
          steps += 1
      return steps`,
    (p, fn) => `
      if n <= ${p.t}:
          return 0
      return 1 + ${fn}(n // 2 if n % 2 == 0 else 3 * n + 1)`,
  ],
  mutants: [
    {
      kind: 'wrong-comparison',
      body: (p) => `
        steps = 0
        while n > ${p.t + 1}:
            n = n // 2 if n % 2 == 0 else 3 * n + 1
            steps += 1
        return steps`,
    },
    {
      kind: 'missed-edge-case',
      body: (p) => `
        steps = 0
        while True:
            n = n // 2 if n % 2 == 0 else 3 * n + 1
            steps += 1
            if n <= ${p.t}:
                return steps`,
    },
    {
      kind: 'off-by-one',
      body: (p) => `
        steps = 0
        while n > ${p.t}:
            n = n // 2 if n % 2 == 0 else 3 * n + 1
            steps += 1
        return steps + (1 if steps > 2 else 0)`,
    },
  ],
});

export const reverseInteger = defineFamily<[n: number]>()({
  name: 'reverse_integer',
  category: 'numbers',
  names: ['reverse_integer', 'reverse_digits', 'flip_number', 'mirror_number', 'backwards_number'],
  params: (r) => ({ add: r.int(0, 9) }),
  sig: () => '(n: int) -> int',
  doc: (p) =>
    `Return n with its digits reversed, keeping the sign (reversing 120 gives 21)${p.add ? `, plus ${p.add}` : ''}.`,
  examples: () => [[123], [-45]],
  edge: () => one([0, 5, -5, 10, 120, -120, 1001, -90, 11, 1234]),
  random: (_p, r) => [r.int(-9999, 9999)],
  ref: (p, n) => Math.sign(n) * Number([...String(Math.abs(n))].reverse().join('')) + p.add,
  styles: [
    (p) => `
      sign = -1 if n < 0 else 1
      return sign * int(str(abs(n))[::-1])${p.add ? ` + ${p.add}` : ''}`,
    (p) => `
      m = abs(n)
      out = 0
      while m > 0:
          out = out * 10 + m % 10
          m //= 10
      return (-out if n < 0 else out)${p.add ? ` + ${p.add}` : ''}`,
  ],
  mutants: [
    { kind: 'missed-edge-case', body: (p) => `return int(str(abs(n))[::-1])${p.add ? ` + ${p.add}` : ''}` },
    {
      kind: 'missed-edge-case',
      body: (p) => `
        digits = str(abs(n))[::-1].lstrip('0')
        return int(('-' if n < 0 else '') + digits)${p.add ? ` + ${p.add}` : ''}`,
    },
    {
      kind: 'off-by-one',
      body: (p) => `
        sign = -1 if n < 0 else 1
        s = str(abs(n))
        return sign * int(s[0] + s[:0:-1]) if len(s) > 2 else sign * int(s[::-1])${p.add ? ` + ${p.add}` : ''}`,
    },
  ],
});

export const sumOfMultiples = defineFamily<[n: number]>()({
  name: 'sum_of_multiples',
  category: 'numbers',
  names: ['sum_of_multiples', 'multiples_total', 'add_multiples_up_to', 'sum_multiples_below'],
  params: (r) => ({ k: r.int(2, 12), inclusive: r.bool() }),
  variants: (r) => ({ k: r.int(13, 25), inclusive: r.bool() }),
  sig: () => '(n: int) -> int',
  doc: (p) => `Return the sum of all positive multiples of ${p.k} that are ${p.inclusive ? 'at most' : 'less than'} n.`,
  examples: (p) => [[3 * p.k + 1]],
  edge: (p) => one([-p.k, 0, 1, p.k - 1, p.k, p.k + 1, 2 * p.k, 5 * p.k, 3 * p.k - 1]),
  random: (p, r) => [r.int(0, 12 * p.k)],
  ref: (p, n) => {
    let s = 0;
    for (let m = p.k; p.inclusive ? m <= n : m < n; m += p.k) s += m;
    return s;
  },
  styles: [
    (p) => `return sum(range(${p.k}, n${p.inclusive ? ' + 1' : ''}, ${p.k}))`,
    (p) => `
      total = 0
      m = ${p.k}
      while m ${p.inclusive ? '<=' : '<'} n:
          total += m
          m += ${p.k}
      return total`,
  ],
  mutants: [
    { kind: 'wrong-comparison', body: (p) => `return sum(range(${p.k}, n${p.inclusive ? '' : ' + 1'}, ${p.k}))` },
    {
      kind: 'wrong-initial-value',
      body: (p) => `return sum(range(0, n${p.inclusive ? ' + 1' : ''}, ${p.k})) + (${p.k} if n > ${p.k} * 2 else 0)`,
    },
    { kind: 'off-by-one', body: (p) => `return sum(range(${2 * p.k}, n${p.inclusive ? ' + 1' : ''}, ${p.k}))` },
  ],
});

export const isPowerOf = defineFamily<[n: number]>()({
  name: 'is_power_of',
  category: 'numbers',
  names: ['is_power_of', 'power_check', 'is_exact_power', 'check_power', 'power_test', 'is_pure_power'],
  params: (r) => ({ k: r.int(2, 9) }),
  sig: () => '(n: int) -> bool',
  doc: (p) => `Return True if n is a power of ${p.k} (${p.k} ** e for some integer e >= 0).`,
  examples: (p) => [[p.k * p.k], [p.k + 1]],
  edge: (p) => one([0, 1, -p.k, p.k, p.k * p.k, p.k ** 3, p.k + 1, 2 * p.k, p.k ** 2 + p.k, p.k ** 4]),
  random: (p, r) => [r.bool(0.4) ? p.k ** r.int(0, 5) * r.pick([1, 1, 2, 3]) : r.int(-5, 200)],
  ref: (p, n) => {
    if (n < 1) return false;
    while (n % p.k === 0) n /= p.k;
    return n === 1;
  },
  styles: [
    (p) => `
      if n < 1:
          return False
      while n % ${p.k} == 0:
          n //= ${p.k}
      return n == 1`,
    (p) => `
      power = 1
      while power < n:
          power *= ${p.k}
      return power == n`,
  ],
  mutants: [
    {
      kind: 'missed-edge-case',
      body: (p) => `
        if n < ${p.k}:
            return False
        while n % ${p.k} == 0:
            n //= ${p.k}
        return n == 1`,
    },
    {
      kind: 'wrong-initial-value',
      body: (p) => `
        power = ${p.k}
        while power < n:
            power *= ${p.k}
        return power == n`,
    },
    {
      kind: 'wrong-comparison',
      body: (p) => `
        power = 1
        while power < n:
            power *= ${p.k}
        return power >= n and n > 0 and n % ${p.k} == 0`,
    },
  ],
});

export const sequenceTerm = defineFamily<[n: number]>()({
  name: 'sequence_term',
  category: 'numbers',
  names: ['sequence_term', 'nth_term', 'fib_like', 'series_value'],
  params: (r) => ({ a: r.int(0, 5), b: r.int(1, 6) }),
  sig: () => '(n: int) -> int',
  doc: (p) =>
    `A sequence starts ${p.a}, ${p.b}, and each later term is the sum of the two before it.\nReturn the term at index n (index 0 is ${p.a}).`,
  examples: () => [[0], [4]],
  edge: () => one([0, 1, 2, 3, 10, 20]),
  random: (_p, r) => [r.int(0, 25)],
  ref: (p, n) => {
    let [x, y] = [p.a, p.b];
    for (let i = 0; i < n; i++) [x, y] = [y, x + y];
    return x;
  },
  styles: [
    (p) => `
      a, b = ${p.a}, ${p.b}
      for _ in range(n):
          a, b = b, a + b
      return a`,
    (p) => `
      terms = [${p.a}, ${p.b}]
      while len(terms) <= n:
          terms.append(terms[-1] + terms[-2])
      return terms[n]`,
  ],
  mutants: [
    {
      kind: 'off-by-one',
      body: (p) => `
        a, b = ${p.a}, ${p.b}
        for _ in range(n - 1):
            a, b = b, a + b
        return a`,
    },
    {
      kind: 'wrong-initial-value',
      body: (p) => `
        a, b = ${p.a}, ${p.b + 1}
        for _ in range(n):
            a, b = b, a + b
        return a`,
    },
    {
      kind: 'missed-edge-case',
      body: (p) => `
        terms = [${p.a}, ${p.b}]
        while len(terms) < n:
            terms.append(terms[-1] + terms[-2])
        return terms[-1]`,
    },
  ],
});
