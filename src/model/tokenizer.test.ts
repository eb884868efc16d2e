// Tokenizer: the BPE trainer writes a tokenizer.json the loader reads back; roundtrips on Python code; specials.
import { describe, expect, it } from 'vitest';
import { loadTokenizer } from './tokenizer';
import { trainTokenizer } from './tokenizer-train';
import { SPECIAL_TOKENS, SPECIAL_TOKEN_LIST } from './special-tokens';
import { BYTE_TO_CHAR } from './byte-level';
import { freshSeed, mulberry32 } from '../testing/random';

const NAMES = [
  'value',
  'result',
  'items',
  'count',
  'index',
  'total',
  'name',
  'data',
  'left',
  'right',
  'node',
  'key',
  'sorted_list',
  'memo',
];

/** Python-like snippets with varied identifiers, indentation depths, comments and unicode literals. */
function corpus(rng: () => number, n: number): string[] {
  const syl = ['ka', 'lo', 'mi', 'tr', 'es', 'un', 'ph', 'qu', 'ix', 'or', 'ba', 'ze'];
  // Half known names, half made-up identifiers from syllables, so there are enough distinct pairs to merge.
  const made = () =>
    Array.from({ length: 1 + Math.floor(rng() * 3) }, () => syl[Math.floor(rng() * syl.length)]).join('');
  const pick = () =>
    (rng() < 0.5 ? NAMES[Math.floor(rng() * NAMES.length)] : made()) +
    (rng() < 0.3 ? String(Math.floor(rng() * 50)) : '');
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const f = pick();
    out.push(
      `def ${f}(${pick()}, ${pick()}=None):\n    """Return the ${pick()} of the ${pick()}."""\n    ${pick()} = {}\n` +
        `    for ${pick()} in range(len(${pick()})):\n        if ${pick()} % ${Math.floor(rng() * 9) + 1} == 0:\n` +
        `            ${pick()}.append("${pick()} é")  # ${pick()}\n        else:\n            continue\n    return ${pick()}\n\n` +
        `${SPECIAL_TOKENS.tests}assert ${f}([1, 2, 3]) == ${Math.floor(rng() * 1000)}${SPECIAL_TOKENS.end}\n`,
    );
  }
  return out;
}

const HELD_OUT = [
  'class Stack:\n    def __init__(self):\n        self.items: list[int] = []\n\n    def push(self, x):\n\t\tself.items.append(x)\n',
  'def naïve(s: str) -> str:\n    return s.replace("→", "->") + "日本語" + "🙂"  # emoji & CJK\n',
  'x = 1\r\nif x:\r\n    print(  "trailing spaces"  )   \n\n\n   \n',
  '',
  ' leading space and a lone \\ backslash, a NUL \u0000 and bytes \u00ff\u0080',
  `${SPECIAL_TOKENS.coder}def f():\n    pass${SPECIAL_TOKENS.end}${SPECIAL_TOKENS.eos}`,
];

describe('tokenizer', () => {
  const seed = freshSeed();
  const rng = mulberry32(seed);
  const texts = corpus(rng, 400);
  const json = trainTokenizer(texts, { vocabSize: 600 });
  const tok = loadTokenizer(JSON.stringify(json));

  it(`trains to the requested vocab with specials at 0..6 and bytes next (seed ${seed})`, () => {
    expect(tok.vocabSize).toBe(600);
    SPECIAL_TOKEN_LIST.forEach((s, i) => expect(tok.requireId(s)).toBe(i));
    BYTE_TO_CHAR.forEach((c, b) => expect(tok.tokenToId(c)).toBe(SPECIAL_TOKEN_LIST.length + b));
    const vocab = json.model.vocab as Record<string, number>;
    const ids = Object.values(vocab).sort((a, b) => a - b);
    expect(ids).toEqual(Array.from({ length: ids.length }, (_, i) => i));
    for (const [a, b] of json.model.merges as [string, string][]) {
      expect(vocab[a]).toBeDefined();
      expect(vocab[b]).toBeDefined();
      expect(vocab[a + b]).toBeDefined();
    }
  });

  it('special tokens are single ids and never split; decode can skip them', () => {
    for (const [i, s] of SPECIAL_TOKEN_LIST.entries()) expect(tok.encode(`x${s}y`)).toContain(i);
    const ids = tok.encode(`${SPECIAL_TOKENS.coder}return 1${SPECIAL_TOKENS.end}`);
    expect(ids[0]).toBe(2);
    expect(ids[ids.length - 1]).toBe(6);
    expect(tok.decode(ids, true)).toBe('return 1');
    // Ordinary text never produces a special id.
    expect(tok.encode('<|code|'.repeat(3)).some((id) => id < SPECIAL_TOKEN_LIST.length)).toBe(false);
  });

  it('roundtrips held-out Python code with indentation, tabs, CRLF and unicode', () => {
    for (const text of [...HELD_OUT, texts[0]]) {
      const ids = tok.encode(text);
      expect(tok.decode(ids)).toBe(text);
      expect(ids.every((id) => id >= 0 && id < tok.vocabSize)).toBe(true);
    }
    const sample = texts.slice(0, 20).join('');
    const n = tok.encode(sample).length;
    const bytes = new TextEncoder().encode(sample).length;
    console.log(`tokenizer: ${bytes} bytes -> ${n} tokens (${(bytes / n).toFixed(2)} bytes/token) at vocab 600`);
    expect(n).toBeLessThan(bytes / 2); // merges are actually applied
  });

  it('training is deterministic', () => {
    expect(JSON.stringify(trainTokenizer(texts, { vocabSize: 600 }))).toBe(JSON.stringify(json));
  });

  it('loads a GPT-2 style tokenizer.json written by hand (string merges, ByteLevel regex pre-tokenizer)', () => {
    const vocab: Record<string, number> = {};
    BYTE_TO_CHAR.forEach((c, b) => (vocab[c] = b));
    vocab['Ġ' + 'r'] = 256;
    vocab['Ġr' + 'e'] = 257;
    const gpt2 = loadTokenizer({
      version: '1.0',
      added_tokens: [
        {
          id: 258,
          content: '<|endoftext|>',
          special: true,
          normalized: false,
          lstrip: false,
          rstrip: false,
          single_word: false,
        },
      ],
      normalizer: null,
      pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
      post_processor: null,
      decoder: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
      model: { type: 'BPE', vocab, merges: ['Ġ r', 'Ġr e'], unk_token: null, byte_fallback: false },
    });
    const text = 'a re return<|endoftext|>';
    const ids = gpt2.encode(text);
    expect(ids).toEqual([vocab['a'], 257, 257, vocab['t'], vocab['u'], vocab['r'], vocab['n'], 258]);
    expect(gpt2.decode(ids)).toBe(text);
    expect(gpt2.vocabSize).toBe(259);
  });

  it('trains fast: ~0.6 MB corpus to vocab 1024', () => {
    const big = corpus(rng, 2000);
    const mb = big.reduce((n, t) => n + t.length, 0) / 1e6;
    const t0 = performance.now();
    const j = trainTokenizer(big, { vocabSize: 1024 });
    const s = (performance.now() - t0) / 1000;
    console.log(
      `tokenizer trainer: ${mb.toFixed(2)} MB to vocab ${Object.keys(j.model.vocab as object).length} in ${s.toFixed(2)} s`,
    );
    expect(s).toBeLessThan(20);
  });

  it('rejects a vocab too small for specials plus bytes', () => {
    expect(() => trainTokenizer(['x'], { vocabSize: 200 })).toThrow(/vocabSize/);
  });
});
