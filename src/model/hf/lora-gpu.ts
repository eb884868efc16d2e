// LoRA adapters on the GPU: every A and B in one flat f32 buffer (gradients in a second one, same layout), the
// adapter path's forward and backward as matmuls, and DecodeWeights that add the adapters to any base weights
// (the fp32 learner or a quantized rollout copy) so rollouts run on base + current adapters with no merged copy.
//
// Per adapted Linear, with s = alpha / r, x [M, in], t = x·Aᵀ [M, r]:
//   forward   y  += s · t · Bᵀ
//   backward  dB += s · dyᵀ · t        dt = s · dy · B        dA += dtᵀ · x        dx += dt · A
import type { Gpu } from '../../gpu/runtime';
import { linearMatmul } from '../../gpu/kernels/linear-quad';
import { adamwStep, zeroBuffer } from '../../gpu/kernels/adamw';
import { gradNorm, GRADNORM_OUT_BYTES } from '../../gpu/kernels/gradnorm';
import type { OptimConfig } from '../backward-step';
import type { DecodeWeights } from '../decode-weights';
import { alignUp, type TensorSpec } from '../layout';
import type { LoraAdapters, LoraConfig } from './lora';

interface Slot {
  base: TensorSpec;
  /** Float offsets of A [r, in] and B [out, r] in the flat buffers. */
  a: number;
  b: number;
}

export class GpuLora {
  readonly config: LoraConfig;
  readonly scale: number;
  readonly params: GPUBuffer;
  readonly grads: GPUBuffer;
  readonly totalFloats: number;
  private readonly slots = new Map<string, Slot>();
  /** AdamW moments (allocated on the first step) and the steps taken. */
  private moments?: { m: GPUBuffer; v: GPUBuffer };
  step = 0;

  constructor(
    readonly gpu: Gpu,
    adapters: LoraAdapters,
    readonly label = 'lora',
  ) {
    this.config = adapters.config;
    this.scale = adapters.config.alpha / adapters.config.rank;
    const r = adapters.config.rank;
    let off = 0;
    for (const [name, p] of adapters.pairs) {
      const [out, inp] = p.base.shape;
      const a = off;
      off = alignUp(off + r * inp);
      const b = off;
      off = alignUp(off + out * r);
      this.slots.set(name, { base: p.base, a, b });
    }
    this.totalFloats = Math.max(off, 64);
    const flat = new Float32Array(this.totalFloats);
    for (const [name, p] of adapters.pairs) {
      const s = this.slots.get(name) as Slot;
      flat.set(p.A, s.a);
      flat.set(p.B, s.b);
    }
    this.params = gpu.buffer(`${label}.params`, flat);
    this.grads = gpu.buffer(`${label}.grads`, this.totalFloats * 4);
  }

  has(w: TensorSpec): boolean {
    return this.slots.has(w.name);
  }

  private slot(w: TensorSpec): Slot {
    const s = this.slots.get(w.name);
    if (!s) throw new Error(`${this.label}: no adapter on ${w.name}`);
    return s;
  }

  /** Records t = x·Aᵀ [M, r] into a pooled temp (the backward recomputes it from x rather than keeping it). */
  project(w: TensorSpec, x: GPUBuffer, M: number): GPUBuffer {
    const { a } = this.slot(w);
    const r = this.config.rank;
    const t = this.gpu.temp(`${this.label}.t`, M * r * 4);
    linearMatmul(this.gpu, { a: x, b: { buffer: this.params, offset: a }, c: t, M, N: r, K: w.shape[1], transB: true });
    return t;
  }

  /** Records y[M, out] += s·(x·Aᵀ)·Bᵀ; returns t = x·Aᵀ [M, r] (a pooled temp: release it, or keep it for the backward). */
  forward(w: TensorSpec, y: GPUBuffer, x: GPUBuffer, M: number): GPUBuffer {
    const { b } = this.slot(w);
    const out = w.shape[0];
    const r = this.config.rank;
    const t = this.project(w, x, M);
    linearMatmul(this.gpu, {
      a: t,
      b: { buffer: this.params, offset: b },
      c: y,
      M,
      N: out,
      K: r,
      transB: true,
      accumulate: true,
      alpha: this.scale,
    });
    return t;
  }

  /**
   * Records the adapter's backward: dA, dB accumulate into `grads`; dx [M, in] += the adapter path's input gradient
   * (skipped when dx is null).
   */
  backward(w: TensorSpec, dy: GPUBuffer, x: GPUBuffer, t: GPUBuffer, M: number, dx: GPUBuffer | null): void {
    const { a, b } = this.slot(w);
    const [out, inp] = w.shape;
    const r = this.config.rank;
    const gpu = this.gpu;
    linearMatmul(gpu, {
      a: dy,
      b: t,
      c: { buffer: this.grads, offset: b },
      M: out,
      N: r,
      K: M,
      transA: true,
      accumulate: true,
      alpha: this.scale,
    });
    const dt = gpu.temp(`${this.label}.dt`, M * r * 4);
    linearMatmul(gpu, { a: dy, b: { buffer: this.params, offset: b }, c: dt, M, N: r, K: out, alpha: this.scale });
    linearMatmul(gpu, {
      a: dt,
      b: x,
      c: { buffer: this.grads, offset: a },
      M: r,
      N: inp,
      K: M,
      transA: true,
      accumulate: true,
    });
    if (dx)
      linearMatmul(gpu, { a: dt, b: { buffer: this.params, offset: a }, c: dx, M, N: inp, K: r, accumulate: true });
    gpu.release(dt);
  }

