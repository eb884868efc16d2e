// Byte-level BPE trainer (pure TS): learns merges from a corpus of strings and writes an HF tokenizer.json that
// `loadTokenizer` (and HF's Rust/Python tokenizers) read back. Special tokens get ids 0..k-1 and are never split.
import { Tokenizer as HfTokenizer } from '@huggingface/tokenizers';
import { BYTE_TO_CHAR, byteLevelSections } from './byte-level';
import { SPECIAL_TOKEN_LIST } from './special-tokens';
import type { TokenizerJson } from './tokenizer';

export interface TrainTokenizerOptions {
  /** Total ids including special tokens and the 256 byte tokens (e.g. 512..2048). */
  vocabSize: number;
  /** In id order; defaults to SPECIAL_TOKEN_LIST (ids 0..6). */
  specialTokens?: readonly string[];
  /** Pairs seen fewer times than this are never merged (training may then stop below vocabSize). */
  minFrequency?: number;
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function skeleton(
  specials: readonly string[],
  vocab: Record<string, number>,
  merges: [string, string][],
): TokenizerJson {
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: specials.map((content, id) => ({
      id,
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    ...byteLevelSections(),
    model: {
      type: 'BPE',
      dropout: null,
      unk_token: null,
      continuing_subword_prefix: null,
      end_of_word_suffix: null,
      fuse_unk: false,
      byte_fallback: false,
      ignore_merges: false,
      vocab,
      merges,
    },
  };
}

/** Pre-token frequencies of the corpus, with the same pre-tokenizer the finished tokenizer will use. */
function countWords(corpus: Iterable<string>, specials: readonly string[]): Map<string, number> {
  const base: Record<string, number> = {};
  BYTE_TO_CHAR.forEach((c, b) => (base[c] = b));
  const pre = new HfTokenizer(skeleton([], base, []), {}).pre_tokenizer;
  if (!pre) throw new Error('tokenizer trainer: no pre-tokenizer');
  const specialRe = specials.length ? new RegExp(specials.map(escapeRegex).join('|'), 'g') : undefined;
  const counts = new Map<string, number>();
  for (const text of corpus) {
    const pieces = specialRe ? text.split(specialRe) : [text];
    for (const piece of pieces) {
      if (!piece) continue;
      for (const w of pre.pre_tokenize(piece)) counts.set(w, (counts.get(w) ?? 0) + 1);
    }
  }
  return counts;
}

/** Learns a byte-level BPE vocabulary from `corpus` and returns the tokenizer.json object. */
export function trainTokenizer(corpus: Iterable<string>, opts: TrainTokenizerOptions): TokenizerJson {
  const specials = opts.specialTokens ?? SPECIAL_TOKEN_LIST;
  const minFrequency = opts.minFrequency ?? 2;
  const first = specials.length;
  if (opts.vocabSize < first + 256) throw new Error(`vocabSize ${opts.vocabSize} < ${first} specials + 256 bytes`);
  if (opts.vocabSize > 65536) throw new Error('vocabSize above 65536 is not supported by this trainer');

  const tokenStr: string[] = [...specials, ...BYTE_TO_CHAR];
  const strToId = new Map<string, number>(tokenStr.map((s, i) => [s, i]));
  const charToId = new Map<string, number>(BYTE_TO_CHAR.map((c, b) => [c, first + b]));

  const counts = countWords(corpus, specials);
  const words: Int32Array[] = [];
  const lens: number[] = [];
  const freqs: number[] = [];
  for (const [w, f] of counts) {
    const sym = new Int32Array(w.length);
    for (let i = 0; i < w.length; i++) {
      const id = charToId.get(w[i]);
      if (id === undefined)
        throw new Error(`tokenizer trainer: pre-token char ${JSON.stringify(w[i])} outside the byte alphabet`);
      sym[i] = id;
    }
    words.push(sym);
    lens.push(w.length);
    freqs.push(f);
  }

  // Pair statistics: key = a * 65536 + b. pairWords lists may hold stale or repeated entries; merging re-checks.
  const pairCount = new Map<number, number>();
  const pairWords = new Map<number, number[]>();
  const addPairs = (w: number, sign: number) => {
    const sym = words[w];
    const f = freqs[w] * sign;
    for (let i = 0; i + 1 < lens[w]; i++) {
      const k = sym[i] * 65536 + sym[i + 1];
      const c = (pairCount.get(k) ?? 0) + f;
      if (c === 0) pairCount.delete(k);
      else pairCount.set(k, c);
      if (sign > 0) {
        const list = pairWords.get(k);
        if (list) list.push(w);
        else pairWords.set(k, [w]);
      }
    }
  };
  for (let w = 0; w < words.length; w++) addPairs(w, 1);

  const merges: [string, string][] = [];
  const stamp = new Int32Array(words.length).fill(-1);
  let nextId = tokenStr.length;
  for (let iter = 0; nextId < opts.vocabSize; iter++) {
    let bestKey = -1;
    let bestCount = 0;
    // Highest count wins; ties go to the smaller key, so training is deterministic.
    for (const [k, c] of pairCount) {
      if (c > bestCount || (c === bestCount && k < bestKey)) {
        bestCount = c;
        bestKey = k;
      }
    }
    if (bestKey < 0 || bestCount < minFrequency) break;
    const a = Math.floor(bestKey / 65536);
    const b = bestKey % 65536;
    const merged = tokenStr[a] + tokenStr[b];
    let id = strToId.get(merged);
    if (id === undefined) {
      id = nextId++;
      tokenStr[id] = merged;
      strToId.set(merged, id);
    }
    merges.push([tokenStr[a], tokenStr[b]]);
    for (const w of pairWords.get(bestKey) ?? []) {
      if (stamp[w] === iter) continue;
      stamp[w] = iter;
      const sym = words[w];
      let found = false;
      for (let i = 0; i + 1 < lens[w]; i++) if (sym[i] === a && sym[i + 1] === b) found = true;
      if (!found) continue;
      addPairs(w, -1);
      let o = 0;
      for (let i = 0; i < lens[w]; i++) {
        if (i + 1 < lens[w] && sym[i] === a && sym[i + 1] === b) {
          sym[o++] = id;
          i++;
        } else sym[o++] = sym[i];
      }
      lens[w] = o;
      addPairs(w, 1);
    }
    pairWords.delete(bestKey);
    pairCount.delete(bestKey);
  }

  const vocab: Record<string, number> = {};
  tokenStr.forEach((s, i) => (vocab[s] = i));
  return skeleton(specials, vocab, merges);
}
