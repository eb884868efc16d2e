// String families, part two: first unique character, longest word, word counts, anagrams, acronyms, run-length codes.
import { defineFamily, edited, one } from '../family';
import type { Rng } from '../rng';

const text = (r: Rng, alphabet: string, max = 10): string => r.word(r.int(0, max), alphabet);
const sentence = (r: Rng, maxWords = 5, alphabet = 'abcde'): string =>
  Array.from({ length: r.int(0, maxWords) }, () => r.word(r.int(1, 6), alphabet)).join(r.pick([' ', ' ', '  ']));

export const firstUniqueIndex = defineFamily<[s: string]>()({
  name: 'first_unique_index',
  category: 'strings',
  names: [
    'first_unique_index',
    'first_single',
    'first_nonrepeating',
    'unique_char_pos',
    'first_lonely',
    'first_distinct_char',
  ],
  params: (r) => ({ d: r.pick([-1, -1, null]) }),
  sig: (p) => `(s: str) -> ${p.d === null ? 'int | None' : 'int'}`,
  doc: (p) =>
    `Return the index of the first character that appears exactly once in s, or ${p.d === null ? 'None' : p.d} if there is none.`,
  examples: () => [['aabcb']],
  edge: () => one(['', 'a', 'aa', 'ab', 'aba', 'abab', 'aabb', 'abcab', 'xx y', 'abba c']),
  random: (_p, r) => [text(r, 'aabbcd', 8)],
  ref: (p, s) => {
    for (let i = 0; i < s.length; i++) if (s.indexOf(s[i]) === s.lastIndexOf(s[i])) return i;
    return p.d;
  },
  styles: [
    (p) => `
      for i, c in enumerate(s):
          if s.count(c) == 1:
              return i
      return ${p.d ?? 'None'}`,
    (p) => `
      counts = {}
      for c in s:
          counts[c] = counts.get(c, 0) + 1
      for i, c in enumerate(s):
          if counts[c] == 1:
              return i
      return ${p.d ?? 'None'}`,
  ],
  mutants: [
    {
      kind: 'duplicates',
      body: (p) => `
        for i, c in enumerate(s):
            if c not in s[i + 1:]:
                return i
        return ${p.d ?? 'None'}`,
    },
    {
      kind: 'off-by-one',
      body: (p) => `
        for i in range(len(s) - 1):
            if s.count(s[i]) == 1:
                return i
        return ${p.d ?? 'None'}`,
    },
    {
      kind: 'wrong-comparison',
      body: (p) => `
        for i, c in enumerate(s):
            if s.count(c) <= 2:
                return i
        return ${p.d ?? 'None'}`,
    },
  ],
});

const longestWordLoop = (p: { tie: 'first' | 'last' }) => `
      best = ''
      for w in s.split():
          if len(w) ${p.tie === 'first' ? '>' : '>='} len(best):
              best = w
      return best`;

export const longestWord = defineFamily<[s: string]>()({
  name: 'longest_word',
  category: 'strings',
  names: [
    'longest_word',
    'biggest_word',
    'longest_token',
    'widest_word',
    'max_word',
    'longest_term',
    'pick_longest',
    'find_longest',
  ],
  params: (r) => ({ tie: r.pick(['first', 'last'] as const) }),
  sig: () => '(s: str) -> str',
  doc: (p) =>
    `Return the longest word in s (words are separated by spaces). On a tie return the ${p.tie} one; return '' if there are no words.`,
  examples: () => [['hi there you']],
  edge: () => one(['', 'a', 'ab cd', 'a bb', 'bb a', 'x  yy', 'abc de fgh', '  ', 'one three five']),
  random: (_p, r) => [sentence(r)],
  ref: (p, s) => {
    let best = '';
    for (const w of s.split(' ').filter((x) => x))
      if (p.tie === 'first' ? w.length > best.length : w.length >= best.length) best = w;
    return best;
  },
  styles: [
    longestWordLoop,
    (p) =>
      p.tie === 'first'
        ? `
      words = s.split()
      return max(words, key=len) if words else ''`
        : `
      words = s.split()[::-1]
      return max(words, key=len) if words else ''`,
  ],
  mutants: [
    {
      kind: 'wrong-comparison',
      body: edited(longestWordLoop, (p) => (p.tie === 'first' ? ['> len', '>= len'] : ['>= len', '> len'])),
    },
    {
      kind: 'missed-edge-case',
      body: edited(longestWordLoop, [
        "best = ''\n      for w in s.split():",
        'words = s.split()\n      best = words[0]\n      for w in words[1:]:',
      ]),
    },
    {
      kind: 'off-by-one',
      body: edited(
        longestWordLoop,
        [
          "best = ''\n      for w in s.split():",
          "words = s.split()\n      best = ''\n      for i in range(1, len(words)):",
        ],
        ['len(w)', 'len(words[i])'],
        ['best = w', 'best = words[i]'],
      ),
    },
  ],
});

