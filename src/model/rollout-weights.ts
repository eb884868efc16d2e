// Quantized rollout copies of the learner's weights: every Linear weight (and the lm_head, a quantized copy of the
// tied embedding when tied) as int8 or int4 codes read by qmatmul; re-quantized on the GPU after each update.
//
// What stays fp32: the embedding lookup table, norm weights and q/k/v biases are read straight from the learner's
// GpuModel (its mirrors and flat buffer). They are <1 % of the bytes and of the mismatch, and reading them live is
// safe because rollouts and updates alternate. refresh() records one quantize dispatch per tensor reading the
// flat parameter buffer in place (no readback, no upload): on a real GPU it costs one pass over the weights.
// On a CPU adapter (SwiftShader) dequantizing on the fly in every matmul costs more than the weights' bytes save,
// so refresh() also expands the codes once into an fp32 copy (value = code · scale, the very weights qmatmul
// multiplies by) that the fp32 matmul reads: the rollout policy is unchanged, decode and prefill run ~2x faster.
import { qmatmul, type GpuQuantized } from '../gpu/kernels/qmatmul';
import { matmul } from '../gpu/kernels/matmul';
import { softwareAdapter } from '../gpu/kernels/logprobs';
import { linearForward } from './forward';
import { dequantizeOnGpu, quantizeOnGpu } from '../gpu/kernels/quantize';
import type { GpuModel, TensorRef } from './model';
import type { TensorSpec } from './layout';
import { scalesPerRow, wordsPerRow, type QuantFormat } from '../gpu/quant';
import type { DecodeWeights } from './decode-weights';
import { stackedIn } from './decode-fused';

/** The rollout precision knob of the training config ('none' = the learner's fp32 weights). */
export type RolloutQuant = 'int8' | 'int4' | 'none';

/** int8 is block-32 (more robust to trained outliers than per-row at a 3 % size cost); int4 is block-32. */
export function quantFormatFor(q: Exclude<RolloutQuant, 'none'>): QuantFormat {
  return q === 'int8' ? 'int8-b32' : 'int4-b32';
}

export class RolloutWeights implements DecodeWeights {
  readonly quant: Map<TensorSpec, GpuQuantized> = new Map();
  readonly label: string;
  /** The dequantized fp32 copy (HF [out, in] per tensor at `deqOffsets`), when matmuls read fp32. */
  readonly dequantized?: GPUBuffer;
  private readonly deqOffsets = new Map<TensorSpec, number>();

  constructor(
    readonly model: GpuModel,
    readonly format: QuantFormat = 'int8-b32',
    /** Multiply by an fp32 expansion of the codes instead of qmatmul (default: on CPU adapters). */
    dequantize = softwareAdapter(model.gpu),
  ) {
    this.label = `rollout[${format}]`;
    const L = model.layout;
    const linear = [...L.layers.flatMap((l) => [l.q, l.k, l.v, l.o, l.gate, l.up, l.down]), L.lmHead];
    for (const t of linear) {
      const [rows, cols] = t.shape;
      this.quant.set(t, {
        format,
        rows,
        cols,
        data: model.gpu.buffer(`${this.label}.${t.name}.codes`, rows * wordsPerRow(format, cols) * 4),
        scales: model.gpu.buffer(`${this.label}.${t.name}.scales`, rows * scalesPerRow(format, cols) * 4),
      });
    }
    if (dequantize) {
      let n = 0;
      for (const t of linear) {
        this.deqOffsets.set(t, n);
        n += Math.ceil(t.size / 4) * 4; // vec4-aligned offsets for the fast matmul
      }
      this.dequantized = model.gpu.buffer(`${this.label}.dequantized`, n * 4);
    }
    this.refresh();
  }

  /** Re-quantizes every Linear weight from the learner's current fp32 parameters (recorded, not awaited). */
  refresh(): void {
    for (const [t, q] of this.quant) {
      const src = this.model.p(t);
      quantizeOnGpu(this.model.gpu, q, src.buffer, src.offset);
      if (this.dequantized) dequantizeOnGpu(this.model.gpu, q, this.dequantized, this.deqOffsets.get(t) ?? 0);
    }
  }

  linear(y: GPUBuffer, x: GPUBuffer, w: TensorSpec, bias: TensorSpec | undefined, M: number, accumulate = false): void {
    const q = this.quant.get(w);
    if (!q) throw new Error(`${this.label}: ${w.name} is not a quantized Linear weight`);
    if (this.dequantized) {
      linearForward(this.model, y, x, w, bias, M, accumulate, {
        buffer: this.dequantized,
        offset: this.deqOffsets.get(w) ?? 0,
      });
      return;
    }
    qmatmul(this.model.gpu, { x, w: q, y, M, accumulate });
    if (bias)
      matmul(this.model.gpu, {
        a: this.model.ones(M),
        b: this.model.p(bias),
        c: y,
        M,
        N: q.rows,
        K: 1,
        accumulate: true,
      });
  }

  /** Stacked weights of the dequantized copy (tensors are copied in layer order, each at a vec4-aligned offset). */
  stacked(ws: readonly TensorSpec[]): TensorRef | undefined {
    const deq = this.dequantized;
    if (!deq || ws.some((t) => !this.deqOffsets.has(t))) return undefined;
    const at = (t: TensorSpec) => this.deqOffsets.get(t) ?? 0;
    return stackedIn(ws, at, (t) => ({ buffer: deq, offset: at(t) }));
  }

  /** Bytes of the quantized weights (codes + scales). */
  bytes(): number {
    let n = 0;
    for (const q of this.quant.values()) n += q.data.size + q.scales.size;
    return n;
  }

  destroy(): void {
    this.dequantized?.destroy();
    for (const q of this.quant.values()) {
      q.data.destroy();
      q.scales.destroy();
    }
    this.quant.clear();
  }
}
