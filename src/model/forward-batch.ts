// Uploads a token batch [B, S] (ids, RoPE positions, key validity, optional targets and loss masks) to the GPU.
import type { Gpu } from '../gpu/runtime';
import { defaultPositions, type BatchInput } from './reference';

export interface GpuBatch {
  B: number;
  S: number;
  T: number;
  /** u32 [T] token ids. */
  tokens: GPUBuffer;
  /** u32 [T] RoPE positions (first real token at 0 for left-padded rows). */
  positions: GPUBuffer;
  /** f32 [T] key validity: 1 real token, 0 padding (pad keys are never attended to). */
  valid: GPUBuffer;
  /** u32 [T] next-token targets (logits at t predict targets[t]), when a loss is computed. */
  targets?: GPUBuffer;
  /** f32 [T] loss mask (1 = counts), when a loss is computed. */
  mask?: GPUBuffer;
  /** Host copies, kept for diagnostics and the float64 reference. */
  host: Required<BatchInput> & { targets?: Uint32Array; mask?: Float32Array };
}

export interface BatchUpload extends BatchInput {
  targets?: ArrayLike<number>;
  mask?: ArrayLike<number>;
}

export function uploadBatch(gpu: Gpu, input: BatchUpload, label = 'batch'): GpuBatch {
  const B = input.batch;
  const S = input.seqLen;
  const T = B * S;
  const check = (name: string, a: ArrayLike<number> | undefined) => {
    if (a && a.length !== T) throw new Error(`${label}: ${name} has ${a.length} entries, want B·S = ${T}`);
  };
  check('tokens', input.tokens);
  check('positions', input.positions);
  check('valid', input.valid);
  check('targets', input.targets);
  check('mask', input.mask);
  const tokens = Uint32Array.from(input.tokens);
  const positions = Uint32Array.from(input.positions ?? defaultPositions(B, S));
  const valid = Float32Array.from(input.valid ?? new Float32Array(T).fill(1));
  const targets = input.targets ? Uint32Array.from(input.targets) : undefined;
  const mask = input.mask ? Float32Array.from(input.mask) : undefined;
  return {
    B,
    S,
    T,
    tokens: gpu.buffer(`${label}.tokens`, tokens),
    positions: gpu.buffer(`${label}.positions`, positions),
    valid: gpu.buffer(`${label}.valid`, valid),
    targets: targets && gpu.buffer(`${label}.targets`, targets),
    mask: mask && gpu.buffer(`${label}.mask`, mask),
    host: { batch: B, seqLen: S, tokens, positions, valid, targets, mask },
  };
}

export function destroyBatch(b: GpuBatch): void {
  for (const buf of [b.tokens, b.positions, b.valid, b.targets, b.mask]) buf?.destroy();
}
