// Inference forward for the sampler: a batched prefill of left-padded prompts that fills per-layer KV caches, then
// one-token decode steps against them, reusing the layer kernels. Weights come from a DecodeWeights: the learner's
// fp32 parameters or a quantized rollout copy. Only the last position's logits are computed.
//
// Cache layout (attention-decode.ts): [B, Hkv, maxLen, Dh] per layer. Prompts sit in slots 0..P-1 left-padded
// (row b's pads in slots 0..pad_b-1 are hidden by keyValid), generated token i goes to slot P + i. Positions count
// from the first real token, so a row's RoPE phases do not depend on how much padding its batch needed.
import type { Gpu } from '../gpu/runtime';
import { rmsnormForward } from '../gpu/kernels/rmsnorm';
import { ropeForward } from '../gpu/kernels/rope';
import { swigluForward, swigluForwardFused } from '../gpu/kernels/swiglu';
import { attentionCacheRope } from '../gpu/kernels/attention-cache-rope';
import { attentionForward, type AttentionShape } from '../gpu/kernels/attention';
import { attentionCacheWrite, attentionDecode } from '../gpu/kernels/attention-decode';
import { advanceCounters } from '../gpu/kernels/sample';
import { fusable, stackedLinear } from './decode-fused';
import type { DecodeWeights } from './decode-weights';
import { forEachRun, leftPad } from './batch-rows';
import type { GpuModel, TensorRef } from './model';

/** Per-batch decode buffers: KV caches, counters, one-token activations. Create once per generate call. */
export class DecodeState {
  readonly caches: { k: GPUBuffer; v: GPUBuffer }[] = [];
  /** u32 [B]: RoPE position, cache slot and attended key count of the token being decoded (advanced on the GPU). */
  readonly positions: GPUBuffer;
  readonly slots: GPUBuffer;
  readonly lens: GPUBuffer;
  /** u32 [B, maxLen]: 1 where a cache slot holds a real token. */
  readonly keyValid: GPUBuffer;
  /** u32 [B]: the token fed to the next decode step (written by the sampler). */
  readonly next: GPUBuffer;
  /** f32 [B, V]: logits of the last position. */
  readonly logits: GPUBuffer;
  /** One-token activations and residual stream, reused by every decode step (the queue orders the steps). */
  readonly acts: Acts;
  readonly x: GPUBuffer;
  /** Per layer, when decodeFusion applies: the stacked q|k|v weights and their biases as one [(Hq + 2 Hkv)·Dh]. */
  readonly qkv?: { w: TensorRef; bias?: GPUBuffer }[];
  private readonly bufs: GPUBuffer[] = [];
  P = 0;

  constructor(
    readonly w: DecodeWeights,
    readonly B: number,
    /** Cache slots: longest prompt + max new tokens. */
    readonly maxLen: number,
  ) {
    const gpu = w.model.gpu;
    const c = w.model.config;
    const kvBytes = B * c.kvHeads * maxLen * c.headDim * 4;
    for (let l = 0; l < c.layers; l++) {
      this.caches.push({ k: this.own(gpu, `kv.${l}.k`, kvBytes), v: this.own(gpu, `kv.${l}.v`, kvBytes) });
    }
    this.positions = this.own(gpu, 'decode.positions', B * 4);
    this.slots = this.own(gpu, 'decode.slots', B * 4);
    this.lens = this.own(gpu, 'decode.lens', B * 4);
    this.keyValid = this.own(gpu, 'decode.keyValid', B * maxLen * 4);
    this.next = this.own(gpu, 'decode.next', B * 4);
    this.logits = this.own(gpu, 'decode.logits', B * c.vocabSize * 4);
    this.acts = allocActs(w, B, (label, bytes) => this.own(gpu, label, bytes), true);
    this.x = this.own(gpu, 'decode.x', B * c.hidden * 4);
    if (this.acts.qkv) {
      // The biases are read live from the learner (as the unfused path does), copied side by side for this state.
      this.qkv = w.model.layout.layers.map((L) => {
        const fusedW = w.stacked?.([L.q, L.k, L.v]) as TensorRef;
        if (!L.qBias || !L.kBias || !L.vBias) return { w: fusedW };
        const bias = this.own(gpu, 'decode.qkvBias', (L.q.shape[0] + 2 * L.k.shape[0]) * 4);
        let at = 0;
        for (const t of [L.qBias, L.kBias, L.vBias]) {
          const src = w.model.p(t);
          gpu.copy(src.buffer, src.offset * 4, bias, at, t.size * 4);
          at += t.size * 4;
        }
        return { w: fusedW, bias };
      });
    }
  }

  private own(gpu: Gpu, label: string, bytes: number): GPUBuffer {
    const b = gpu.buffer(label, bytes);
    this.bufs.push(b);
    return b;
  }

