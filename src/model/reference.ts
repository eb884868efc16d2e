// Float64 CPU reference of the whole model: forward (keeping activations) and manual backward into every parameter.
import type { Layout } from './layout';
import { view } from './layout';
import {
  attention,
  attentionBackward,
  linear,
  linearBackward,
  rmsnorm,
  rmsnormBackward,
  rope,
  swiglu,
  swigluBackward,
  type AttnShape,
  type F64,
} from './reference-ops';

/**
 * A batch of B sequences of length S (T = B·S tokens, row-major). Positions feed RoPE (for left padding they start
 * at 0 on the first real token); `valid` marks real tokens: pad keys are never attended to.
 */
export interface BatchInput {
  batch: number;
  seqLen: number;
  tokens: ArrayLike<number>;
  /** RoPE positions per token; default t within the sequence. */
  positions?: ArrayLike<number>;
  /** 1 for a real token, 0 for padding; default all 1. */
  valid?: ArrayLike<number>;
}

export function defaultPositions(B: number, S: number): Int32Array {
  const p = new Int32Array(B * S);
  for (let b = 0; b < B; b++) for (let t = 0; t < S; t++) p[b * S + t] = t;
  return p;
}

interface LayerCache {
  x: F64;
  r1: F64;
  h1: F64;
  q: F64;
  k: F64;
  v: F64;
  probs: F64;
  attn: F64;
  xMid: F64;
  r2: F64;
  h2: F64;
  g: F64;
  u: F64;
  a: F64;
}

export interface RefForward {
  logits: F64;
  /** Everything the backward needs. */
  cache: { layers: LayerCache[]; xFinal: F64; rf: F64; hf: F64 };
  input: Required<BatchInput>;
}

/** Float64 copy of an f32 flat parameter array (the reference works in float64 on the same layout). */
export function toF64(params: Float32Array | Float64Array): Float64Array {
  return Float64Array.from(params);
}

function complete(input: BatchInput): Required<BatchInput> {
  const T = input.batch * input.seqLen;
  if (input.tokens.length !== T) throw new Error(`reference: tokens has ${input.tokens.length} entries, want ${T}`);
  return {
    ...input,
    positions: input.positions ?? defaultPositions(input.batch, input.seqLen),
    valid: input.valid ?? new Float64Array(T).fill(1),
  };
}

/** A Linear y[T, nOut] = x[T, nIn] · wᵀ + b: reference-ops' float64 one, or an emulation of a GPU kernel's. */
export type LinearOp = typeof linear;

/**
 * Logits [T, V] for a batch, in float64. `linearOp` replaces every Linear (the f16 path's emulation passes the
 * f16 kernel's numerics; f16-reference.ts).
 */
export function referenceForward(
  layout: Layout,
  params: Float64Array,
  batchInput: BatchInput,
  linearOp: LinearOp = linear,
): RefForward {
  const input = complete(batchInput);
  const c = layout.config;
  const { hidden: H, intermediate: I, vocabSize: V } = c;
  const T = input.batch * input.seqLen;
  const qW = c.heads * c.headDim;
  const kW = c.kvHeads * c.headDim;
  const sh: AttnShape = { B: input.batch, S: input.seqLen, heads: c.heads, kvHeads: c.kvHeads, hd: c.headDim };
  const P = (t: Parameters<typeof view>[1]) => view(params, t);

  let x = new Float64Array(T * H);
  const emb = P(layout.embed);
  for (let t = 0; t < T; t++) {
    const tok = input.tokens[t];
    if (!(tok >= 0 && tok < V)) throw new Error(`reference: token ${tok} at ${t} outside vocab ${V}`);
    for (let i = 0; i < H; i++) x[t * H + i] = emb[tok * H + i];
  }
  const layers: LayerCache[] = [];
  for (const L of layout.layers) {
    const { y: h1, rinv: r1 } = rmsnorm(x, P(L.inputNorm), T, H, c.rmsEps);
    const q = linearOp(h1, P(L.q), L.qBias && P(L.qBias), T, H, qW);
    const k = linearOp(h1, P(L.k), L.kBias && P(L.kBias), T, H, kW);
    const v = linearOp(h1, P(L.v), L.vBias && P(L.vBias), T, H, kW);
    rope(q, input.positions, T, c.heads, c.headDim, c.ropeTheta);
    rope(k, input.positions, T, c.kvHeads, c.headDim, c.ropeTheta);
    const { out: attn, probs } = attention(q, k, v, input.valid, sh);
    const o = linearOp(attn, P(L.o), undefined, T, qW, H);
    const xMid = new Float64Array(T * H);
    for (let i = 0; i < xMid.length; i++) xMid[i] = x[i] + o[i];
    const { y: h2, rinv: r2 } = rmsnorm(xMid, P(L.postNorm), T, H, c.rmsEps);
    const g = linearOp(h2, P(L.gate), undefined, T, H, I);
    const u = linearOp(h2, P(L.up), undefined, T, H, I);
    const a = swiglu(g, u);
    const d = linearOp(a, P(L.down), undefined, T, I, H);
    const xOut = new Float64Array(T * H);
    for (let i = 0; i < xOut.length; i++) xOut[i] = xMid[i] + d[i];
    layers.push({ x, r1, h1, q, k, v, probs, attn, xMid, r2, h2, g, u, a });
    x = xOut;
  }
  const { y: hf, rinv: rf } = rmsnorm(x, P(layout.finalNorm), T, H, c.rmsEps);
  const logits = linearOp(hf, P(layout.lmHead), undefined, T, H, V);
  return { logits, cache: { layers, xFinal: x, rf, hf }, input };
}

