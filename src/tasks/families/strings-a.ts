// String families, part one: counting characters, reversing words, palindromes, character runs, removal, Caesar shifts.
import { defineFamily, edited, one } from '../family';
import type { Rng } from '../rng';

/** Words over a small alphabet so repeats and edge cases are common; optional capitals and spaces. */
const text = (r: Rng, alphabet: string, max = 10): string => r.word(r.int(0, max), alphabet);
const count = (s: string, pred: (c: string) => boolean): number => [...s].filter(pred).length;

export const countCharsIn = defineFamily<[s: string]>()({
  name: 'count_chars_in',
  category: 'strings',
  names: ['count_chars', 'count_letters', 'letter_count', 'count_special', 'tally_chars'],
  params: (r) => ({
    chars: r
      .shuffle([...'abcdefghijklmnopqrstuvw'])
      .slice(0, r.int(2, 4))
      .sort()
      .join(''),
  }),
  sig: () => '(s: str) -> int',
  doc: (p) => `Return how many characters of s are one of '${p.chars}', ignoring case.`,
  examples: (p) => [[`${p.chars[0]}x${p.chars[1].toUpperCase()}${p.chars[0]}`]],
  edge: (p) =>
    one([
      '',
      p.chars[0],
      p.chars[0].toUpperCase(),
      `${p.chars[1]}${p.chars[1]}${p.chars[1]}`,
      '#-',
      `${p.chars[0]}${p.chars[1].toUpperCase()}`,
      ` ${p.chars}`,
    ]),
  random: (p, r) => [text(r, `${p.chars}${p.chars.toUpperCase()}xyz `)],
  ref: (p, s) => count(s.toLowerCase(), (c) => p.chars.includes(c)),
  styles: [
    (p) => `
      total = 0
      for c in s.lower():
          if c in '${p.chars}':
              total += 1
      return total`,
    (p) => `return sum(1 for c in s if c.lower() in '${p.chars}')`,
  ],
  mutants: [
    { kind: 'missed-edge-case', body: (p) => `return sum(1 for c in s if c in '${p.chars}')` },
    { kind: 'off-by-one', body: (p) => `return sum(1 for c in s.lower()[1:] if c in '${p.chars}')` },
    { kind: 'duplicates', body: (p) => `return len(set(c for c in s.lower() if c in '${p.chars}'))` },
  ],
});

export const reverseWords = defineFamily<[s: string]>()({
  name: 'reverse_words',
  category: 'strings',
  names: [
    'reverse_words',
    'flip_words',
    'words_backwards',
    'reverse_order',
    'backwards_words',
    'invert_words',
    'words_reversed',
    'mirror_words',
  ],
  params: (r) => ({ sep: r.pick([' ', '-', ', ', '|', '_', ' / ']) }),
  variants: (r) => ({
    sep: r.pick([';', ':', '+', '.', '~', '#', '*', '=', ' - ', ' | ', ' ; ', '::', '..', ' + ', '/', ' :: ']),
  }),
  sig: () => '(s: str) -> str',
  doc: (p) =>
    `Words in s are separated by one or more spaces. Return the words in reverse order, joined by '${p.sep}'.`,
  examples: () => [['the quick  fox']],
  edge: () => one(['', 'one', 'a b', '  lead', 'trail  ', 'x  y   z', 'same same', 'ab cd ef gh']),
  random: (_p, r) => [
    Array.from({ length: r.int(0, 5) }, () => r.word(r.int(1, 4), 'abcde')).join(r.pick([' ', '  '])),
  ],
  ref: (p, s) =>
    s
      .split(' ')
      .filter((w) => w)
      .reverse()
      .join(p.sep),
  styles: [
    (p) => `return '${p.sep}'.join(reversed(s.split()))`,
    (p) => `
      words = s.split()
      words.reverse()
      return '${p.sep}'.join(words)`,
  ],
  mutants: [
    { kind: 'missed-edge-case', body: (p) => `return '${p.sep}'.join(reversed(s.split(' ')))` },
    { kind: 'off-by-one', body: (p) => `return '${p.sep}'.join(s.split()[-1:0:-1])` },
    { kind: 'duplicates', body: (p) => `return '${p.sep}'.join(reversed(list(dict.fromkeys(s.split()))))` },
  ],
});