  /**
   * A state whose row i is row `from[i]` of this one: caches, counters, key validity, next token and logits copied
   * over (runs of adjacent rows in one copy each). Dropping finished rows (ascending `from`) and fanning a prefilled
   * prompt out to its repeats (repeated indices) are both this. This state is destroyed once the GPU has the copies.
   */
  gather(from: number[]): DecodeState {
    const gpu = this.w.model.gpu;
    const c = this.w.model.config;
    const st = new DecodeState(this.w, from.length, this.maxLen);
    st.P = this.P;
    const kvRow = c.kvHeads * this.maxLen * c.headDim * 4;
    const perRow: [GPUBuffer, GPUBuffer, number][] = [
      [this.positions, st.positions, 4],
      [this.slots, st.slots, 4],
      [this.lens, st.lens, 4],
      [this.next, st.next, 4],
      [this.keyValid, st.keyValid, this.maxLen * 4],
      [this.logits, st.logits, c.vocabSize * 4],
    ];
    for (let l = 0; l < this.caches.length; l++) {
      perRow.push([this.caches[l].k, st.caches[l].k, kvRow], [this.caches[l].v, st.caches[l].v, kvRow]);
    }
    forEachRun(from, (src, dst, n) => {
      for (const [a, b, bytes] of perRow) gpu.copy(a, src * bytes, b, dst * bytes, n * bytes);
    });
    gpu.submit();
    void gpu.device.queue.onSubmittedWorkDone().then(() => this.destroy());
    return st;
  }

  destroy(): void {
    for (const b of this.bufs) b.destroy();
  }
}

/** One forward's activations for T rows (pooled temps for a prefill, persistent buffers for decode steps). */
interface Acts {
  h: GPUBuffer;
  rstd: GPUBuffer;
  qPre: GPUBuffer;
  kPre: GPUBuffer;
  q: GPUBuffer;
  k: GPUBuffer;
  v: GPUBuffer;
  attn: GPUBuffer;
  g: GPUBuffer;
  u: GPUBuffer;
  a: GPUBuffer;
  /** [T, 2·I] gate | up rows, when the gate and up weights are stacked (then g and u are unused). */
  gu?: GPUBuffer;
  /** [T, (Hq + 2 Hkv)·Dh] q | k | v rows (decode with stacked q/k/v weights: then qPre, kPre, k and v are unused). */
  qkv?: GPUBuffer;
}

function allocActs(
  w: DecodeWeights,
  T: number,
  alloc: (label: string, bytes: number) => GPUBuffer,
  decode = false,
): Acts {
  const c = w.model.config;
  const qW = c.heads * c.headDim;
  const kW = c.kvHeads * c.headDim;
  const I = c.intermediate;
  const f = (label: string, n: number) => alloc(`dec.${label}`, n * 4);
  const fuse = fusable(w);
  const qkv = decode && fuse.qkv;
  // Buffers a fused layout leaves unused get a token size (the record stays uniform).
  const g = (label: string, n: number, used: boolean) => f(label, used ? n : 1);
  return {
    h: f('h', T * c.hidden),
    rstd: f('rstd', T),
    qPre: g('qPre', T * qW, !qkv),
    kPre: g('kPre', T * kW, !qkv),
    q: f('q', T * qW),
    k: g('k', T * kW, !qkv),
    v: g('v', T * kW, !qkv),
    attn: f('attn', T * qW),
    g: g('gate', T * I, !fuse.gu),
    u: g('up', T * I, !fuse.gu),
    a: f('swiglu', T * I),
    ...(fuse.gu ? { gu: f('gu', 2 * T * I) } : {}),
    ...(qkv ? { qkv: f('qkv', T * (qW + 2 * kW)) } : {}),
  };
}

function releaseActs(w: DecodeWeights, acts: Acts): void {
  for (const b of Object.values(acts) as GPUBuffer[]) w.model.gpu.release(b);
}

