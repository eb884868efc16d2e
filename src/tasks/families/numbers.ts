// Number families: digits, primes, gcd, labels, Collatz steps, reversals, multiples, powers, sequences.
import { defineFamily } from '../family';

/** Python's floor division and modulo (JS rounds toward zero). */
const fdiv = (a: number, b: number): number => Math.floor(a / b);

export const digitSum = defineFamily({
  name: 'digit_sum',
  category: 'numbers',
  names: ['digit_sum', 'sum_digits', 'add_digits', 'digits_total', 'cross_sum'],
  params: (r) => ({ which: r.pick(['all', 'even', 'odd', 'all'] as const), mult: r.int(1, 4) }),
  sig: () => '(n: int) -> int',
  doc: (p) =>
    `Return ${p.mult > 1 ? `${p.mult} times ` : ''}the sum of the ${p.which === 'all' ? '' : `${p.which} `}digits of n. n may be negative; its sign is ignored.`,
  examples: () => [[1234], [-56]],
  edge: () => [[0], [7], [-7], [10], [-91], [100], [999], [-1234], [2468], [13579]].map((a) => [a[0]]),
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
    (p) => `return ${p.mult > 1 ? `${p.mult} * ` : ''}sum(int(c) for c in str(abs(n))${p.which === 'all' ? '' : ` if int(c) % 2 == ${p.which === 'even' ? 0 : 1}`})`,
  ],
  mutants: [
    { kind: 'missed-edge-case', body: (p) => `return ${p.mult > 1 ? `${p.mult} * ` : ''}sum(int(c) for c in str(n) if c != '-'${p.which === 'all' ? '' : ` and int(c) % 2 == ${p.which === 'even' ? 0 : 1}`}) if n >= 0 else 0` },
    { kind: 'off-by-one', body: (p) => `return ${p.mult > 1 ? `${p.mult} * ` : ''}sum(int(c) for c in str(abs(n))[1:]${p.which === 'all' ? '' : ` if int(c) % 2 == ${p.which === 'even' ? 0 : 1}`})` },
    { kind: 'duplicates', body: (p) => `return ${p.mult > 1 ? `${p.mult} * ` : ''}sum(int(c) for c in set(str(abs(n)))${p.which === 'all' ? '' : ` if int(c) % 2 == ${p.which === 'even' ? 0 : 1}`})` },
  ],
});