export const isPalindrome = defineFamily<[s: string]>()({
  name: 'is_palindrome',
  category: 'strings',
  names: [
    'is_palindrome',
    'reads_same_backwards',
    'palindrome_check',
    'is_mirror',
    'is_symmetric',
    'same_both_ways',
    'palindromic',
    'check_palindrome',
  ],
  params: (r) => ({ ignore: r.pick(['case', 'spaces', 'case and spaces', 'nothing'] as const) }),
  sig: () => '(s: str) -> bool',
  doc: (p) =>
    `Return True if s reads the same forwards and backwards${p.ignore === 'nothing' ? '' : `, ignoring ${p.ignore}`}.`,
  examples: () => [['abA'], ['nolo n']],
  edge: () => one(['', 'a', 'ab', 'aa', 'Aa', 'a a', 'A b a', 'abca', 'abcba', 'ab a', 'Ab a', 'xyzzyx']),
  random: (_p, r) => {
    const half = r.word(r.int(0, 4), 'abAB ');
    return [
      r.bool(0.6)
        ? half + (r.bool() ? r.word(1, 'ab') : '') + [...half].reverse().join('')
        : half + r.word(r.int(0, 3), 'abAB '),
    ];
  },
  ref: (p, s) => {
    let t = s;
    if (p.ignore.includes('case')) t = t.toLowerCase();
    if (p.ignore.includes('spaces')) t = t.replaceAll(' ', '');
    return t === [...t].reverse().join('');
  },
  styles: [
    (p) => `
      t = s${p.ignore.includes('case') ? '.lower()' : ''}${p.ignore.includes('spaces') ? ".replace(' ', '')" : ''}
      return t == t[::-1]`,
    (p) => `
      t = s${p.ignore.includes('case') ? '.lower()' : ''}${p.ignore.includes('spaces') ? ".replace(' ', '')" : ''}
      i, j = 0, len(t) - 1
      while i < j:
          if t[i] != t[j]:
              return False
          i += 1
          j -= 1
      return True`,
  ],
  mutants: [
    {
      kind: 'off-by-one',
      body: (p) => `
        t = s${p.ignore.includes('case') ? '.lower()' : ''}${p.ignore.includes('spaces') ? ".replace(' ', '')" : ''}
        for i in range(len(t) // 2):
            if t[i] != t[len(t) - i - 2]:
                return False
        return True`,
    },
    {
      kind: 'missed-edge-case',
      body: (p) => `
        t = s${p.ignore === 'nothing' ? '.lower()' : ''}${p.ignore === 'case and spaces' ? '.lower()' : ''}${p.ignore === 'case' ? ".replace(' ', '')" : ''}
        return t == t[::-1]`,
    },
    {
      kind: 'wrong-comparison',
      body: (p) => `
        t = s${p.ignore.includes('case') ? '.lower()' : ''}${p.ignore.includes('spaces') ? ".replace(' ', '')" : ''}
        return t[:len(t) // 2] == t[len(t) // 2:][::-1]`,
    },
  ],
});

const charRunLoop = (p: { ci: boolean }) => `
      t = s${p.ci ? '.lower()' : ''}
      best = cur = 0
      for i in range(len(t)):
          cur = cur + 1 if i > 0 and t[i] == t[i - 1] else 1
          best = max(best, cur)
      return best`;
/** The loop started at the second character, so the first character's run is never counted. */
const fromSecondChar: [string, string][] = [
  ['range(len(t))', 'range(1, len(t))'],
  ['if i > 0 and t[i]', 'if t[i]'],
];

export const longestCharRun = defineFamily<[s: string]>()({
  name: 'longest_char_run',
  category: 'strings',
  names: [
    'longest_char_run',
    'max_repeat',
    'longest_repeat',
    'run_length_max',
    'longest_block',
    'max_char_streak',
    'longest_same',
    'longest_repeat_run',
  ],
  params: (r) => ({ ci: r.bool() }),
  sig: () => '(s: str) -> int',
  doc: (p) =>
    `Return the length of the longest run of the same character in s${p.ci ? ', ignoring case' : ''} (0 for an empty string).`,
  examples: () => [['abbbcc']],
  edge: () => one(['', 'a', 'ab', 'aa', 'aA', 'abcc', 'aabbb', 'aaab', 'xyxy', 'AaAb']),
  random: (_p, r) => [text(r, 'aabbA', 9)],
  ref: (p, s) => {
    const t = p.ci ? s.toLowerCase() : s;
    let best = 0;
    let cur = 0;
    for (let i = 0; i < t.length; i++) {
      cur = i > 0 && t[i] === t[i - 1] ? cur + 1 : 1;
      best = Math.max(best, cur);
    }
    return best;
  },
  styles: [
    charRunLoop,
    (p) => `
      t = s${p.ci ? '.lower()' : ''}
      best = 0
      i = 0
      while i < len(t):
          j = i
          while j < len(t) and t[j] == t[i]:
              j += 1
          best = max(best, j - i)
          i = j
      return best`,
  ],
  mutants: [
    { kind: 'off-by-one', body: edited(charRunLoop, ...fromSecondChar) },
    { kind: 'wrong-initial-value', body: edited(charRunLoop, ...fromSecondChar, ['best = cur = 0', 'best = cur = 1']) },
    {
      kind: 'missed-edge-case',
      body: (p) => `
        t = s${p.ci ? '.lower()' : ''}
        best = cur = 0
        for i in range(len(t)):
            if i > 0 and t[i] == t[i - 1]:
                cur += 1
            else:
                best = max(best, cur)
                cur = 1
        return best`,
    },
  ],
});

