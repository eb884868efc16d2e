// A frozen base for LoRA with no f32 copy of its Linear weights: every Linear (and the lm_head) held as int8 / int4
// block-quantized codes, or in f32 as the model's own weights, with the adapters on top. It is the model's
// FrozenLinears (the training forward and backward) and DecodeWeights (rollouts) at once, so rollouts, the
// learner's forward and the KL reference (`adaptersOn = false`: the base alone) all read the same weights.
//
// Per adapted Linear W (frozen) with adapters A, B:
//   forward   y (+)= x · dequant(W)ᵀ (+ b) + s·(x·Aᵀ)·Bᵀ                (qmatmul, or the f32 matmul)
//   backward  dx (+)= dy · dequant(W) + s·(dy·B)·A, dA and dB           (qmatmulT: W dequantized inside the kernel)
// The adapter's t = x·Aᵀ is recomputed in the backward from x, which the layer keeps anyway (M·in·r FLOPs, cheap).
// Matrices whose codes exceed one binding (a 152k-vocabulary lm_head in int8) are split by rows: their output
// columns are computed chunk by chunk and placed, their input gradient summed over the chunks.
import type { Gpu } from '../../gpu/runtime';
import { qmatmul, type GpuQuantized } from '../../gpu/kernels/qmatmul';
import { qmatmulT } from '../../gpu/kernels/qmatmul-t';
import { linearMatmul } from '../../gpu/kernels/linear-quad';
import { placeColumns, rowRanges, takeColumns } from '../../gpu/kernels/chunk-rows';
import { quantize, scalesPerRow, wordsPerRow, type QuantFormat, type QuantizedTensor } from '../../gpu/quant';
import { addBias, f32LinearForward } from '../forward';
import type { DecodeWeights } from '../decode-weights';
import { GpuModel, type FrozenLinears } from '../model';
import type { LoadedCheckpoint } from '../checkpoint';
import type { Layout, TensorSpec } from '../layout';
import type { GpuLora } from './lora-gpu';
import { adapterStep } from './lora-learner';
import {
  recordLossAndBackward,
  type LossSpec,
  type MicroBatch,
  type StepHooks,
  type OptimConfig,
  type StepResult,
} from '../backward-step';
import type { GpuBatch } from '../forward-batch';

/** How the frozen base's Linear weights are held. */
export type BaseFormat = 'f32' | QuantFormat;

interface QChunk {
  lo: number;
  q: GpuQuantized;
}

/** The Linear weights a frozen base holds: every layer's seven projections and the lm_head. */
export function baseLinears(layout: Layout): TensorSpec[] {
  return [...layout.layers.flatMap((l) => [l.q, l.k, l.v, l.o, l.gate, l.up, l.down]), layout.lmHead];
}

export class FrozenBase implements FrozenLinears, DecodeWeights {
  readonly label: string;
  /** Off: the base alone (the KL reference policy); on: base + adapters (the current policy). */
  adaptersOn = true;
  private readonly quant = new Map<TensorSpec, QChunk[]>();

  constructor(
    readonly model: GpuModel,
    readonly lora: GpuLora,
    readonly format: BaseFormat,
    /**
     * Where the quantized weights come from (quantized formats only): the import's quantized tensors where it made
     * them in this format (by HF name), the rest quantized here from the host f32 parameters.
     */
    source?: { params: Float32Array; quantized?: Map<string, QuantizedTensor> },
    maxBufferBytes?: number,
  ) {
    this.label = `base[${format}]+lora`;
    if (format !== 'f32') {
      if (!source) throw new Error(`${this.label}: a quantized base needs the parameters to quantize`);
      const lim = model.gpu.device.limits;
      const cap = maxBufferBytes ?? Math.min(lim.maxStorageBufferBindingSize, lim.maxBufferSize);
      for (const t of baseLinears(model.layout)) {
        const [rows, cols] = t.shape;
        const given = source.quantized?.get(t.name);
        const q =
          given?.format === format
            ? given
            : quantize(source.params.subarray(t.offset, t.offset + t.size), rows, cols, format);
        this.quant.set(t, uploadChunks(model.gpu, t, q, cap));
      }
    }
  }

  forward(y: GPUBuffer, x: GPUBuffer, w: TensorSpec, bias: TensorSpec | undefined, T: number, accumulate: boolean) {
    const chunks = this.quant.get(w);
    if (!chunks) f32LinearForward(this.model, y, x, w, bias, T, accumulate);
    else {
      const gpu = this.model.gpu;
      if (chunks.length === 1) qmatmul(gpu, { x, w: chunks[0].q, y, M: T, accumulate });
      else {
        const N = w.shape[0];
        for (const { lo, q } of chunks) {
          const blk = gpu.temp('base.chunk', T * q.rows * 4);
          if (accumulate) takeColumns(gpu, blk, y, T, q.rows, N, lo);
          qmatmul(gpu, { x, w: q, y: blk, M: T, accumulate });
          placeColumns(gpu, y, blk, T, q.rows, N, lo);
          gpu.release(blk);
        }
      }
      if (bias) addBias(this.model, y, bias, T);
    }
    if (this.adaptersOn && this.lora.has(w)) this.model.gpu.release(this.lora.forward(w, y, x, T));
  }

  /** DecodeWeights: the rollout path reads the same base and adapters. */
  linear(y: GPUBuffer, x: GPUBuffer, w: TensorSpec, bias: TensorSpec | undefined, M: number, accumulate = false) {
    this.forward(y, x, w, bias, M, accumulate);
  }