/** Backward from dL/dlogits [T, V] into a fresh float64 gradient array with the parameter layout. */
export function referenceBackward(layout: Layout, params: Float64Array, fwd: RefForward, dLogits: F64): Float64Array {
  const c = layout.config;
  const { hidden: H, intermediate: I, vocabSize: V } = c;
  const { input, cache } = fwd;
  const T = input.batch * input.seqLen;
  const qW = c.heads * c.headDim;
  const kW = c.kvHeads * c.headDim;
  const sh: AttnShape = { B: input.batch, S: input.seqLen, heads: c.heads, kvHeads: c.kvHeads, hd: c.headDim };
  const grads = new Float64Array(layout.totalFloats);
  const P = (t: Parameters<typeof view>[1]) => view(params, t);
  const G = (t: Parameters<typeof view>[1]) => view(grads, t);

  const dhf = linearBackward(dLogits, cache.hf, P(layout.lmHead), T, H, V, G(layout.lmHead));
  let dx = rmsnormBackward(dhf, cache.xFinal, P(layout.finalNorm), cache.rf, T, H, G(layout.finalNorm));
  for (let l = layout.layers.length - 1; l >= 0; l--) {
    const L = layout.layers[l];
    const a = cache.layers[l];
    // MLP branch: x_out = x_mid + down(swiglu(gate(h2), up(h2))).
    const da = linearBackward(dx, a.a, P(L.down), T, I, H, G(L.down));
    const { dg, du } = swigluBackward(da, a.g, a.u);
    const dh2 = linearBackward(dg, a.h2, P(L.gate), T, H, I, G(L.gate));
    const dh2u = linearBackward(du, a.h2, P(L.up), T, H, I, G(L.up));
    for (let i = 0; i < dh2.length; i++) dh2[i] += dh2u[i];
    const dxMid = rmsnormBackward(dh2, a.xMid, P(L.postNorm), a.r2, T, H, G(L.postNorm));
    for (let i = 0; i < dxMid.length; i++) dxMid[i] += dx[i];
    // Attention branch: x_mid = x + o(attn(rope(q(h1)), rope(k(h1)), v(h1))).
    const dAttn = linearBackward(dxMid, a.attn, P(L.o), T, qW, H, G(L.o));
    const { dq, dk, dv } = attentionBackward(dAttn, a.q, a.k, a.v, a.probs, sh);
    rope(dq, input.positions, T, c.heads, c.headDim, c.ropeTheta, true);
    rope(dk, input.positions, T, c.kvHeads, c.headDim, c.ropeTheta, true);
    const dh1 = linearBackward(dq, a.h1, P(L.q), T, H, qW, G(L.q), L.qBias && G(L.qBias));
    const dh1k = linearBackward(dk, a.h1, P(L.k), T, H, kW, G(L.k), L.kBias && G(L.kBias));
    const dh1v = linearBackward(dv, a.h1, P(L.v), T, H, kW, G(L.v), L.vBias && G(L.vBias));
    for (let i = 0; i < dh1.length; i++) dh1[i] += dh1k[i] + dh1v[i];
    const dxIn = rmsnormBackward(dh1, a.x, P(L.inputNorm), a.r1, T, H, G(L.inputNorm));
    for (let i = 0; i < dxIn.length; i++) dxIn[i] += dxMid[i];
    dx = dxIn;
  }
  const dEmb = G(layout.embed);
  for (let t = 0; t < T; t++) {
    const tok = input.tokens[t];
    for (let i = 0; i < H; i++) dEmb[tok * H + i] += dx[t * H + i];
  }
  return grads;
}