/** Records the transformer body over T rows of x (in place: x ends as the residual stream after the last layer). */
function layers(
  w: DecodeWeights,
  acts: Acts,
  x: GPUBuffer,
  T: number,
  positions: GPUBuffer,
  attend: (l: number, out: GPUBuffer, q: GPUBuffer, k: GPUBuffer, v: GPUBuffer) => void,
  /** Decode with stacked q/k/v weights: appends k (after RoPE) and v of the fused rows, then attends q. */
  fused?: {
    qkv: { w: TensorRef; bias?: GPUBuffer }[];
    attend: (l: number, out: GPUBuffer, q: GPUBuffer, qkv: GPUBuffer) => void;
  },
): void {
  const model = w.model;
  const gpu = model.gpu;
  const c = model.config;
  const H = c.hidden;
  const I = c.intermediate;
  const { h, rstd, qPre, kPre, q, k, v, attn, g, u, a, gu, qkv } = acts;
  model.layout.layers.forEach((L, l) => {
    rmsnormForward(gpu, h, rstd, x, model.mirror(L.inputNorm), T, H, c.rmsEps);
    if (fused && qkv) {
      const width = (c.heads + 2 * c.kvHeads) * c.headDim;
      stackedLinear(model, qkv, h, fused.qkv[l].w, fused.qkv[l].bias, T, width, H);
      ropeForward(gpu, q, qkv, positions, model.rope, T, c.heads, { inStride: width });
      fused.attend(l, attn, q, qkv);
    } else {
      w.linear(qPre, h, L.q, L.qBias, T);
      w.linear(kPre, h, L.k, L.kBias, T);
      w.linear(v, h, L.v, L.vBias, T);
      ropeForward(gpu, q, qPre, positions, model.rope, T, c.heads);
      ropeForward(gpu, k, kPre, positions, model.rope, T, c.kvHeads);
      attend(l, attn, q, k, v);
    }
    w.linear(x, attn, L.o, undefined, T, true);
    rmsnormForward(gpu, h, rstd, x, model.mirror(L.postNorm), T, H, c.rmsEps);
    const guW = gu && w.stacked?.([L.gate, L.up]);
    if (gu && guW) {
      stackedLinear(model, gu, h, guW, undefined, T, 2 * I, H);
      swigluForwardFused(gpu, a, gu, T, I);
    } else {
      w.linear(g, h, L.gate, undefined, T);
      w.linear(u, h, L.up, undefined, T);
      swigluForward(gpu, a, g, u, T * I);
    }
    w.linear(x, a, L.down, undefined, T, true);
  });
}

/** Final norm and lm_head on B rows of x → logits [B, V] (acts.h and acts.rstd as scratch; B <= their rows). */
function head(w: DecodeWeights, acts: Acts, logits: GPUBuffer, x: GPUBuffer, B: number): void {
  const model = w.model;
  const c = model.config;
  rmsnormForward(model.gpu, acts.h, acts.rstd, x, model.mirror(model.layout.finalNorm), B, c.hidden, c.rmsEps);
  w.linear(logits, acts.h, model.layout.lmHead, undefined, B);
}

/** Attention over B padded prompts of P tokens; pad query rows are masked too (nothing reads their output). */
function promptAttention(model: GpuModel, B: number, P: number): AttentionShape {
  const c = model.config;
  return { B, S: P, Hq: c.heads, Hkv: c.kvHeads, Dh: c.headDim, maskQueries: true };
}

/**
 * Records the prefill of left-padded prompts [B, P]: fills the caches' slots 0..P-1, leaves the last position's
 * logits in st.logits and sets the counters for the first decode step (slot P).
 */
export function prefill(st: DecodeState, prompts: number[][], padId: number): { P: number; pads: number[] } {
  const model = st.w.model;
  const gpu = model.gpu;
  const c = model.config;
  const B = st.B;
  if (prompts.length !== B) throw new Error(`prefill: ${prompts.length} prompts for a batch of ${B}`);
  const lp = leftPad(prompts, padId);
  const P = lp.P;
  if (P >= st.maxLen) throw new Error(`prefill: prompt length ${P} leaves no room in ${st.maxLen} cache slots`);
  // A row's position never exceeds its cache slot, so maxLen bounds every position.
  if (st.maxLen > model.rope.maxPositions)
    throw new Error(`prefill: ${st.maxLen} cache slots exceed the RoPE table (${model.rope.maxPositions} positions)`);
  st.P = P;
  const T = B * P;
  const ids = gpu.buffer('prefill.ids', lp.tokens);
  const positions = gpu.buffer('prefill.positions', lp.positions);
  const valid = gpu.buffer('prefill.valid', lp.valid);
  const zeros = gpu.buffer('prefill.start', new Uint32Array(B));
  const keyValid = new Uint32Array(B * st.maxLen);
  lp.pads.forEach((pad, b) => keyValid.fill(1, b * st.maxLen + pad, (b + 1) * st.maxLen));
  gpu.write(st.keyValid, keyValid);
  gpu.write(
    st.positions,
    Uint32Array.from(prompts, (p) => p.length),
  );
  gpu.write(st.slots, new Uint32Array(B).fill(P));
  gpu.write(st.lens, new Uint32Array(B).fill(P + 1));

  const x = gpu.temp('prefill.x', T * c.hidden * 4);
  model.embedTokens(x, ids, T);
  const lse = gpu.temp('prefill.lse', T * c.heads * 4);
  const acts = allocActs(st.w, T, (label, bytes) => gpu.temp(label, bytes));
  layers(st.w, acts, x, T, positions, (l, out, q, k, v) => {
    attentionForward(gpu, out, lse, q, k, v, valid, promptAttention(model, B, P));
    attentionCacheWrite(gpu, st.caches[l].k, st.caches[l].v, k, v, zeros, {
      B,
      n: P,
      Hkv: c.kvHeads,
      Dh: c.headDim,
      maxLen: st.maxLen,
    });
  });
  // Gather each row's last position (always a real token: padding is on the left).
  const xLast = gpu.temp('prefill.xLast', B * c.hidden * 4);
  const rowBytes = c.hidden * 4;
  for (let b = 0; b < B; b++) gpu.copy(x, ((b + 1) * P - 1) * rowBytes, xLast, b * rowBytes, rowBytes);
  head(st.w, acts, st.logits, xLast, B);
  releaseActs(st.w, acts);
  for (const b of [x, lse, xLast]) gpu.release(b);
  // The one-shot inputs are destroyed once the GPU is done with them.
  gpu.submit();
  const once = [ids, positions, valid, zeros];
  void gpu.device.queue.onSubmittedWorkDone().then(() => once.forEach((b) => b.destroy()));
  return { P, pads: lp.pads };
}