  /**
   * Chain rule from a full weight gradient G = dL/dW_eff [out, in] (e.g. a backward run on merged weights):
   * dA += s·Bᵀ·G and dB += s·G·Aᵀ.
   */
  gradsFromWeightGrad(w: TensorSpec, G: { buffer: GPUBuffer; offset: number }): void {
    const { a, b } = this.slot(w);
    const [out, inp] = w.shape;
    const r = this.config.rank;
    const B = { buffer: this.params, offset: b };
    const A = { buffer: this.params, offset: a };
    linearMatmul(this.gpu, {
      a: B,
      b: G,
      c: { buffer: this.grads, offset: a },
      M: r,
      N: inp,
      K: out,
      transA: true,
      accumulate: true,
      alpha: this.scale,
    });
    linearMatmul(this.gpu, {
      a: G,
      b: A,
      c: { buffer: this.grads, offset: b },
      M: out,
      N: r,
      K: inp,
      transB: true,
      accumulate: true,
      alpha: this.scale,
    });
  }

  /** Records W_eff = W + s·B·A for every adapted weight into `dst` (a flat parameter buffer holding a copy of W). */
  mergeInto(dst: GPUBuffer): void {
    const r = this.config.rank;
    for (const { base, a, b } of this.slots.values()) {
      const [out, inp] = base.shape;
      linearMatmul(this.gpu, {
        a: { buffer: this.params, offset: b },
        b: { buffer: this.params, offset: a },
        c: { buffer: dst, offset: base.offset },
        M: out,
        N: inp,
        K: r,
        accumulate: true,
        alpha: this.scale,
      });
    }
  }

  /** Base weight names with an adapter, and their specs. */
  targets(): TensorSpec[] {
    return [...this.slots.values()].map((s) => s.base);
  }

  zeroGrads(): void {
    zeroBuffer(this.gpu, this.grads, this.totalFloats);
  }

  /**
   * Records grad-norm clipping and AdamW over the adapters only (the base is frozen, so its optimizer state never
   * exists). Returns the grad-norm output ([norm, clip, nonFinite, sumsq]; a pooled temp the caller releases).
   */
  optimizerStep(optim: OptimConfig): GPUBuffer {
    const gpu = this.gpu;
    const n = this.totalFloats;
    const clip = gpu.temp(`${this.label}.gradnorm`, GRADNORM_OUT_BYTES);
    gradNorm(gpu, clip, this.grads, n, optim.maxGradNorm);
    if (!this.moments) {
      this.moments = { m: gpu.buffer(`${this.label}.adam_m`, n * 4), v: gpu.buffer(`${this.label}.adam_v`, n * 4) };
    }
    this.step++;
    adamwStep(gpu, this.params, this.moments.m, this.moments.v, this.grads, clip, n, optim.adamw, this.step);
    return clip;
  }

  /** AdamW's moments over the flat adapter buffer and the steps taken (undefined before the first step). */
  async optimizerState(): Promise<{ m: Float32Array; v: Float32Array; step: number } | undefined> {
    if (!this.moments) return undefined;
    const n = this.totalFloats;
    return {
      m: await this.gpu.readF32(this.moments.m, n),
      v: await this.gpu.readF32(this.moments.v, n),
      step: this.step,
    };
  }

  /** Restores what optimizerState() returned (a resumed run continues with the same moments and step count). */
  setOptimizerState(s: { m: Float32Array; v: Float32Array; step: number }): void {
    const n = this.totalFloats;
    if (s.m.length !== n || s.v.length !== n)
      throw new Error(`${this.label}: optimizer state has ${s.m.length} floats, the adapters' layout has ${n}`);
    this.moments ??= {
      m: this.gpu.buffer(`${this.label}.adam_m`, n * 4),
      v: this.gpu.buffer(`${this.label}.adam_v`, n * 4),
    };
    this.gpu.write(this.moments.m, s.m);
    this.gpu.write(this.moments.v, s.v);
    this.step = s.step;
  }

  /** Reads the factors (or their gradients) back, by base weight name. */
  async read(which: 'params' | 'grads' = 'params'): Promise<Map<string, { A: Float32Array; B: Float32Array }>> {
    const flat = await this.gpu.readF32(which === 'params' ? this.params : this.grads, this.totalFloats);
    const r = this.config.rank;
    const out = new Map<string, { A: Float32Array; B: Float32Array }>();
    for (const [name, s] of this.slots) {
      const [o, i] = s.base.shape;
      out.set(name, { A: flat.slice(s.a, s.a + r * i), B: flat.slice(s.b, s.b + o * r) });
    }
    return out;
  }

  destroy(): void {
    this.params.destroy();
    this.grads.destroy();
    this.moments?.m.destroy();
    this.moments?.v.destroy();
  }
}

/** Base weights plus the adapters: what rollouts sample from (base frozen, adapters current). */
export function withLora(base: DecodeWeights, lora: GpuLora): DecodeWeights {
  return {
    model: base.model,
    label: `${base.label}+lora`,
    linear(y, x, w, bias, M, accumulate = false) {
      base.linear(y, x, w, bias, M, accumulate);
      if (lora.has(w)) lora.gpu.release(lora.forward(w, y, x, M));
    },
  };
}
