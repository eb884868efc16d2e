// Number families, part one: digit sums, primes, gcd, divisibility labels.
import { defineFamily, one } from '../family';

export const digitSum = defineFamily<[n: number]>()({
  name: 'digit_sum',
  category: 'numbers',
  names: ['digit_sum', 'sum_digits', 'add_digits', 'digits_total', 'cross_sum'],
  params: (r) => ({ which: r.pick(['all', 'even', 'odd', 'all'] as const), mult: r.int(1, 4) }),
  sig: () => '(n: int) -> int',
  doc: (p) =>
    `Return ${p.mult > 1 ? `${p.mult} times ` : ''}the sum of the ${p.which === 'all' ? '' : `${p.which} `}digits of n. n may be negative; its sign is ignored.`,
  examples: () => [[1234], [-56]],
  edge: () => one([0, 7, -7, 10, -91, 100, 999, -1234, 2468, 13579]),
  random: (_p, r) => [r.int(-99999, 99999)],
  ref: (p, n) =>
    p.mult *
    [...String(Math.abs(n))]
      .map(Number)
      .filter((d) => p.which === 'all' || (p.which === 'even') === (d % 2 === 0))
      .reduce((a, b) => a + b, 0),
  styles: [
    (p) => `
      n = abs(n)
      total = 0
      while n > 0:
          d = n % 10
          ${p.which === 'all' ? 'total += d' : `if d % 2 == ${p.which === 'even' ? 0 : 1}:\n              total += d`}
          n //= 10
      return ${p.mult > 1 ? `${p.mult} * total` : 'total'}`,
    (p) =>
      `return ${p.mult > 1 ? `${p.mult} * ` : ''}sum(int(c) for c in str(abs(n))${p.which === 'all' ? '' : ` if int(c) % 2 == ${p.which === 'even' ? 0 : 1}`})`,
  ],
  mutants: [
    {
      kind: 'missed-edge-case',
      body: (p) =>
        `return ${p.mult > 1 ? `${p.mult} * ` : ''}sum(int(c) for c in str(n) if c != '-'${p.which === 'all' ? '' : ` and int(c) % 2 == ${p.which === 'even' ? 0 : 1}`}) if n >= 0 else 0`,
    },
    {
      kind: 'off-by-one',
      body: (p) =>
        `return ${p.mult > 1 ? `${p.mult} * ` : ''}sum(int(c) for c in str(abs(n))[1:]${p.which === 'all' ? '' : ` if int(c) % 2 == ${p.which === 'even' ? 0 : 1}`})`,
    },
    {
      kind: 'duplicates',
      body: (p) =>
        `return ${p.mult > 1 ? `${p.mult} * ` : ''}sum(int(c) for c in set(str(abs(n)))${p.which === 'all' ? '' : ` if int(c) % 2 == ${p.which === 'even' ? 0 : 1}`})`,
    },
  ],
});

export const isPrime = defineFamily<[n: number]>()({
  name: 'is_prime',
  category: 'numbers',
  names: ['is_prime', 'prime_check', 'check_prime', 'is_prime_number', 'prime', 'is_prime_after_shift', 'test_prime'],
  params: (r) => ({ offset: r.pick([0, 0, 1, 2, -1]) }),
  sig: () => '(n: int) -> bool',
  doc: (p) =>
    p.offset === 0
      ? 'Return True if n is a prime number.'
      : `Return True if n ${p.offset > 0 ? '+' : '-'} ${Math.abs(p.offset)} is a prime number.`,
  examples: (p) => [[7 - p.offset], [9 - p.offset]],
  edge: (p) => one([-3, 0, 1, 2, 3, 4, 9, 25, 49, 97, 121, 2 - p.offset, 4 - p.offset, 25 - p.offset]),
  random: (_p, r) => [r.int(-2, 120)],
  ref: (p, n) => {
    const m = n + p.offset;
    if (m < 2) return false;
    for (let d = 2; d * d <= m; d++) if (m % d === 0) return false;
    return true;
  },
  styles: [
    (p) => `
      ${p.offset === 0 ? '' : `n = n ${p.offset > 0 ? '+' : '-'} ${Math.abs(p.offset)}`}
      if n < 2:
          return False
      d = 2
      while d * d <= n:
          if n % d == 0:
              return False
          d += 1
      return True`,
    (p) => `
      ${p.offset === 0 ? '' : `n = n ${p.offset > 0 ? '+' : '-'} ${Math.abs(p.offset)}`}
      return n > 1 and all(n % d for d in range(2, int(n ** 0.5) + 1))`,
  ],
  mutants: [
    {
      kind: 'off-by-one',
      body: (p) => `
        ${p.offset === 0 ? '' : `n = n ${p.offset > 0 ? '+' : '-'} ${Math.abs(p.offset)}`}
        return n > 1 and all(n % d for d in range(2, int(n ** 0.5)))`,
    },
    {
      kind: 'missed-edge-case',
      body: (p) => `
        ${p.offset === 0 ? '' : `n = n ${p.offset > 0 ? '+' : '-'} ${Math.abs(p.offset)}`}
        return all(n % d for d in range(2, int(abs(n) ** 0.5) + 1))`,
    },
    {
      kind: 'wrong-comparison',
      body: (p) => `
        ${p.offset === 0 ? '' : `n = n ${p.offset > 0 ? '+' : '-'} ${Math.abs(p.offset)}`}
        return n > 2 and all(n % d for d in range(2, int(n ** 0.5) + 1))`,
    },
  ],
});

