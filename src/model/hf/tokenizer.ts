// A Hugging Face tokenizer folder: tokenizer.json through @huggingface/tokenizers, tokenizer_config.json's special
// tokens, and the chat template (chat_template.jinja or tokenizer_config.json) rendered by @huggingface/jinja, the
// Jinja implementation transformers.js uses, with the variables transformers' apply_chat_template passes.
import { Template } from '@huggingface/jinja';
import { BpeTokenizer, type TokenizerJson } from '../tokenizer';
import { readJson, readText, type HfSource } from './source';

export interface ChatMessage {
  role: string;
  content: string;
  /** Tool calls and other keys a template may read. */
  [key: string]: unknown;
}

export interface ChatOptions {
  /** Append the assistant header so the model continues as the assistant (transformers' add_generation_prompt). */
  addGenerationPrompt?: boolean;
  /** Tool (function) schemas, for templates that support them. */
  tools?: unknown[];
  /** Extra template variables (e.g. enable_thinking); they override nothing above. */
  extra?: Record<string, unknown>;
}

export interface SpecialTokens {
  bos?: string;
  eos?: string;
  pad?: string;
  unk?: string;
}

export interface HfTokenizer {
  tokenizer: BpeTokenizer;
  specialTokens: SpecialTokens;
  /** The eos id (tokenizer_config's eos_token) first, then generation_config.json's other eos ids; deduplicated. */
  stopTokenIds: number[];
  padId?: number;
  chatTemplate?: string;
  /** The conversation as text, exactly as transformers' apply_chat_template(tokenize=False) renders it. */
  applyChatTemplate(messages: ChatMessage[], opts?: ChatOptions): string;
  /** The rendered conversation's ids (special tokens in the text map to their ids; nothing else added). */
  encodeChat(messages: ChatMessage[], opts?: ChatOptions): number[];
}

/** tokenizer_config.json spells a special token as a string or as an AddedToken object {content, …}. */
function tokenString(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'object' && v !== null && typeof (v as { content?: unknown }).content === 'string')
    return (v as { content: string }).content;
  return undefined;
}

/** The chat template: chat_template.jinja (transformers ≥ 4.47 writes it) or tokenizer_config.json's chat_template. */
function pickTemplate(fileTemplate: string | undefined, fromConfig: unknown, label: string): string | undefined {
  if (fileTemplate !== undefined) return fileTemplate;
  if (fromConfig === undefined || fromConfig === null) return undefined;
  if (typeof fromConfig === 'string') return fromConfig;
  // A list of named templates: use "default", as transformers does when no name is asked for.
  if (Array.isArray(fromConfig)) {
    const named = fromConfig.find(
      (t: unknown) => typeof t === 'object' && t !== null && (t as { name?: unknown }).name === 'default',
    ) as { template?: unknown } | undefined;
    if (typeof named?.template === 'string') return named.template;
  }
  throw new Error(`${label}/tokenizer_config.json: chat_template must be a string or a list with a "default" entry`);
}

function ids(v: unknown): number[] {
  const arr = Array.isArray(v) ? v : [v];
  return arr.filter((x): x is number => typeof x === 'number' && Number.isInteger(x) && x >= 0);
}

export async function loadHfTokenizer(src: HfSource): Promise<HfTokenizer> {
  const json = await readJson(src, 'tokenizer.json');
  if (json === undefined)
    throw new Error(`${src.label}: no tokenizer.json (only fast, tokenizer.json-based tokenizers are supported)`);
  if (typeof json !== 'object' || json === null || !('model' in json))
    throw new Error(`${src.label}/tokenizer.json: missing "model"`);
  const cfg = ((await readJson(src, 'tokenizer_config.json')) ?? {}) as Record<string, unknown>;
  const gen = ((await readJson(src, 'generation_config.json')) ?? {}) as Record<string, unknown>;
  const tokenizer = new BpeTokenizer(json as TokenizerJson);
  const specialTokens: SpecialTokens = {
    bos: tokenString(cfg.bos_token),
    eos: tokenString(cfg.eos_token),
    pad: tokenString(cfg.pad_token),
    unk: tokenString(cfg.unk_token),
  };
  const idOf = (t: string | undefined): number | undefined => (t === undefined ? undefined : tokenizer.requireId(t));
  const eosId = idOf(specialTokens.eos);
  const stopTokenIds = [...new Set([...(eosId === undefined ? [] : [eosId]), ...ids(gen.eos_token_id)])];
  const chatTemplate = pickTemplate(await readText(src, 'chat_template.jinja'), cfg.chat_template, src.label);
  const compiled = chatTemplate === undefined ? undefined : new Template(chatTemplate);

  const applyChatTemplate = (messages: ChatMessage[], opts: ChatOptions = {}): string => {
    if (!compiled)
      throw new Error(
        `${src.label}: the tokenizer has no chat template (no chat_template.jinja, no chat_template in tokenizer_config.json)`,
      );
    return compiled.render({
      ...opts.extra,
      messages,
      tools: opts.tools ?? null,
      add_generation_prompt: opts.addGenerationPrompt ?? false,
      bos_token: specialTokens.bos ?? '',
      eos_token: specialTokens.eos ?? '',
      pad_token: specialTokens.pad ?? '',
      unk_token: specialTokens.unk ?? '',
    });
  };
  return {
    tokenizer,
    specialTokens,
    stopTokenIds,
    padId: idOf(specialTokens.pad),
    chatTemplate,
    applyChatTemplate,
    encodeChat: (messages, opts) => tokenizer.encode(applyChatTemplate(messages, opts)),
  };
}