export const countLongWords = defineFamily<[s: string]>()({
  name: 'count_long_words',
  category: 'strings',
  names: ['count_long_words', 'long_word_count', 'count_big_words', 'num_long_words', 'count_words_at_least'],
  params: (r) => ({ k: r.int(2, 6), distinct: r.bool(0.3) }),
  sig: () => '(s: str) -> int',
  doc: (p) =>
    `Return how many ${p.distinct ? 'different ' : ''}words in s have at least ${p.k} letters (words are separated by spaces).`,
  examples: (p) => [[`${'a'.repeat(p.k)} b ${'c'.repeat(p.k + 1)}`]],
  edge: (p) =>
    one([
      '',
      'a'.repeat(p.k),
      'a'.repeat(p.k - 1),
      `${'a'.repeat(p.k)} ${'a'.repeat(p.k)}`,
      `${'b'.repeat(p.k + 1)}  ${'c'.repeat(p.k + 2)}`,
      `x ${'d'.repeat(p.k)}`,
      `${'e'.repeat(p.k)} y`,
      '   ',
    ]),
  random: (_p, r) => [sentence(r, 6, 'aab')],
  ref: (p, s) => {
    const ws = s.split(' ').filter((w) => w.length >= p.k);
    return p.distinct ? new Set(ws).size : ws.length;
  },
  styles: [
    (p) =>
      p.distinct
        ? `return len({w for w in s.split() if len(w) >= ${p.k}})`
        : `return sum(1 for w in s.split() if len(w) >= ${p.k})`,
    (p) => `
      ${p.distinct ? 'seen = set()' : 'count = 0'}
      for w in s.split():
          if len(w) >= ${p.k}:
              ${p.distinct ? 'seen.add(w)' : 'count += 1'}
      return ${p.distinct ? 'len(seen)' : 'count'}`,
  ],
  mutants: [
    {
      kind: 'wrong-comparison',
      body: (p) =>
        `return ${p.distinct ? 'len({w' : 'sum(1'} for w in s.split() if len(w) > ${p.k}${p.distinct ? '})' : ')'}`,
    },
    {
      kind: 'duplicates',
      body: (p) =>
        p.distinct
          ? `return sum(1 for w in s.split() if len(w) >= ${p.k})`
          : `return len({w for w in s.split() if len(w) >= ${p.k}})`,
    },
    {
      kind: 'off-by-one',
      body: (p) =>
        `return ${p.distinct ? 'len({w' : 'sum(1'} for w in s.split()[1:] if len(w) >= ${p.k}${p.distinct ? '})' : ')'}`,
    },
  ],
});

export const isAnagram = defineFamily<[a: string, b: string]>()({
  name: 'is_anagram',
  category: 'strings',
  names: ['is_anagram', 'same_letters', 'anagrams', 'is_rearrangement', 'is_permutation', 'letters_match'],
  params: (r) => ({ ci: r.bool() }),
  sig: () => '(a: str, b: str) -> bool',
  doc: (p) =>
    `Return True if b uses exactly the same letters as a, each the same number of times${p.ci ? ', ignoring case' : ''}.`,
  examples: () => [
    ['listen', 'silent'],
    ['aab', 'abb'],
  ],
  edge: () => [
    ['', ''],
    ['a', ''],
    ['a', 'a'],
    ['ab', 'ba'],
    ['aab', 'abb'],
    ['aa', 'a'],
    ['Ab', 'bA'],
    ['Ab', 'ba'],
    ['abc', 'abd'],
    ['aabb', 'abab'],
  ],
  random: (_p, r) => {
    const a = text(r, 'abcA', 6);
    return [a, r.bool(0.5) ? r.shuffle([...a]).join('') : text(r, 'abcA', 6)];
  },
  ref: (p, a, b) => {
    const norm = (s: string): string => [...(p.ci ? s.toLowerCase() : s)].sort().join('');
    return norm(a) === norm(b);
  },
  styles: [
    (p) => `return sorted(a${p.ci ? '.lower()' : ''}) == sorted(b${p.ci ? '.lower()' : ''})`,
    (p) => `
      counts = {}
      for c in a${p.ci ? '.lower()' : ''}:
          counts[c] = counts.get(c, 0) + 1
      for c in b${p.ci ? '.lower()' : ''}:
          counts[c] = counts.get(c, 0) - 1
      return all(v == 0 for v in counts.values())`,
  ],
  mutants: [
    { kind: 'duplicates', body: (p) => `return set(a${p.ci ? '.lower()' : ''}) == set(b${p.ci ? '.lower()' : ''})` },
    {
      kind: 'missed-edge-case',
      body: (p) => (p.ci ? 'return sorted(a) == sorted(b)' : 'return sorted(a.lower()) == sorted(b.lower())'),
    },
    {
      kind: 'other',
      body: (p) =>
        `return len(a) == len(b) and all(c in b${p.ci ? '.lower()' : ''} for c in a${p.ci ? '.lower()' : ''})`,
    },
  ],
});