export const gcdOf = defineFamily<[a: number, b: number]>()({
  name: 'gcd_of',
  category: 'numbers',
  names: ['gcd', 'greatest_common_divisor', 'common_divisor', 'hcf', 'largest_divisor', 'shared_divisor'],
  params: (r) => ({ scale: r.int(1, 6) }),
  sig: () => '(a: int, b: int) -> int',
  doc: (p) =>
    `Return ${p.scale > 1 ? `${p.scale} times ` : ''}the greatest common divisor of a and b (both are non-negative; gcd(0, 0) is 0).`,
  examples: () => [
    [12, 18],
    [7, 0],
  ],
  edge: () => [
    [0, 0],
    [0, 5],
    [5, 0],
    [1, 1],
    [6, 6],
    [4, 6],
    [9, 28],
    [100, 75],
    [17, 51],
    [13, 7],
  ],
  random: (_p, r) => {
    const g = r.int(1, 9);
    return [g * r.int(0, 15), g * r.int(0, 15)];
  },
  ref: (p, a, b) => {
    let [x, y] = [a, b];
    while (y) [x, y] = [y, x % y];
    return p.scale * x;
  },
  styles: [
    (p) => `
      while b:
          a, b = b, a % b
      return ${p.scale > 1 ? `${p.scale} * a` : 'a'}`,
    (p) => `
      best = 0
      for d in range(1, max(a, b) + 1):
          if a % d == 0 and b % d == 0:
              best = d
      return ${p.scale > 1 ? `${p.scale} * best` : 'best'}`,
  ],
  mutants: [
    {
      kind: 'off-by-one',
      body: (p) => `
        best = 0
        for d in range(1, max(a, b)):
            if a % d == 0 and b % d == 0:
                best = d
        return ${p.scale > 1 ? `${p.scale} * best` : 'best'}`,
    },
    {
      kind: 'missed-edge-case',
      body: (p) => `
        best = 1
        for d in range(1, min(a, b) + 1):
            if a % d == 0 and b % d == 0:
                best = d
        return ${p.scale > 1 ? `${p.scale} * best` : 'best'}`,
    },
    {
      kind: 'wrong-comparison',
      body: (p) => `
        while b > 1:
            a, b = b, a % b
        return ${p.scale > 1 ? `${p.scale} * a` : 'a'}`,
    },
  ],
});

const WORDS = ['Fizz', 'Buzz', 'Bang', 'Pop', 'Zap', 'Boom'];

export const fizzLabel = defineFamily<[n: number]>()({
  name: 'fizz_label',
  category: 'numbers',
  names: ['fizz_label', 'fizzbuzz', 'label', 'say_number', 'game_word'],
  params: (r) => {
    const a = r.int(2, 7);
    let b = r.int(2, 7);
    while (b === a || b % a === 0 || a % b === 0) b = r.int(2, 9);
    const [wa, wb] = r.shuffle(WORDS).slice(0, 2);
    return { a, b, wa, wb };
  },
  sig: () => '(n: int) -> str',
  doc: (p) =>
    `Return '${p.wa}${p.wb}' if n is divisible by both ${p.a} and ${p.b}, '${p.wa}' if only by ${p.a},\n'${p.wb}' if only by ${p.b}, and otherwise n as a string.`,
  examples: (p) => [[p.a], [p.a * p.b + 1]],
  edge: (p) => one([0, 1, p.a, p.b, p.a * p.b, 2 * p.a * p.b, p.a * p.b - 1, -p.a, -p.b, p.a + 1]),
  random: (_p, r) => [r.int(-10, 80)],
  ref: (p, n) =>
    n % p.a === 0 && n % p.b === 0 ? p.wa + p.wb : n % p.a === 0 ? p.wa : n % p.b === 0 ? p.wb : String(n),
  styles: [
    (p) => `
      if n % ${p.a} == 0 and n % ${p.b} == 0:
          return '${p.wa}${p.wb}'
      if n % ${p.a} == 0:
          return '${p.wa}'
      if n % ${p.b} == 0:
          return '${p.wb}'
      return str(n)`,
    (p) => `
      out = ''
      if n % ${p.a} == 0:
          out += '${p.wa}'
      if n % ${p.b} == 0:
          out += '${p.wb}'
      return out or str(n)`,
  ],
  mutants: [
    {
      kind: 'missed-edge-case',
      body: (p) => `
        if n % ${p.a} == 0:
            return '${p.wa}'
        if n % ${p.b} == 0:
            return '${p.wb}'
        if n % ${p.a} == 0 and n % ${p.b} == 0:
            return '${p.wa}${p.wb}'
        return str(n)`,
    },
    {
      kind: 'wrong-comparison',
      body: (p) => `
        out = ''
        if n % ${p.a} == 0:
            out += '${p.wa}'
        if n % ${p.b} == 0 and n > 0:
            out += '${p.wb}'
        return out or str(n)`,
    },
    {
      kind: 'wrong-initial-value',
      body: (p) => `
        out = str(n)
        if n % ${p.a} == 0:
            out = '${p.wa}'
        if n % ${p.b} == 0:
            out = '${p.wb}'
        return out`,
    },
  ],
});