/** Records one decode step: st.next (the last sampled tokens) → st.logits, then advances the counters. */
export function decodeStep(st: DecodeState): void {
  const model = st.w.model;
  const gpu = model.gpu;
  const c = model.config;
  const B = st.B;
  const x = st.x;
  model.embedTokens(x, st.next, B);
  const shape = { B, Hq: c.heads, Hkv: c.kvHeads, Dh: c.headDim, maxLen: st.maxLen };
  const fromQkv = (l: number, out: GPUBuffer, q: GPUBuffer, qkv: GPUBuffer) => {
    attentionCacheRope(gpu, st.caches[l].k, st.caches[l].v, qkv, st.positions, st.slots, model.rope, shape);
    attentionDecode(gpu, out, q, st.caches[l].k, st.caches[l].v, st.lens, st.keyValid, shape);
  };
  const fused = st.qkv ? { qkv: st.qkv, attend: fromQkv } : undefined;
  layers(
    st.w,
    st.acts,
    x,
    B,
    st.positions,
    (l, out, q, k, v) => {
      const cache = st.caches[l];
      attentionCacheWrite(gpu, cache.k, cache.v, k, v, st.slots, {
        B,
        n: 1,
        Hkv: c.kvHeads,
        Dh: c.headDim,
        maxLen: st.maxLen,
      });
      attentionDecode(gpu, out, q, cache.k, cache.v, st.lens, st.keyValid, shape);
    },
    fused,
  );
  head(st.w, st.acts, st.logits, x, B);
  advanceCounters(gpu, st.positions, st.slots, st.lens, B);
}

/**
 * Logits at every position of left-padded sequences [B, P] with these weights, without a cache (for measuring the
 * rollout/learner mismatch on finished sequences). Returns a buffer [B·P, V] the caller destroys, and the padding.
 */
export function forwardAllLogits(
  w: DecodeWeights,
  seqs: number[][],
  padId: number,
): { logits: GPUBuffer; P: number; pads: number[] } {
  const model = w.model;
  const gpu = model.gpu;
  const c = model.config;
  const B = seqs.length;
  const lp = leftPad(seqs, padId);
  const P = lp.P;
  if (P > model.rope.maxPositions)
    throw new Error(`forwardAllLogits: length ${P} exceeds the RoPE table (${model.rope.maxPositions})`);
  const T = B * P;
  const ids = gpu.buffer('fwd.ids', lp.tokens);
  const positions = gpu.buffer('fwd.positions', lp.positions);
  const valid = gpu.buffer('fwd.valid', lp.valid);
  const x = gpu.temp('fwd.x', T * c.hidden * 4);
  model.embedTokens(x, ids, T);
  const lse = gpu.temp('fwd.lse', T * c.heads * 4);
  const acts = allocActs(w, T, (label, bytes) => gpu.temp(label, bytes));
  layers(w, acts, x, T, positions, (_l, out, q, k, v) => {
    attentionForward(gpu, out, lse, q, k, v, valid, promptAttention(model, B, P));
  });
  const logits = gpu.buffer(`${w.label}.logits`, T * c.vocabSize * 4);
  head(w, acts, logits, x, T);
  releaseActs(w, acts);
  gpu.release(x);
  gpu.release(lse);
  gpu.submit();
  const once = [ids, positions, valid];
  void gpu.device.queue.onSubmittedWorkDone().then(() => once.forEach((b) => b.destroy()));
  return { logits, P, pads: lp.pads };
}
