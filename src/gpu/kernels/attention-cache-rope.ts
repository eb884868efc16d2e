// The decode step's KV append from a fused QKV activation (shaders/attention_cache_rope.wgsl): RoPE on the k heads
// and the cache write of k and v in one dispatch, with its CPU reference.
import ropePairSource from '../../../shaders/common/rope_pair.wgsl?raw';
import source from '../../../shaders/attention_cache_rope.wgsl?raw';
import { Kernel } from '../launcher';
import type { Gpu } from '../runtime';
import { grid1d } from './grid';
import { checkBuffers } from './logprobs';
import type { RopeTable } from './rope';
import { attentionCacheWriteRef } from './attention-decode';
import { ropeForwardRef } from './rope';

export interface CacheRopeShape {
  B: number;
  Hq: number;
  Hkv: number;
  Dh: number;
  maxLen: number;
}

const kernel = new Kernel({
  family: 'attention_decode',
  source: ropePairSource + source,
  uniforms: [
    ['B', 'u32'],
    ['Hq', 'u32'],
    ['Hkv', 'u32'],
    ['Dh', 'u32'],
    ['maxLen', 'u32'],
    ['maxPos', 'u32'],
    ['sgn', 'f32'],
    ['nanBits', 'u32'],
  ],
});
const WG = 64;
const NAN_BITS = 0x7fc00000;

/**
 * caches[b, g, slots[b], :] = rope(k_g of qkv row b, positions[b]) and v_g of qkv row b, for qkv [B, (Hq + 2 Hkv) Dh]
 * (row = q | k | v); the same numbers as ropeForward on the k slice followed by attentionCacheWrite with n = 1.
 */
export function attentionCacheRope(
  gpu: Gpu,
  kCache: GPUBuffer,
  vCache: GPUBuffer,
  qkv: GPUBuffer,
  positions: GPUBuffer,
  slots: GPUBuffer,
  table: RopeTable,
  shape: CacheRopeShape,
): void {
  const { B, Hq, Hkv, Dh, maxLen } = shape;
  if (Dh !== table.headDim)
    throw new Error(`attention_cache_rope: head dim ${Dh} but the RoPE table is for ${table.headDim}`);
  const cache = B * Hkv * maxLen * Dh;
  checkBuffers('attention_cache_rope', {
    kCache: [kCache, cache],
    vCache: [vCache, cache],
    qkv: [qkv, B * (Hq + 2 * Hkv) * Dh],
    positions: [positions, B],
    slots: [slots, B],
  });
  kernel.dispatch(gpu, {
    buffers: [qkv, positions, slots, table.buffer, kCache, vCache],
    uniforms: { B, Hq, Hkv, Dh, maxLen, maxPos: table.maxPositions, sgn: 1, nanBits: NAN_BITS },
    workgroups: grid1d((B * Hkv * Dh) / 2, WG),
    overrides: { WG },
  });
}

/** Plain-loop reference (float64 RoPE, then the cache append) in place on copies of the caches. */
export function attentionCacheRopeRef(
  kCache: Float32Array,
  vCache: Float32Array,
  qkv: ArrayLike<number>,
  positions: Uint32Array,
  slots: ArrayLike<number>,
  theta: number,
  s: CacheRopeShape,
): void {
  const { B, Hq, Hkv, Dh } = s;
  const row = (Hq + 2 * Hkv) * Dh;
  const k = new Float64Array(B * Hkv * Dh);
  const v = new Float64Array(B * Hkv * Dh);
  for (let b = 0; b < B; b++)
    for (let j = 0; j < Hkv * Dh; j++) {
      k[b * Hkv * Dh + j] = qkv[b * row + Hq * Dh + j];
      v[b * Hkv * Dh + j] = qkv[b * row + (Hq + Hkv) * Dh + j];
    }
  attentionCacheWriteRef(kCache, vCache, ropeForwardRef(k, positions, Hkv, Dh, theta), v, slots, { ...s, n: 1 });
}