export const acronym = defineFamily<[s: string]>()({
  name: 'acronym',
  category: 'strings',
  names: ['acronym', 'initials', 'first_letters', 'abbreviate', 'make_acronym', 'short_form', 'initial_letters'],
  params: (r) => ({ joiner: r.pick(['', '.', '-', ' ']), upper: r.bool(0.7) }),
  variants: (r) => ({ joiner: r.pick(['/', ':', '_', '|', '+', ', ', ';', '*']), upper: r.bool() }),
  sig: () => '(s: str) -> str',
  doc: (p) =>
    `Return the first letter of each word in s${p.upper ? ', upper-cased,' : ''} joined by '${p.joiner}'. Words are separated by spaces.`,
  examples: () => [['portable network graphics']],
  edge: () => one(['', 'a', 'hello', 'ab cd', 'x  y', ' lead', 'Mixed case Words', 'a a a']),
  random: (_p, r) => [sentence(r, 5, 'abcdeAB')],
  ref: (p, s) =>
    s
      .split(' ')
      .filter((w) => w)
      .map((w) => (p.upper ? w[0].toUpperCase() : w[0]))
      .join(p.joiner),
  styles: [
    (p) => `return '${p.joiner}'.join(w[0]${p.upper ? '.upper()' : ''} for w in s.split())`,
    (p) => `
      letters = []
      for word in s.split():
          letters.append(word[0]${p.upper ? '.upper()' : ''})
      return '${p.joiner}'.join(letters)`,
  ],
  mutants: [
    {
      kind: 'missed-edge-case',
      body: (p) => `return '${p.joiner}'.join(w[0]${p.upper ? '.upper()' : ''} for w in s.split(' '))`,
    },
    {
      kind: 'off-by-one',
      body: (p) => `return '${p.joiner}'.join(w[0]${p.upper ? '.upper()' : ''} for w in s.split()[1:])`,
    },
    {
      kind: 'duplicates',
      body: (p) => `return '${p.joiner}'.join(dict.fromkeys(w[0]${p.upper ? '.upper()' : ''} for w in s.split()))`,
    },
  ],
});

const rleCount = (p: { skipOne: boolean }) => `
      out = ''
      count = 0
      for i, c in enumerate(s):
          count += 1
          if i == len(s) - 1 or s[i + 1] != c:
              out += c + ${p.skipOne ? "(str(count) if count > 1 else '')" : 'str(count)'}
              count = 0
      return out`;

export const runLengthEncode = defineFamily<[s: string]>()({
  name: 'run_length_encode',
  category: 'strings',
  names: [
    'run_length_encode',
    'compress',
    'rle',
    'encode_runs',
    'squeeze_counts',
    'pack_runs',
    'shorten',
    'count_runs',
  ],
  params: (r) => ({ skipOne: r.bool() }),
  sig: () => '(s: str) -> str',
  doc: (p) =>
    p.skipOne
      ? "Replace each run of a repeated character by the character and the run length; runs of length 1 stay as the bare character.\nFor example 'aaab' becomes 'a3b'."
      : "Replace each run of a repeated character by the character and the run length.\nFor example 'aaab' becomes 'a3b1'.",
  examples: () => [['aabccc']],
  edge: () => one(['', 'a', 'aa', 'ab', 'aab', 'abb', 'abab', 'aaaaaaaaaaaa', 'aAa']),
  random: (_p, r) => [text(r, 'aabbc', 10)],
  ref: (p, s) => {
    let out = '';
    for (let i = 0; i < s.length;) {
      let j = i;
      while (j < s.length && s[j] === s[i]) j++;
      out += s[i] + (p.skipOne && j - i === 1 ? '' : String(j - i));
      i = j;
    }
    return out;
  },
  styles: [
    (p) => `
      out = ''
      i = 0
      while i < len(s):
          j = i
          while j < len(s) and s[j] == s[i]:
              j += 1
          out += s[i] + ${p.skipOne ? "(str(j - i) if j - i > 1 else '')" : 'str(j - i)'}
          i = j
      return out`,
    rleCount,
  ],
  mutants: [
    {
      kind: 'off-by-one',
      body: edited(
        rleCount,
        ['for i, c in enumerate(s):', 'for i in range(len(s) - 1):'],
        ['if i == len(s) - 1 or s[i + 1] != c:', 'if s[i + 1] != s[i]:'],
        ['out += c +', 'out += s[i] +'],
      ),
    },
    {
      kind: 'wrong-initial-value',
      body: edited(rleCount, ['count = 0', 'count = 1'], (p) =>
        p.skipOne
          ? ["(str(count) if count > 1 else '')", "(str(count - 1) if count > 2 else '')"]
          : ['str(count)', 'str(count - 1)'],
      ),
    },
    {
      kind: 'duplicates',
      body: (p) => `
        out = ''
        for c in dict.fromkeys(s):
            n = s.count(c)
            out += c + ${p.skipOne ? "(str(n) if n > 1 else '')" : 'str(n)'}
        return out`,
    },
  ],
});
