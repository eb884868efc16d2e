// Decode-time attention for the sampler: one new query token per sequence against a KV cache, plus the cache append.
//
// KV-cache layout (one pair of buffers per layer): kCache, vCache f32 [B, Hkv, maxLen, Dh] row-major, i.e.
// element (b, g, pos, d) at ((b·Hkv + g)·maxLen + pos)·Dh + d. Each head's keys are contiguous, so a decode step
// streams them linearly.
// Per step, for a batch of B sequences:
//   1. attentionCacheWrite(k, v [B, 1, Hkv, Dh] = the new token's k/v rows after RoPE, startPos [B] = its position)
//      (a prompt is appended the same way with n = prompt length, startPos = 0);
//   2. attentionDecode(q [B, Hq, Dh], lens [B] = startPos + 1) → out [B, Hq, Dh].
// lens u32 [B]: keys 0..lens[b]-1 are attended (the new token's own key included). keyValid [B, maxLen]
// (u32 or f32, non-zero = valid; null = all valid) hides left-padding positions of a batched prompt; a query with
// no valid key outputs 0. Scale 1/sqrt(Dh); Hq a multiple of Hkv; Dh % 4 == 0, Dh <= 128.
// Two kernels: 'workgroup' (a workgroup per sequence and head, keys scored in parallel; for real GPUs) and
// 'thread' (no barriers, GQA heads of a group share k/v loads; ~10x less CPU than 'workgroup' on SwiftShader).
import softmaxSource from '../../../shaders/common/online_softmax.wgsl?raw';
import decodeSource from '../../../shaders/attention_decode.wgsl?raw';
import decodeThreadSource from '../../../shaders/attention_decode_thread.wgsl?raw';
import writeSource from '../../../shaders/attention_cache_write.wgsl?raw';
import { Kernel } from '../launcher';
import type { Gpu } from '../runtime';
import type { DecodeKernel } from '../tuning';
import { attentionDummy, checkAttentionShape } from './attention';
import { grid1d } from './grid';
import { checkBuffers, softwareAdapter } from './logprobs';

export interface DecodeShape {
  B: number;
  Hq: number;
  Hkv: number;
  Dh: number;
  maxLen: number;
}

const decodeUniforms = [
  ['B', 'u32'],
  ['Hq', 'u32'],
  ['Hkv', 'u32'],
  ['Dh', 'u32'],
  ['maxLen', 'u32'],
  ['hasMask', 'u32'],
  ['scale', 'f32'],
  ['rows', 'u32'],
] as const;
const decodeKernels = {
  workgroup: new Kernel({ family: 'attention_decode', source: decodeSource, uniforms: decodeUniforms }),
  thread: new Kernel({
    family: 'attention_decode',
    source: softmaxSource + decodeThreadSource,
    uniforms: decodeUniforms,
  }),
} satisfies Record<DecodeKernel, unknown>;
export type DecodeImpl = 'auto' | DecodeKernel;
const writeKernel = new Kernel({
  family: 'attention_decode',
  source: writeSource,
  uniforms: [
    ['B', 'u32'],
    ['n', 'u32'],
    ['Hkv', 'u32'],
    ['Dh', 'u32'],
    ['maxLen', 'u32'],
    ['_p0', 'u32'],
    ['_p1', 'u32'],
    ['_p2', 'u32'],
  ],
});
const WG = 64;

/** out [B, Hq, Dh] ← q [B, Hq, Dh], caches [B, Hkv, maxLen, Dh], lens u32 [B], keyValid [B, maxLen] | null. */
export function attentionDecode(
  gpu: Gpu,
  out: GPUBuffer,
  q: GPUBuffer,
  kCache: GPUBuffer,
  vCache: GPUBuffer,
  lens: GPUBuffer,
  keyValid: GPUBuffer | null,
  shape: DecodeShape,
): void {
  checkAttentionShape(shape, 128);
  let impl = gpu.tuning.attentionDecode;
  if (impl === 'auto') impl = softwareAdapter(gpu) ? 'thread' : 'workgroup';
  const { B, Hq, Hkv, Dh, maxLen } = shape;
  const cache = B * Hkv * maxLen * Dh;
  checkBuffers('attention_decode', {
    out: [out, B * Hq * Dh],
    q: [q, B * Hq * Dh],
    kCache: [kCache, cache],
    vCache: [vCache, cache],
    lens: [lens, B],
  });
  if (keyValid) checkBuffers('attention_decode', { keyValid: [keyValid, B * maxLen] });
  const group = Hq / Hkv;
  // thread: `rows` heads of one GQA group per invocation (they share every k/v load); at most 64 vec4 of q per thread.
  const rows = Math.max(1, Math.min(group, 8, Math.floor(64 / (Dh / 4))));
  const threads = B * Hkv * Math.ceil(group / rows);
  const wg = impl === 'thread' ? 8 : WG;
  decodeKernels[impl].dispatch(gpu, {
    buffers: [q, kCache, vCache, lens, keyValid ?? attentionDummy(gpu), out],
    uniforms: { B, Hq, Hkv, Dh, maxLen, hasMask: keyValid ? 1 : 0, scale: 1 / Math.sqrt(Dh), rows },
    workgroups: impl === 'thread' ? grid1d(threads, wg) : grid1d(B * Hq, 1),
    overrides: { WG: wg },
  });
}

/** caches[b, :, startPos[b] + s, :] = k/v[b, s] for s < n; k, v [B, n, Hkv, Dh]; positions >= maxLen are dropped. */
export function attentionCacheWrite(
  gpu: Gpu,
  kCache: GPUBuffer,
  vCache: GPUBuffer,
  k: GPUBuffer,
  v: GPUBuffer,
  startPos: GPUBuffer,
  shape: { B: number; n: number; Hkv: number; Dh: number; maxLen: number },
): void {
  const { B, n, Hkv, Dh, maxLen } = shape;
  const cache = B * Hkv * maxLen * Dh;
  checkBuffers('attention_decode', {
    kCache: [kCache, cache],
    vCache: [vCache, cache],
    k: [k, B * n * Hkv * Dh],
    v: [v, B * n * Hkv * Dh],
    startPos: [startPos, B],
  });
  writeKernel.dispatch(gpu, {
    buffers: [k, v, startPos, kCache, vCache],
    uniforms: { ...shape, _p0: 0, _p1: 0, _p2: 0 },
    workgroups: grid1d(shape.B * shape.n * shape.Hkv * shape.Dh, 256),
    overrides: { WG: 256 },
  });
}

/** Plain-loop reference of the cache append (in place on copies of the caches). */
export function attentionCacheWriteRef(
  kCache: Float32Array,
  vCache: Float32Array,
  k: ArrayLike<number>,
  v: ArrayLike<number>,
  startPos: ArrayLike<number>,
  s: { B: number; n: number; Hkv: number; Dh: number; maxLen: number },
): void {
  for (let b = 0; b < s.B; b++)
    for (let t = 0; t < s.n; t++)
      for (let g = 0; g < s.Hkv; g++)
        for (let d = 0; d < s.Dh; d++) {
          const pos = startPos[b] + t;
          if (pos >= s.maxLen) continue;
          const src = ((b * s.n + t) * s.Hkv + g) * s.Dh + d;
          const dst = ((b * s.Hkv + g) * s.maxLen + pos) * s.Dh + d;
          kCache[dst] = k[src];
          vCache[dst] = v[src];
        }
}