export const isPrime = defineFamily({
  name: 'is_prime',
  category: 'numbers',
  names: ['is_prime', 'prime_check', 'check_prime', 'is_prime_number', 'prime'],
  params: (r) => ({ offset: r.pick([0, 0, 1, 2, -1]) }),
  sig: () => '(n: int) -> bool',
  doc: (p) => (p.offset === 0 ? 'Return True if n is a prime number.' : `Return True if n ${p.offset > 0 ? '+' : '-'} ${Math.abs(p.offset)} is a prime number.`),
  examples: (p) => [[7 - p.offset], [9 - p.offset]],
  edge: (p) => [-3, 0, 1, 2, 3, 4, 9, 25, 49, 97, 121, 2 - p.offset, 4 - p.offset, 25 - p.offset].map((x) => [x]),
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

export const gcdOf = defineFamily({
  name: 'gcd_of',
  category: 'numbers',
  names: ['gcd', 'greatest_common_divisor', 'common_divisor', 'hcf'],
  params: (r) => ({ scale: r.int(1, 6) }),
  sig: () => '(a: int, b: int) -> int',
  doc: (p) => `Return ${p.scale > 1 ? `${p.scale} times ` : ''}the greatest common divisor of a and b (both are non-negative; gcd(0, 0) is 0).`,
  examples: () => [[12, 18], [7, 0]],
  edge: () => [[0, 0], [0, 5], [5, 0], [1, 1], [6, 6], [4, 6], [9, 28], [100, 75], [17, 51], [13, 7]],
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

export const fizzLabel = defineFamily({
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
  edge: (p) => [0, 1, p.a, p.b, p.a * p.b, 2 * p.a * p.b, p.a * p.b - 1, -p.a, -p.b, p.a + 1].map((x) => [x]),
  random: (_p, r) => [r.int(-10, 80)],
  ref: (p, n) => (n % p.a === 0 && n % p.b === 0 ? p.wa + p.wb : n % p.a === 0 ? p.wa : n % p.b === 0 ? p.wb : String(n)),
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

export const collatzSteps = defineFamily({
  name: 'collatz_steps',
  category: 'numbers',
  names: ['collatz_steps', 'steps_down', 'hailstone_steps', 'count_steps'],
  params: (r) => ({ t: r.int(1, 12) }),
  sig: () => '(n: int) -> int',
  doc: (p) => `Starting from n (n >= 1), repeatedly halve n if it is even, otherwise replace it by 3 * n + 1.\nReturn how many steps it takes until n is at most ${p.t}.`,
  examples: (p) => [[p.t + 5]],
  edge: (p) => [1, p.t, p.t + 1, p.t + 2, 2 * p.t + 2, 27, 7, 16, 3].map((x) => [x]),
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

export const reverseInteger = defineFamily({
  name: 'reverse_integer',
  category: 'numbers',
  names: ['reverse_integer', 'reverse_digits', 'flip_number', 'mirror_number', 'backwards_number'],
  params: (r) => ({ add: r.int(0, 9) }),
  sig: () => '(n: int) -> int',
  doc: (p) => `Return n with its digits reversed, keeping the sign (reversing 120 gives 21)${p.add ? `, plus ${p.add}` : ''}.`,
  examples: () => [[123], [-45]],
  edge: () => [0, 5, -5, 10, 120, -120, 1001, -90, 11, 1234].map((x) => [x]),
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

export const sumOfMultiples = defineFamily({
  name: 'sum_of_multiples',
  category: 'numbers',
  names: ['sum_of_multiples', 'multiples_total', 'add_multiples_up_to', 'sum_multiples_below'],
  params: (r) => ({ k: r.int(2, 12), inclusive: r.bool() }),
  sig: () => '(n: int) -> int',
  doc: (p) => `Return the sum of all positive multiples of ${p.k} that are ${p.inclusive ? 'at most' : 'less than'} n.`,
  examples: (p) => [[3 * p.k + 1]],
  edge: (p) => [-p.k, 0, 1, p.k - 1, p.k, p.k + 1, 2 * p.k, 5 * p.k, 3 * p.k - 1].map((x) => [x]),
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
    { kind: 'wrong-initial-value', body: (p) => `return sum(range(0, n${p.inclusive ? ' + 1' : ''}, ${p.k})) + (${p.k} if n > ${p.k} * 2 else 0)` },
    { kind: 'off-by-one', body: (p) => `return sum(range(${2 * p.k}, n${p.inclusive ? ' + 1' : ''}, ${p.k}))` },
  ],
});

export const isPowerOf = defineFamily({
  name: 'is_power_of',
  category: 'numbers',
  names: ['is_power_of', 'power_check', 'is_exact_power', 'check_power'],
  params: (r) => ({ k: r.int(2, 9) }),
  sig: () => '(n: int) -> bool',
  doc: (p) => `Return True if n is a power of ${p.k} (${p.k} ** e for some integer e >= 0).`,
  examples: (p) => [[p.k * p.k], [p.k + 1]],
  edge: (p) => [0, 1, -p.k, p.k, p.k * p.k, p.k ** 3, p.k + 1, 2 * p.k, p.k ** 2 + p.k, p.k ** 4].map((x) => [x]),
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

export const sequenceTerm = defineFamily({
  name: 'sequence_term',
  category: 'numbers',
  names: ['sequence_term', 'nth_term', 'fib_like', 'series_value'],
  params: (r) => ({ a: r.int(0, 5), b: r.int(1, 6) }),
  sig: () => '(n: int) -> int',
  doc: (p) => `A sequence starts ${p.a}, ${p.b}, and each later term is the sum of the two before it.\nReturn the term at index n (index 0 is ${p.a}).`,
  examples: () => [[0], [4]],
  edge: () => [0, 1, 2, 3, 10, 20].map((x) => [x]),
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
