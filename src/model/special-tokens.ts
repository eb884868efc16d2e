// Special tokens shared by the tokenizer trainer, the prompt templates and the sampler's stop conditions.
export const SPECIAL_TOKENS = {
  pad: '<|pad|>',
  eos: '<|endoftext|>',
  coder: '<|coder|>',
  tester: '<|tester|>',
  code: '<|code|>',
  tests: '<|tests|>',
  end: '<|end|>',
} as const;

/** In id order: a trained tokenizer gives these ids 0..n-1. */
export const SPECIAL_TOKEN_LIST: string[] = Object.values(SPECIAL_TOKENS);
