// Runs an exported model on onnxruntime-web (any EP): full-form logits and KV-cache steps, as flat f32 arrays.
import * as ort from 'onnxruntime-web';
import type { ModelConfig } from '../config';
import { onnxNames } from './export';

export type OrtSession = ort.InferenceSession;

/** Creates a session on one EP ('wasm' or 'webgpu'), with every graph optimisation on (constant folding included). */
export async function createOrtSession(bytes: Uint8Array, ep: 'wasm' | 'webgpu'): Promise<ort.InferenceSession> {
  return ort.InferenceSession.create(bytes, { executionProviders: [ep], graphOptimizationLevel: 'all' });
}

export function idsTensor(tokens: ArrayLike<number>, B: number, S: number): ort.Tensor {
  if (tokens.length !== B * S) throw new Error(`ids: ${tokens.length} tokens for [${B}, ${S}]`);
  return new ort.Tensor('int64', BigInt64Array.from(Array.from(tokens, (t) => BigInt(t))), [B, S]);
}

/** attention_mask [B, P + S] (1 real, 0 pad) and position_ids [B, S], for models exported with attentionMask. */
export interface PaddingFeeds {
  attentionMask: ArrayLike<number>;
  positionIds: ArrayLike<number>;
}

function paddingFeeds(pad: PaddingFeeds | undefined, B: number, S: number): Record<string, ort.Tensor> {
  if (!pad) return {};
  const total = pad.attentionMask.length / B;
  return {
    [onnxNames.attentionMask]: idsTensor(pad.attentionMask, B, total),
    [onnxNames.positionIds]: idsTensor(pad.positionIds, B, S),
  };
}

/** Full-form logits [B·S·V] for token ids [B, S]. */
export async function ortLogits(
  session: ort.InferenceSession,
  tokens: ArrayLike<number>,
  B: number,
  S: number,
  pad?: PaddingFeeds,
): Promise<Float32Array> {
  const out = await session.run({ [onnxNames.inputIds]: idsTensor(tokens, B, S), ...paddingFeeds(pad, B, S) });
  const logits = out[onnxNames.logits];
  const data = (await logits.getData()) as Float32Array;
  for (const t of Object.values(out)) t.dispose();
  return data;
}

export interface KvState {
  /** Per layer [B, kvHeads, P, hd] keys and values (P = tokens seen so far). */
  keys: ort.Tensor[];
  values: ort.Tensor[];
  past: number;
}

export function emptyKv(c: ModelConfig, B: number): KvState {
  const empty = () => new ort.Tensor('float32', new Float32Array(0), [B, c.kvHeads, 0, c.headDim]);
  return { keys: Array.from({ length: c.layers }, empty), values: Array.from({ length: c.layers }, empty), past: 0 };
}

/** One KV-form step on S new tokens per row: logits [B·S·V] and the grown cache (pad: mask over all P + S keys). */
export async function ortKvStep(
  session: ort.InferenceSession,
  c: ModelConfig,
  state: KvState,
  tokens: ArrayLike<number>,
  B: number,
  S: number,
  pad?: PaddingFeeds,
): Promise<{ logits: Float32Array; state: KvState }> {
  const feeds: Record<string, ort.Tensor> = {
    [onnxNames.inputIds]: idsTensor(tokens, B, S),
    ...paddingFeeds(pad, B, S),
  };
  for (let l = 0; l < c.layers; l++) {
    feeds[onnxNames.pastKey(l)] = state.keys[l];
    feeds[onnxNames.pastValue(l)] = state.values[l];
  }
  const out = await session.run(feeds);
  const logits = (await out[onnxNames.logits].getData()) as Float32Array;
  const keys = Array.from({ length: c.layers }, (_, l) => out[onnxNames.presentKey(l)]);
  const values = Array.from({ length: c.layers }, (_, l) => out[onnxNames.presentValue(l)]);
  return { logits, state: { keys, values, past: state.past + S } };
}
