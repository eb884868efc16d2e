// Byte-level BPE tokenizer in the HF tokenizer.json format: loads any such file through @huggingface/tokenizers
// (pure JS, offline, Node and browser) behind a small typed wrapper the model, sampler and trainer use.
import { Tokenizer as HfTokenizer } from '@huggingface/tokenizers';

/** The JSON object of a tokenizer.json file (kept loose: any HF tokenizer loads, not just ours). */
export type TokenizerJson = Record<string, unknown> & { model: Record<string, unknown> };

export class BpeTokenizer {
  private readonly hf: HfTokenizer;
  private readonly idToToken: (string | undefined)[] = [];
  readonly specialIds: ReadonlySet<number>;
  /** One past the largest id, including added tokens: the embedding table's row count. */
  readonly vocabSize: number;

  constructor(readonly json: TokenizerJson) {
    // clean_up_tokenization_spaces would rewrite " ." and " 's" on decode, which corrupts code.
    this.hf = new HfTokenizer(json, { clean_up_tokenization_spaces: false });
    const vocab = this.hf.get_vocab(true);
    let max = -1;
    for (const [tok, id] of vocab) {
      this.idToToken[id] = tok;
      max = Math.max(max, id);
    }
    this.vocabSize = max + 1;
    const added = (json.added_tokens ?? []) as { id: number; special?: boolean }[];
    this.specialIds = new Set(added.filter((t) => t.special).map((t) => t.id));
  }

  /** Token ids for `text`; special-token strings in the text map to their ids and are never split. No BOS/EOS added. */
  encode(text: string): number[] {
    return this.hf.encode(text, { add_special_tokens: false }).ids;
  }

  /** Text for `ids`; with skipSpecial, special tokens are dropped. Inverse of encode for any text. */
  decode(ids: ArrayLike<number>, skipSpecial = false): string {
    const arr = Array.from(ids);
    if (arr.length === 0) return '';
    return this.hf.decode(arr, { skip_special_tokens: skipSpecial, clean_up_tokenization_spaces: false });
  }

  /** Token strings (byte-level alphabet) for display and debugging. */
  tokens(text: string): string[] {
    return this.hf.encode(text, { add_special_tokens: false }).tokens;
  }

  tokenToId(token: string): number | undefined {
    return this.hf.token_to_id(token);
  }

  idToTokenString(id: number): string | undefined {
    return this.idToToken[id];
  }

  /** The id of a token that must exist (e.g. a special token); throws with the token's name otherwise. */
  requireId(token: string): number {
    const id = this.tokenToId(token);
    if (id === undefined) throw new Error(`tokenizer: token ${JSON.stringify(token)} is not in the vocabulary`);
    return id;
  }

  /** Serialised tokenizer.json text. */
  toJsonString(): string {
    return JSON.stringify(this.json);
  }
}

/** Loads a tokenizer.json (parsed object or its text). */
export function loadTokenizer(json: TokenizerJson | string): BpeTokenizer {
  const obj: unknown = typeof json === 'string' ? JSON.parse(json) : json;
  if (typeof obj !== 'object' || obj === null || !('model' in obj)) throw new Error('tokenizer.json: missing "model"');
  return new BpeTokenizer(obj as TokenizerJson);
}
