// Causal grouped-query self-attention for training / prefill: forward (saving logsumexp) and backward (dq, dk, dv).
//
// Layout (row-major, T = B·S tokens, B sequences each padded to length S):
//   q, out, dq, dout: [T, Hq, Dh]    k, v, dk, dv: [T, Hkv, Dh]    lse: [T, Hq]
// Hq is a multiple of Hkv (query head h uses kv head floor(h / (Hq/Hkv))); Dh % 4 == 0 and Dh <= 256.
// Scale 1/sqrt(Dh). Row t of sequence b = floor(t / S) attends to keys b·S .. t whose keyMask entry is non-zero
// (keyMask [T] may be u32 0/1 or f32 0.0/1.0; null = all valid), so left-padded rollouts never attend to pads.
// A query with no valid key (a left pad) outputs 0 and lse = -3e38; its gradient is 0.
// The backward runs two passes so no float atomics are needed: per query (D = Σ dO·O and dq), then per key
// (dk, dv summed over the later queries and the group's query heads).
// Each invocation owns `rows` consecutive rows (register tiling: up to 8 on SwiftShader, where B=4 S=256 Hq=4 Dh=32
// costs 67 ms forward / 213 ms backward of worker CPU against 160 / 503 untiled; 1 on real GPUs, where occupancy
// matters more). Shapes and the tiling are uniforms, so one pipeline per kernel serves every shape.
import rowsSource from '../../../shaders/common/attention_rows.wgsl?raw';
import softmaxSource from '../../../shaders/common/online_softmax.wgsl?raw';
import forwardSource from '../../../shaders/attention.wgsl?raw';
import backwardQSource from '../../../shaders/attention_backward_q.wgsl?raw';
import backwardKvSource from '../../../shaders/attention_backward_kv.wgsl?raw';
import { Kernel, type ScalarType } from '../launcher';
import type { Gpu } from '../runtime';
import { grid1d } from './grid';
import { checkBuffers, softwareAdapter } from './logprobs';
import { unrolledKernel, type AttentionPass } from './attention-unrolled';
import { mergeStorage, packedStorage } from './merge-storage';

export interface AttentionShape {
  B: number;
  S: number;
  Hq: number;
  Hkv: number;
  Dh: number;
  /**
   * Also hide query rows whose keyMask entry is 0: they output 0 (lse -3e38), get no gradient and cost no work.
   * For the model's pad rows, which no loss reads: right-padded batches then skip the pads' share of the S² work.
   */
  maskQueries?: boolean;
}

type UName = 'B' | 'S' | 'Hq' | 'Hkv' | 'Dh' | 'hasMask' | 'scale' | 'rows';
const uniforms_: ReadonlyArray<readonly [UName, ScalarType]> = [
  ['B', 'u32'],
  ['S', 'u32'],
  ['Hq', 'u32'],
  ['Hkv', 'u32'],
  ['Dh', 'u32'],
  ['hasMask', 'u32'],
  ['scale', 'f32'],
  ['rows', 'u32'],
];
const forwardKernel = new Kernel({
  family: 'attention',
  source: rowsSource + softmaxSource + forwardSource,
  uniforms: uniforms_,
});
const backwardQKernel = new Kernel({ family: 'attention', source: rowsSource + backwardQSource, uniforms: uniforms_ });
const backwardKvKernel = new Kernel({
  family: 'attention',
  source: rowsSource + backwardKvSource,
  uniforms: uniforms_,
});

/**
 * The backward passes for devices with 8 storage buffers per stage: lse and D share one buffer lsed [2, T, Hq] (lse
 * copied in first), so dq binds 8 and dk/dv 8 instead of 9 each; same math, one small copy more.
 */
export const packLseDsum = (source: string): string => mergeStorage(source, 'lse', 'dsum', 'lsed', 'u.B * u.S * u.Hq');
const packedKernels = {
  backwardQ: new Kernel({
    family: 'attention',
    source: packLseDsum(rowsSource + backwardQSource),
    uniforms: uniforms_,
  }),
  backwardKv: new Kernel({
    family: 'attention',
    source: packLseDsum(rowsSource + backwardKvSource),
    uniforms: uniforms_,
  }),
};

const TILE = 64; // the shaders' private tile: rows · Dh/4 <= TILE

/**
 * Generated kernels unroll rows · Dh/4 vector registers per operand: at most this many, since their compile time
 * grows with it (B=4 S=256 Dh=32 forward + backward here: 8 rows 96 CPU-ms a call but 33 s to compile under load,
 * 4 rows 113 CPU-ms and 15 s; about 270 CPU-ms with the WGSL files).
 */
const UNROLL_VECS = 32;

function useGenerated(gpu: Gpu, s: AttentionShape): boolean {
  const { unrolled } = gpu.tuning.attention;
  return unrolled === 'auto' ? softwareAdapter(gpu) && s.Dh <= 64 : unrolled;
}

function rowsPerInvocation(gpu: Gpu, s: AttentionShape): number {
  const want = gpu.tuning.attention.rows || (softwareAdapter(gpu) ? 8 : 1);
  const cap = useGenerated(gpu, s) ? Math.max(1, Math.floor(UNROLL_VECS / (s.Dh / 4))) : 8;
  return Math.max(1, Math.min(want, cap, Math.floor(TILE / (s.Dh / 4))));
}

const dummies = new WeakMap<Gpu, GPUBuffer>();
export function attentionDummy(gpu: Gpu): GPUBuffer {
  let b = dummies.get(gpu);
  if (!b) dummies.set(gpu, (b = gpu.buffer('attention.dummy', 16)));
  return b;
}

