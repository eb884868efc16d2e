// The f16 compute path's weights: every Linear weight (and the lm_head, an f16 copy of the tied embedding when tied)
// held as f16, half the bytes of f32, multiplied by shaders/linear_f16.wgsl: f16 weights, activations rounded to f16
// where the Linear reads and writes them, f32 accumulation. Everything else of the forward (embedding lookup, RMSNorm
// and its sum of squares, RoPE, attention with its softmax, SwiGLU, the residual stream, the KV cache, sampling) stays
// f32, reading the learner's GpuModel as the quantized rollout copy does (rollout-weights.ts). Training is unchanged:
// the learner's backward and AdamW run on its f32 masters; refresh() re-converts after each update, on the GPU.
import type { Gpu } from '../gpu/runtime';
import {
  allocF16Matrix,
  convertToF16,
  f16VariantFor,
  linearF16,
  padHalves,
  type F16Variant,
  type GpuF16Matrix,
} from '../gpu/kernels/linear-f16';
import type { DecodeWeights } from './decode-weights';
import type { GpuModel } from './model';
import type { TensorSpec } from './layout';

/** Why the f16 path cannot run on this device, for the user: what to choose instead. */
export function f16Unavailable(gpu: Gpu, what: string, instead = 'f32 weights, or int8 / int4 quantized ones'): Error {
  const s = gpu.summary;
  const name = [s.vendor, s.architecture, s.description].filter((p) => p && p !== 'unknown').join(' ') || 'unknown';
  return new Error(
    `${what} needs a WebGPU adapter with the 'shader-f16' feature; this one (${name}) does not offer it ` +
      `(SwiftShader and some older GPUs lack it). Use ${instead}.`,
  );
}

export interface F16WeightsOptions {
  /** Default: 'native' where the device has 'shader-f16', otherwise refused. 'packed' runs anywhere (tests). */
  variant?: F16Variant;
  /**
   * Half bits by tensor name (hf/import.ts with weights 'f16'), uploaded as they are instead of converting the
   * learner's f32 Linear slots, which may then be empty (a frozen base imported with denseLinear false).
   */
  halves?: Map<string, Uint16Array>;
}

export class F16Weights implements DecodeWeights {
  readonly label: string;
  readonly variant: F16Variant;
  readonly mats = new Map<TensorSpec, GpuF16Matrix>();
  private readonly fromHalves: boolean;

  constructor(
    readonly model: GpuModel,
    opts: F16WeightsOptions = {},
  ) {
    const variant = opts.variant ?? f16VariantFor(model.gpu);
    if (!variant || (variant === 'native' && !model.gpu.hasF16))
      throw f16Unavailable(model.gpu, `${model.label}: f16 weights`);
    this.variant = variant;
    this.label = `f16[${variant}]`;
    const L = model.layout;
    const linear = [...L.layers.flatMap((l) => [l.q, l.k, l.v, l.o, l.gate, l.up, l.down]), L.lmHead];
    for (const t of linear)
      this.mats.set(t, allocF16Matrix(model.gpu, t.shape[0], t.shape[1], `${this.label}.${t.name}`));
    this.fromHalves = !!opts.halves;
    if (opts.halves) {
      for (const [t, m] of this.mats) {
        const h = opts.halves.get(t.name);
        if (!h || h.length !== t.size) throw new Error(`${this.label}: no f16 values of ${t.size} for ${t.name}`);
        model.gpu.write(m.buffer, padHalves(h, m.rows, m.cols));
      }
    } else this.refresh();
  }

  /** Re-converts every Linear weight from the learner's f32 parameters (recorded, not awaited). */
  refresh(): void {
    if (this.fromHalves) return; // a frozen base: the uploaded halves are the weights
    for (const [t, m] of this.mats) convertToF16(this.model.gpu, m, this.model.p(t));
  }

  linear(y: GPUBuffer, x: GPUBuffer, w: TensorSpec, bias: TensorSpec | undefined, M: number, accumulate = false): void {
    const m = this.mats.get(w);
    if (!m) throw new Error(`${this.label}: ${w.name} is not a Linear weight`);
    const b = bias ? this.model.p(bias) : undefined;
    linearF16(this.model.gpu, { x, w: m, y, M, bias: b, accumulate, variant: this.variant });
  }

  /** Bytes of the f16 weights (rows padded to 4 halves). */
  bytes(): number {
    let n = 0;
    for (const m of this.mats.values()) n += m.buffer.size;
    return n;
  }

  destroy(): void {
    for (const m of this.mats.values()) m.buffer.destroy();
    this.mats.clear();
  }
}
