// GPT-2 byte-level alphabet (bytes_to_unicode) and the pre-tokenizer split pattern our trained tokenizers use.

/** Maps each byte 0..255 to a printable unicode character, as GPT-2 / HF ByteLevel do. Index = byte. */
export const BYTE_TO_CHAR: readonly string[] = (() => {
  const keep: number[] = [];
  for (let b = 0x21; b <= 0x7e; b++) keep.push(b);
  for (let b = 0xa1; b <= 0xac; b++) keep.push(b);
  for (let b = 0xae; b <= 0xff; b++) keep.push(b);
  const out: string[] = new Array(256);
  const kept = new Set(keep);
  let n = 0;
  for (let b = 0; b < 256; b++) out[b] = String.fromCodePoint(kept.has(b) ? b : 256 + n++);
  return out;
})();

/**
 * Qwen2's split regex: letters with one optional leading non-letter, single digits, punctuation runs with trailing
 * newlines, newline runs, and whitespace runs that leave the last space to the next word. It keeps Python
 * indentation as separate tokens, which suits code.
 */
export const SPLIT_PATTERN =
  "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";

/** The pre_tokenizer / decoder sections of a byte-level tokenizer.json with SPLIT_PATTERN. */
export function byteLevelSections(): Record<string, unknown> {
  return {
    normalizer: null,
    pre_tokenizer: {
      type: 'Sequence',
      pretokenizers: [
        { type: 'Split', pattern: { Regex: SPLIT_PATTERN }, behavior: 'Isolated', invert: false },
        { type: 'ByteLevel', add_prefix_space: false, trim_offsets: false, use_regex: false },
      ],
    },
    post_processor: null,
    decoder: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: false, use_regex: false },
  };
}