export function checkAttentionShape(s: { Hq: number; Hkv: number; Dh: number }, maxDh = 256): void {
  if (s.Hq % s.Hkv !== 0) throw new Error(`attention: Hq=${s.Hq} is not a multiple of Hkv=${s.Hkv}`);
  if (s.Dh % 4 !== 0 || s.Dh > maxDh) throw new Error(`attention: Dh=${s.Dh} must be a multiple of 4 and <= ${maxDh}`);
}

function uniformValues(gpu: Gpu, s: AttentionShape, mask: GPUBuffer | null): Record<UName, number> {
  checkAttentionShape(s);
  const rows = rowsPerInvocation(gpu, s);
  return {
    B: s.B,
    S: s.S,
    Hq: s.Hq,
    Hkv: s.Hkv,
    Dh: s.Dh,
    hasMask: mask ? (s.maskQueries ? 2 : 1) : 0,
    scale: 1 / Math.sqrt(s.Dh),
    rows,
  };
}

function sizes(s: AttentionShape): { T: number; nq: number; nkv: number } {
  const T = s.B * s.S;
  return { T, nq: T * s.Hq * s.Dh, nkv: T * s.Hkv * s.Dh };
}

/** The generated kernel of a pass where it applies, else the WGSL file's; `packed`: its lse+D variant. */
function pick(
  gpu: Gpu,
  shape: AttentionShape,
  pass: AttentionPass,
  file: Kernel<UName>,
  rows: number,
  packed = false,
): Kernel<UName> {
  // Auto: software adapters, head sizes up to 64 (larger ones unroll into kernels that take minutes to compile).
  if (useGenerated(gpu, shape)) return unrolledKernel(pass, uniforms_, shape.Dh / 4, rows, packed ? packLseDsum : null);
  return packed && pass !== 'forward' ? packedKernels[pass] : file;
}

/** Workgroup grid and size for one invocation per (sequence, chunk of `rows` rows, head). */
function launch(
  gpu: Gpu,
  u: Record<UName, number>,
  heads: number,
): { workgroups: [number, number]; overrides: { WG: number } } {
  const wg = softwareAdapter(gpu) ? 16 : 64;
  return { workgroups: grid1d(u.B * Math.ceil(u.S / u.rows) * heads, wg), overrides: { WG: wg } };
}

/** out [T, Hq, Dh], lse [T, Hq] ← q, k, v, keyMask [T] | null. */
export function attentionForward(
  gpu: Gpu,
  out: GPUBuffer,
  lse: GPUBuffer,
  q: GPUBuffer,
  k: GPUBuffer,
  v: GPUBuffer,
  keyMask: GPUBuffer | null,
  shape: AttentionShape,
): void {
  const uniforms = uniformValues(gpu, shape, keyMask);
  const { T, nq, nkv } = sizes(shape);
  checkBuffers('attention', { out: [out, nq], lse: [lse, T * shape.Hq], q: [q, nq], k: [k, nkv], v: [v, nkv] });
  if (keyMask) checkBuffers('attention', { keyMask: [keyMask, T] });
  pick(gpu, shape, 'forward', forwardKernel, uniforms.rows).dispatch(gpu, {
    buffers: [q, k, v, keyMask ?? attentionDummy(gpu), out, lse],
    uniforms,
    ...launch(gpu, uniforms, shape.Hq),
  });
}

/** dq, dk, dv ← dout and the forward's q, k, v, keyMask, out, lse. Overwrites (does not accumulate). */
export function attentionBackward(
  gpu: Gpu,
  dq: GPUBuffer,
  dk: GPUBuffer,
  dv: GPUBuffer,
  dout: GPUBuffer,
  q: GPUBuffer,
  k: GPUBuffer,
  v: GPUBuffer,
  keyMask: GPUBuffer | null,
  out: GPUBuffer,
  lse: GPUBuffer,
  shape: AttentionShape,
): void {
  const u = uniformValues(gpu, shape, keyMask);
  const { nq, nkv } = sizes(shape);
  checkBuffers('attention', {
    dq: [dq, nq],
    dk: [dk, nkv],
    dv: [dv, nkv],
    dout: [dout, nq],
    q: [q, nq],
    k: [k, nkv],
    v: [v, nkv],
    out: [out, nq],
  });
  if (keyMask) checkBuffers('attention', { keyMask: [keyMask, shape.B * shape.S] });
  const mask = keyMask ?? attentionDummy(gpu);
  const T = shape.B * shape.S;
  if (packedStorage(gpu.device)) {
    const bytes = T * shape.Hq * 4;
    const lsed = gpu.temp('attention.lsed', 2 * bytes);
    gpu.copy(lse, 0, lsed, 0, bytes);
    pick(gpu, shape, 'backwardQ', backwardQKernel, u.rows, true).dispatch(gpu, {
      buffers: [q, k, v, mask, out, dout, lsed, dq],
      uniforms: u,
      ...launch(gpu, u, shape.Hq),
    });
    pick(gpu, shape, 'backwardKv', backwardKvKernel, u.rows, true).dispatch(gpu, {
      buffers: [q, k, v, mask, dout, lsed, dk, dv],
      uniforms: u,
      ...launch(gpu, u, shape.Hkv),
    });
    gpu.release(lsed);
    return;
  }
  const dsum = gpu.temp('attention.dsum', T * shape.Hq * 4);
  pick(gpu, shape, 'backwardQ', backwardQKernel, u.rows).dispatch(gpu, {
    buffers: [q, k, v, mask, out, dout, lse, dsum, dq],
    uniforms: u,
    ...launch(gpu, u, shape.Hq),
  });
  pick(gpu, shape, 'backwardKv', backwardKvKernel, u.rows).dispatch(gpu, {
    buffers: [q, k, v, mask, dout, lse, dsum, dk, dv],
    uniforms: u,
    ...launch(gpu, u, shape.Hkv),
  });
  gpu.release(dsum);
}
