// The GPU-resident model: flat parameter / gradient / AdamW-moment buffers cut by the layout, and the RoPE table.
//
// Kernels that take an element offset (matmul) read tensors straight out of the flat buffers. Kernels that bind a
// whole buffer (embedding, rmsnorm weights) get a "mirror": a small standalone copy of that tensor, refreshed by a
// buffer copy whenever the flat parameters change (upload, optimizer step). Their gradients go through a pooled
// temp that is copied in from and back to the flat gradient (so accumulation semantics hold). The runtime's
// launcher binds whole buffers only, which is why mirrors exist at all; on real GPUs they cost < 1 % of a step.
//
// Usage (see forward.ts, backward-step.ts, forward-logprobs.ts):
//   const model = new GpuModel(gpu, buildLayout(preset('tiny')), initParams(layout, seed));   // or fromCheckpoint
//   const batch = uploadBatch(gpu, { batch: B, seqLen: S, tokens, positions, valid, targets, mask });
//   await trainStep(model, batch, { kind: 'sft' }, DEFAULT_OPTIM);         // or a GrpoLoss spec
//   const { logp } = await computeLogprobs(model, batch, temperature);     // old / reference log-probs
//   const files = await model.checkpoint({ quant: 'int8-row', tokenizerJson });
// Anything that writes `params` on the GPU itself (e.g. copying another model's weights) must call
// refreshMirrors() afterwards.
import type { Gpu } from '../gpu/runtime';
import { createRopeTable, type RopeTable } from '../gpu/kernels/rope';
import { zeroBuffer } from '../gpu/kernels/adamw';
import type { ModelConfig } from './config';
import { buildLayout, type Layout, type TensorSpec } from './layout';
import { saveCheckpoint, type CheckpointFiles, type LoadedCheckpoint, type SaveOptions } from './checkpoint';

export interface TensorRef {
  buffer: GPUBuffer;
  /** Offset in f32 elements. */
  offset: number;
}

export class GpuModel {
  readonly layout: Layout;
  readonly config: ModelConfig;
  /** Flat f32 parameters (the learner's fp32 masters). */
  readonly params: GPUBuffer;
  private gradsBuf?: GPUBuffer;
  readonly rope: RopeTable;
  /** Whole-buffer copies of the tensors whose kernels take no offset (embedding table, norm weights). */
  private readonly mirrors = new Map<TensorSpec, GPUBuffer>();
  /** A row of ones, [maxTokens], for bias forward (ones·b) and bias gradients (onesᵀ·dy) as matmuls. */
  private onesBuf?: GPUBuffer;
  private onesLen = 0;
  /** AdamW moments, allocated on the first optimizer step. */
  moments?: { m: GPUBuffer; v: GPUBuffer };
  /** Optimizer steps taken (AdamW bias correction counts from 1). */
  step = 0;

  constructor(
    readonly gpu: Gpu,
    configOrLayout: ModelConfig | Layout,
    initial?: Float32Array,
    readonly label = 'model',
  ) {
    this.layout = 'tensors' in configOrLayout ? configOrLayout : buildLayout(configOrLayout);
    this.config = this.layout.config;
    const bytes = this.layout.totalFloats * 4;
    // Kernels bind the whole flat buffer (with element offsets), so it must fit one storage binding.
    const maxBinding = gpu.device.limits.maxStorageBufferBindingSize;
    if (bytes > maxBinding) {
      throw new Error(
        `${label}: ${bytes} bytes of f32 parameters exceed this device's maxStorageBufferBindingSize (${maxBinding})`,
      );
    }
    this.params = gpu.buffer(`${label}.params`, bytes);
    this.rope = createRopeTable(gpu, this.config.headDim, this.config.ropeTheta, this.config.maxSeqLen);
    // Biases too: the elementwise kernel broadcasts b by its arrayLength, so a bias needs an exactly-sized buffer
    // (≥ 4 floats; runtime buffers are at least 16 bytes).
    const biases = this.layout.layers
      .flatMap((l) => [l.qBias, l.kBias, l.vBias])
      .filter((t): t is TensorSpec => !!t && t.size >= 4);
    for (const t of [
      this.layout.embed,
      this.layout.finalNorm,
      ...this.layout.layers.flatMap((l) => [l.inputNorm, l.postNorm]),
      ...biases,
    ]) {
      this.mirrors.set(t, gpu.buffer(`${label}.mirror:${t.name}`, t.size * 4));
    }
    if (initial) this.upload(initial);
  }

  /**
   * Flat f32 gradients, same layout; zeroed by `zeroGrads`, accumulated by backward. Allocated on first use, so a
   * frozen model (the GRPO reference policy, a sampler-only copy) costs one parameter buffer, not two.
   */
  get grads(): GPUBuffer {
    this.gradsBuf ??= this.gpu.buffer(`${this.label}.grads`, this.layout.totalFloats * 4);
    return this.gradsBuf;
  }

