// Batched sampling for a policy: prompts tokenized and cut to their last tokens, the sampler run on rollout weights,
// and the results as the trainer's Generation records. Shared by the lab's own models and Hugging Face ones.
import type { DecodeWeights } from '../model/decode-weights';
import { generate as sampleGenerate } from '../model/sampler';
import type { BpeTokenizer } from '../model/tokenizer';
import type { Generation, GenerateOptions } from './policy';

export interface SampleSetup {
  weights: DecodeWeights;
  tokenizer: BpeTokenizer;
  /** Prompts longer than this keep their last tokens. */
  maxPromptTokens: number;
  padId: number;
  /** Token ids that end a completion (default: the sampler's, the lab's end markers). */
  stopTokenIds?: number[];
}

export async function sampleCompletions(
  setup: SampleSetup,
  prompts: string[],
  o: GenerateOptions,
): Promise<Generation[]> {
  const { tokenizer, maxPromptTokens } = setup;
  const encoded = prompts.map((p) => {
    const ids = tokenizer.encode(p);
    return ids.length > maxPromptTokens ? ids.slice(ids.length - maxPromptTokens) : ids;
  });
  const maxLen = setup.weights.model.config.maxSeqLen;
  const longest = Math.max(...encoded.map((e) => e.length));
  const maxNew = Math.max(1, Math.min(o.maxNewTokens, maxLen - longest));
  const out = await sampleGenerate(setup.weights, encoded, {
    temperature: o.temperature,
    topP: o.topP,
    topK: o.topK,
    seed: o.seed,
    maxNewTokens: maxNew,
    stopStrings: o.stop?.filter((s) => tokenizer.tokenToId(s) === undefined),
    stopTokenIds: setup.stopTokenIds,
    tokenizer,
    padId: setup.padId,
    onProgress: o.onProgress,
    onChunk: o.onText && ((text) => o.onText!(text, prompts.length)),
  });
  return out.map((s, i) => ({
    text: s.text,
    promptTokens: encoded[i],
    completionTokens: s.tokens,
    rolloutLogprobs: s.logprobs,
    finishReason: s.finishReason,
  }));
}