export const removeChar = defineFamily<[s: string]>()({
  name: 'remove_char',
  category: 'strings',
  names: ['remove_char', 'strip_letter', 'drop_char', 'delete_letter', 'without_char'],
  params: (r) => ({ c: r.word(1, 'abcdefghijklmnopqrstuvwxyz'), both: r.bool() }),
  sig: () => '(s: str) -> str',
  doc: (p) => `Return s with every '${p.c}'${p.both ? ` and '${p.c.toUpperCase()}'` : ''} removed.`,
  examples: (p) => [[`x${p.c}y${p.c}${p.c}`]],
  edge: (p) =>
    one([
      '',
      p.c,
      `${p.c}${p.c}${p.c}`,
      p.c.toUpperCase(),
      `a${p.c}`.replace(/^./, p.c === 'a' ? 'b' : 'a'),
      `${p.c}${p.c.toUpperCase()}z${p.c}`,
      'zz',
    ]),
  random: (p, r) => [text(r, `${p.c}${p.c}${p.c.toUpperCase()}xyz`, 9)],
  ref: (p, s) => [...s].filter((ch) => ch !== p.c && !(p.both && ch === p.c.toUpperCase())).join(''),
  styles: [
    (p) => `return s.replace('${p.c}', '')${p.both ? `.replace('${p.c.toUpperCase()}', '')` : ''}`,
    (p) => `return ''.join(ch for ch in s if ch not in '${p.both ? p.c + p.c.toUpperCase() : p.c}')`,
  ],
  mutants: [
    {
      kind: 'duplicates',
      body: (p) => `return s.replace('${p.c}', '', 1)${p.both ? `.replace('${p.c.toUpperCase()}', '', 1)` : ''}`,
    },
    {
      kind: 'missed-edge-case',
      body: (p) => (p.both ? `return s.replace('${p.c}', '')` : `return s.lower().replace('${p.c}', '')`),
    },
    {
      kind: 'off-by-one',
      body: (p) =>
        `return s[:1] + ''.join(ch for ch in s[1:] if ch not in '${p.both ? p.c + p.c.toUpperCase() : p.c}')`,
    },
  ],
});

export const caesarShift = defineFamily<[s: string]>()({
  name: 'caesar_shift',
  category: 'strings',
  names: ['caesar_shift', 'shift_letters', 'rotate_letters', 'encode'],
  params: (r) => ({ k: r.int(1, 25) }),
  sig: () => '(s: str) -> str',
  doc: (p) =>
    `Shift every lowercase letter in s forward by ${p.k} places in the alphabet, wrapping from 'z' to 'a'.\nOther characters are unchanged.`,
  examples: () => [['abc xyz']],
  edge: (p) => one(['', 'a', 'z', String.fromCharCode(122 - p.k + 1), 'A', ' !', 'zz', 'hello world', 'Zz9']),
  random: (_p, r) => [text(r, 'abcxyzmnA ', 9)],
  ref: (p, s) =>
    [...s]
      .map((c) => (c >= 'a' && c <= 'z' ? String.fromCharCode(((c.charCodeAt(0) - 97 + p.k) % 26) + 97) : c))
      .join(''),
  styles: [
    (p) => `
      out = ''
      for c in s:
          if 'a' <= c <= 'z':
              c = chr((ord(c) - ord('a') + ${p.k}) % 26 + ord('a'))
          out += c
      return out`,
    (p) => `
      abc = 'abcdefghijklmnopqrstuvwxyz'
      table = str.maketrans(abc, abc[${p.k}:] + abc[:${p.k}])
      return s.translate(table)`,
  ],
  mutants: [
    {
      kind: 'missed-edge-case',
      body: (p) => `return ''.join(chr(ord(c) + ${p.k}) if 'a' <= c <= 'z' else c for c in s)`,
    },
    {
      kind: 'off-by-one',
      body: (p) =>
        `return ''.join(chr((ord(c) - ord('a') + ${p.k}) % 25 + ord('a')) if 'a' <= c <= 'z' else c for c in s)`,
    },
    {
      kind: 'wrong-comparison',
      body: (p) =>
        `return ''.join(chr((ord(c) - ord('a') + ${p.k}) % 26 + ord('a')) if 'a' <= c.lower() <= 'z' else c for c in s)`,
    },
  ],
});