  /** Replaces all parameters (e.g. after loading a checkpoint) and refreshes the mirrors. */
  upload(params: Float32Array): void {
    if (params.length !== this.layout.totalFloats)
      throw new Error(`${this.label}: ${params.length} floats uploaded, layout has ${this.layout.totalFloats}`);
    this.gpu.write(this.params, params);
    this.refreshMirrors();
  }

  /** Copies another model's parameters on the GPU (same layout), e.g. to snapshot a GRPO reference policy. */
  copyParamsFrom(src: GpuModel): void {
    if (src.layout.totalFloats !== this.layout.totalFloats)
      throw new Error(`${this.label}: cannot copy parameters from '${src.label}' (layout differs)`);
    this.gpu.copy(src.params, 0, this.params, 0, this.layout.totalFloats * 4);
    this.refreshMirrors();
  }

  /** Records copies flat → mirrors; call after anything writes `params` on the GPU. */
  refreshMirrors(): void {
    for (const [t, buf] of this.mirrors) this.gpu.copy(this.params, t.offset * 4, buf, 0, t.size * 4);
  }

  /** A tensor inside the flat parameters, for offset-taking kernels. */
  p(t: TensorSpec): TensorRef {
    return { buffer: this.params, offset: t.offset };
  }

  /** A tensor inside the flat gradients. */
  g(t: TensorSpec): TensorRef {
    return { buffer: this.grads, offset: t.offset };
  }

  /** Whether `t` has a standalone copy. */
  hasMirror(t: TensorSpec): boolean {
    return this.mirrors.has(t);
  }

  /** The standalone copy of a mirrored tensor (embedding table, norm weight, bias). */
  mirror(t: TensorSpec): GPUBuffer {
    const m = this.mirrors.get(t);
    if (!m) throw new Error(`${this.label}: no mirror for ${t.name}`);
    return m;
  }

  /**
   * Runs `fn` on a standalone buffer holding the current gradient of `t`, then copies it back: for whole-buffer
   * kernels that ACCUMULATE into a parameter gradient (rmsnorm dw, embedding dTable).
   */
  accumulateGrad(t: TensorSpec, fn: (grad: GPUBuffer) => void): void {
    const tmp = this.gpu.temp(`${this.label}.grad:${t.name}`, t.size * 4);
    this.gpu.copy(this.grads, t.offset * 4, tmp, 0, t.size * 4);
    fn(tmp);
    this.gpu.copy(tmp, 0, this.grads, t.offset * 4, t.size * 4);
    this.gpu.release(tmp);
  }

  /** A ones vector of at least n floats (grown on demand). */
  ones(n: number): GPUBuffer {
    if (!this.onesBuf || this.onesLen < n) {
      this.onesBuf?.destroy();
      this.onesLen = Math.max(n, 256);
      this.onesBuf = this.gpu.buffer(`${this.label}.ones`, new Float32Array(this.onesLen).fill(1));
    }
    return this.onesBuf;
  }

  zeroGrads(): void {
    zeroBuffer(this.gpu, this.grads, this.layout.totalFloats);
  }

  /** AdamW first and second moments (zero-initialised on first use). */
  ensureMoments(): { m: GPUBuffer; v: GPUBuffer } {
    if (!this.moments) {
      const bytes = this.layout.totalFloats * 4;
      this.moments = {
        m: this.gpu.buffer(`${this.label}.adam_m`, bytes),
        v: this.gpu.buffer(`${this.label}.adam_v`, bytes),
      };
      zeroBuffer(this.gpu, this.moments.m, this.layout.totalFloats);
      zeroBuffer(this.gpu, this.moments.v, this.layout.totalFloats);
    }
    return this.moments;
  }

  /** A model holding a loaded checkpoint's fp32 parameters. */
  static fromCheckpoint(gpu: Gpu, ckpt: LoadedCheckpoint, label = 'model'): GpuModel {
    return new GpuModel(gpu, ckpt.layout, ckpt.params, label);
  }

  /** Reads the parameters back and serialises them (fp32 or quantized) with config.json and tokenizer.json. */
  async checkpoint(opts: SaveOptions = {}): Promise<CheckpointFiles> {
    return saveCheckpoint(this.layout, await this.readParams(), opts);
  }

  async readParams(): Promise<Float32Array> {
    return this.gpu.readF32(this.params, this.layout.totalFloats);
  }

  async readGrads(): Promise<Float32Array> {
    return this.gpu.readF32(this.grads, this.layout.totalFloats);
  }

  destroy(): void {
    for (const b of [
      this.params,
      this.gradsBuf,
      this.rope.buffer,
      this.onesBuf,
      this.moments?.m,
      this.moments?.v,
      ...this.mirrors.values(),
    ])
      b?.destroy();
  }
}
