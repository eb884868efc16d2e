// Test fixtures written by scripts/hf-reference.py (transformers' own checkpoints and outputs): paths and records.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { decodeSafetensors, toFloat32 } from '../checkpoint-safetensors';
import { dirSource } from './source-node';
import type { HfSource } from './source';
import type { ChatMessage } from './tokenizer';

export const FIXTURE_ROOT = fileURLToPath(new URL('../../../fixtures/hf/', import.meta.url));

export interface PromptRecord {
  text: string;
  ids: number[];
  greedy: number[];
  /** Smallest top-1 − top-2 logit gap along transformers' greedy continuation. */
  greedy_min_margin: number;
}

export interface ComputeRecord {
  prompts: PromptRecord[];
  batch: { prompts: number[]; padded: number[][]; mask: number[][]; greedy: number[][] };
}

export interface ReferenceRecord {
  versions: Record<string, string>;
  tokenizer_vocab: number;
  model_vocab: number;
  tokenizer: {
    texts: { text: string; ids: number[]; decoded: string }[];
    chats: {
      messages: ChatMessage[];
      tools?: unknown[];
      add_generation_prompt: boolean;
      rendered: string;
      ids: number[];
    }[];
  };
  models: Record<
    string,
    { dtype: string; sharded: boolean; params: number; f32_compute: ComputeRecord; bf16_compute?: ComputeRecord }
  >;
}

export const FIXTURE_MODELS = [
  'qwen2-tied-gqa-f32',
  'qwen2-tied-gqa-bf16',
  'qwen2-untied-mqa-f32',
  'qwen2-untied-mqa-bf16',
  'qwen2-untied-mqa-f16',
] as const;

export function readReference(): ReferenceRecord {
  return JSON.parse(readFileSync(FIXTURE_ROOT + 'reference.json', 'utf8')) as ReferenceRecord;
}

export function fixtureSource(name: string): HfSource {
  return dirSource(FIXTURE_ROOT + name);
}

/** transformers' logits for one fixture model: prompt{i}.logits [S, V] and batch.logits [2, P, V]. */
export function readReferenceLogits(
  name: string,
  compute: 'f32' | 'bf16' = 'f32',
): Map<string, { shape: number[]; values: Float32Array }> {
  const file = FIXTURE_ROOT + name + (compute === 'bf16' ? '/bf16-compute' : '') + '/reference-logits.safetensors';
  const out = new Map<string, { shape: number[]; values: Float32Array }>();
  for (const [k, t] of decodeSafetensors(readFileSync(file), file).tensors)
    out.set(k, { shape: t.shape, values: toFloat32(t) });
  return out;
}