  backward(dx: GPUBuffer | null, dy: GPUBuffer, x: GPUBuffer, w: TensorSpec, T: number, accumulateDx: boolean) {
    const gpu = this.model.gpu;
    if (dx) this.baseInputGrad(dx, dy, w, T, accumulateDx);
    if (!this.adaptersOn || !this.lora.has(w)) return;
    const t = this.lora.project(w, x, T);
    this.lora.backward(w, dy, x, t, T, dx);
    gpu.release(t);
  }

  /** dx[T, in] (+)= dy[T, out] · W, chunk by chunk for a row-split W (the chunks' terms add up). */
  private baseInputGrad(dx: GPUBuffer, dy: GPUBuffer, w: TensorSpec, T: number, accumulate: boolean): void {
    const gpu = this.model.gpu;
    const [N, K] = w.shape;
    const quant = this.quant.get(w);
    if (!quant && !this.model.isRowSplit(w)) {
      linearMatmul(gpu, { a: dy, b: this.model.p(w), c: dx, M: T, N: K, K: N, accumulate });
      return;
    }
    const parts = quant
      ? quant.map(({ lo, q }) => ({ lo, rows: q.rows, q, ref: undefined }))
      : this.model.chunks(w).map((c) => ({ lo: c.lo, rows: c.rows, q: undefined, ref: c.buffer }));
    parts.forEach((p, i) => {
      const acc = accumulate || i > 0;
      let src = dy;
      if (parts.length > 1) {
        src = gpu.temp('base.dyChunk', T * p.rows * 4);
        takeColumns(gpu, src, dy, T, p.rows, N, p.lo);
      }
      if (p.q) qmatmulT(gpu, { dy: src, w: p.q, dx, M: T, accumulate: acc });
      else if (p.ref) linearMatmul(gpu, { a: src, b: p.ref, c: dx, M: T, N: K, K: p.rows, accumulate: acc });
      if (src !== dy) gpu.release(src);
    });
  }

  /** Bytes of the quantized weights (codes + scales); 0 for an f32 base (the model holds it). */
  bytes(): number {
    let n = 0;
    for (const c of this.quant.values()) for (const { q } of c) n += q.data.size + q.scales.size;
    return n;
  }

  destroy(): void {
    for (const c of this.quant.values())
      for (const { q } of c) {
        q.data.destroy();
        q.scales.destroy();
      }
    this.quant.clear();
  }
}

/** A quantized tensor uploaded in row chunks whose codes fit `cap` bytes (block rows are independent). */
function uploadChunks(gpu: Gpu, t: TensorSpec, q: QuantizedTensor, cap: number): QChunk[] {
  const { format, cols } = q;
  const [wpr, spr] = [wordsPerRow(format, cols), scalesPerRow(format, cols)];
  return rowRanges(q.rows, Math.floor(cap / (Math.max(wpr, spr) * 4))).map(({ lo, rows }, i) => {
    const label = `base.${t.name}[${i}]`;
    return {
      lo,
      q: {
        format,
        rows,
        cols,
        data: gpu.buffer(`${label}.codes`, q.data.subarray(lo * wpr, (lo + rows) * wpr)),
        scales: gpu.buffer(`${label}.scales`, q.scales.subarray(lo * spr, (lo + rows) * spr)),
      },
    };
  });
}

/**
 * The learner's model for LoRA on a frozen base: with a quantized base, only the embedding, norms and biases get f32
 * storage (the Linear weights live in FrozenBase); with an f32 base, the model holds them all. The model's
 * FrozenLinears is the returned base.
 */
export function frozenLoraModel(
  gpu: Gpu,
  ckpt: LoadedCheckpoint,
  lora: GpuLora,
  format: BaseFormat,
  label: string,
  maxBufferBytes?: number,
): { model: GpuModel; base: FrozenBase } {
  const quantized = format !== 'f32';
  const linears = new Set(baseLinears(ckpt.layout));
  // A tied lm_head is the embedding table: the lookup keeps the f32 table, the head matmul reads FrozenBase's codes.
  const skip = (t: TensorSpec) => quantized && linears.has(t) && t !== ckpt.layout.embed;
  const model = new GpuModel(gpu, ckpt.layout, ckpt.params, label, { skip, maxBufferBytes });
  const base = new FrozenBase(model, lora, format, ckpt, maxBufferBytes);
  model.frozen = base;
  return { model, base };
}

/**
 * LoRA training on a frozen base (quantized or f32) with no merged weights, no base copy and no base gradients: the
 * usual loss + backward on the model fill only the adapters' gradients (FrozenLinears), then grad-norm clipping and
 * AdamW run over the adapters. The KL reference policy is the same model with the adapters off.
 */
export class FrozenLoraLearner {
  constructor(
    readonly model: GpuModel,
    readonly base: FrozenBase,
  ) {
    if (model.frozen !== base) throw new Error(`${model.label}: the model's FrozenLinears is not this base`);
  }

  get lora(): GpuLora {
    return this.base.lora;
  }

  /** Switches between the current policy (adapters on) and the KL reference (the base alone). */
  readonly reference = {
    enter: () => {
      this.base.adaptersOn = false;
    },
    leave: () => {
      this.base.adaptersOn = true;
    },
  };

  /** Records loss + backward; the adapters' gradients accumulate (not zeroed here). */
  recordGrads(batch: GpuBatch, spec: LossSpec) {
    if (!this.base.adaptersOn) throw new Error(`${this.model.label}: training with the adapters off`);
    return recordLossAndBackward(this.model, batch, spec);
  }

  /** One AdamW step of the adapters over micro-batches (gradient accumulation, as LoraLearner.stepMicro). */
  stepMicro(micro: MicroBatch[], optim: OptimConfig, hooks?: StepHooks): Promise<StepResult> {
    return adapterStep(
      this.lora,
      micro,
      (b, s) => this.recordGrads(b, s),
      optim,
      () => {},
      hooks,
    );
  }
}
