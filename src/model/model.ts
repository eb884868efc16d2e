// The GPU-resident model: parameter / gradient / AdamW-moment buffers cut by the layout, and the RoPE table.
//
// Storage. A model whose f32 parameters fit one buffer (the lab's embedded models) keeps them in ONE flat buffer in
// the layout's order, and gradients and moments likewise: AdamW and the grad norm are one kernel each over it. A
// larger model (a Hugging Face checkpoint) is held in several buffers, each within the adapter's
// maxStorageBufferBindingSize and maxBufferSize: runs of whole tensors in "segments", and the embedding (and an
// untied lm_head) in row chunks of their own, as many as one binding requires. Tensors a frozen quantized base holds
// (FrozenLinears below) get no f32 storage at all. Split models are frozen-base (LoRA) models: gradients and AdamW
// state exist only for a model in one buffer.
//
// Kernels that take an element offset (matmul) read tensors straight out of the buffers (`p(t)`). Kernels that bind a
// whole buffer (embedding, rmsnorm weights, biases) get a "mirror": a small standalone copy of that tensor,
// refreshed by a buffer copy whenever the parameters change (upload, optimizer step). Their gradients go through a
// pooled temp that is copied in from and back to the flat gradient (so accumulation semantics hold). A split
// model's embedding chunks are standalone buffers already and need no mirror.
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
import { embeddingForward } from '../gpu/kernels/embedding';
import { chunkedLookup, rowRanges, type RowChunk } from '../gpu/kernels/chunk-rows';
import type { ModelConfig } from './config';
import { alignUp, buildLayout, type Layout, type TensorSpec } from './layout';
import { saveCheckpoint, type CheckpointFiles, type LoadedCheckpoint, type SaveOptions } from './checkpoint';

export interface TensorRef {
  buffer: GPUBuffer;
  /** Offset in f32 elements. */
  offset: number;
}

/** A Linear's forward operands: y[T, out] = x[T, in] · Wᵀ (+ bias), or y += … when accumulate (default false). */
export type LinearForwardArgs = [
  y: GPUBuffer,
  x: GPUBuffer,
  w: TensorSpec,
  bias: TensorSpec | undefined,
  T: number,
  accumulate?: boolean,
];

/**
 * The Linear weights of a frozen base (held elsewhere, e.g. quantized) with trainable adapters on top: a model
 * with these set runs every Linear through them, and its backward produces only the adapters' gradients and the
 * input gradients (the embedding, norms and biases are frozen too).
 */
export interface FrozenLinears {
  /** y[T, out] (+)= x[T, in] · W_effᵀ (+ bias). */
  forward(...args: LinearForwardArgs): void;
  /** dx[T, in] (+)= dy[T, out] · W_eff (dx null: none needed); accumulates the adapters' gradients for w. */
  backward(dx: GPUBuffer | null, dy: GPUBuffer, x: GPUBuffer, w: TensorSpec, T: number, accumulateDx: boolean): void;
}

export interface ModelStorage {
  /** Tensors that get no f32 storage (a frozen base holds them, e.g. quantized); reading them throws. */
  skip?: (t: TensorSpec) => boolean;
  /** Largest buffer in bytes (default: the device's maxStorageBufferBindingSize and maxBufferSize); tests lower it. */
  maxBufferBytes?: number;
}

/** A run of whole tensors [start, start + floats) of the flat layout in one buffer. */
interface Segment {
  buffer: GPUBuffer;
  start: number;
  floats: number;
}

export class GpuModel {
  readonly layout: Layout;
  readonly config: ModelConfig;
  private readonly segments: Segment[] = [];
  private readonly segmentOf = new Map<TensorSpec, Segment>();
  /** Row-split tensors (a split model's embedding and untied lm_head), each chunk a buffer of whole rows. */
  private readonly rowChunks = new Map<TensorSpec, RowChunk[]>();
  private readonly skipped = new Set<TensorSpec>();
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
  /** Set: every Linear goes through the frozen base + adapters, and the backward trains nothing of this model. */
  frozen?: FrozenLinears;
  /**
   * Per-layer activation recompute for the training forward (`keep`): only each layer's input is kept, and the
   * backward re-runs layer l's forward just before its backward (one layer's intermediates alive at a time).
   */
  recompute = false;

  constructor(
    readonly gpu: Gpu,
    configOrLayout: ModelConfig | Layout,
    initial?: Float32Array,
    readonly label = 'model',
    storage: ModelStorage = {},
  ) {
    this.layout = 'tensors' in configOrLayout ? configOrLayout : buildLayout(configOrLayout);
    this.config = this.layout.config;
    const lim = gpu.device.limits;
    const cap = storage.maxBufferBytes ?? Math.min(lim.maxStorageBufferBindingSize, lim.maxBufferSize);
    for (const t of this.layout.tensors) if (storage.skip?.(t)) this.skipped.add(t);
    if (!this.skipped.size && this.layout.totalFloats * 4 <= cap) {
      const buffer = gpu.buffer(`${label}.params`, this.layout.totalFloats * 4);
      const seg = { buffer, start: 0, floats: this.layout.totalFloats };
      this.segments.push(seg);
      for (const t of this.layout.tensors) this.segmentOf.set(t, seg);
    } else {
      this.split(Math.floor(cap / 4));
    }
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
      if (this.segmentOf.has(t)) this.mirrors.set(t, gpu.buffer(`${label}.mirror:${t.name}`, t.size * 4));
    }
    if (initial) this.upload(initial);
  }

  /** Several buffers of at most `capFloats` each: the embedding and lm_head in row chunks, the rest in segments. */
  private split(capFloats: number): void {
    const { embed, lmHead } = this.layout;
    let pending: TensorSpec[] = [];
    const close = () => {
      if (!pending.length) return;
      const start = pending[0].offset;
      const last = pending[pending.length - 1];
      const floats = alignUp(last.offset + last.size) - start;
      const seg = {
        buffer: this.gpu.buffer(`${this.label}.params[${this.segments.length}]`, floats * 4),
        start,
        floats,
      };
      this.segments.push(seg);
      for (const t of pending) this.segmentOf.set(t, seg);
      pending = [];
    };
    for (const t of this.layout.tensors) {
      // A segment is a contiguous run of the layout: a skipped tensor (or a row-split one) ends it, so no buffer
      // holds floats of a tensor without f32 storage.
      if (this.skipped.has(t)) {
        close();
        continue;
      }
      if (t === embed || t === lmHead) {
        close();
        const cols = t.shape[1];
        const chunks = rowRanges(t.shape[0], Math.floor(capFloats / cols)).map((r, i) => ({
          ...r,
          buffer: this.gpu.buffer(`${this.label}.${t.name}[${i}]`, r.rows * cols * 4),
        }));
        this.rowChunks.set(t, chunks);
        continue;
      }
      // Its segment spans the tensor's aligned end, so that is what must fit.
      if (alignUp(t.size) > capFloats)
        throw new Error(
          `${this.label}: ${t.name} (${t.size * 4} bytes) exceeds the largest buffer this device binds (${capFloats * 4} bytes)`,
        );
      const start = pending.length ? pending[0].offset : t.offset;
      if (pending.length && alignUp(t.offset + t.size) - start > capFloats) close();
      pending.push(t);
    }
    close();
  }

  /** Whether the parameters live in one flat buffer (the lab's models) rather than several. */
  get flat(): boolean {
    return this.segments.length === 1 && this.segments[0].start === 0 && !this.rowChunks.size;
  }

  /** The flat f32 parameters (the learner's fp32 masters); only a model held in one buffer has them. */
  get params(): GPUBuffer {
    if (!this.flat)
      throw new Error(`${this.label}: the parameters are split across buffers (no flat parameter buffer)`);
    return this.segments[0].buffer;
  }

  /**
   * Flat f32 gradients, same layout; zeroed by `zeroGrads`, accumulated by backward. Allocated on first use, so a
   * frozen model (the GRPO reference policy, a sampler-only copy) costs one parameter buffer, not two.
   */
  get grads(): GPUBuffer {
    if (!this.flat)
      throw new Error(
        `${this.label}: full training needs the parameters in one buffer; this model is split (train it with LoRA)`,
      );
    this.gradsBuf ??= this.gpu.buffer(`${this.label}.grads`, this.layout.totalFloats * 4);
    return this.gradsBuf;
  }

  /** Replaces all parameters (e.g. after loading a checkpoint) and refreshes the mirrors. Skipped tensors are ignored. */
  upload(params: Float32Array): void {
    if (params.length !== this.layout.totalFloats)
      throw new Error(`${this.label}: ${params.length} floats uploaded, layout has ${this.layout.totalFloats}`);
    for (const s of this.segments) this.gpu.write(s.buffer, params.subarray(s.start, s.start + s.floats));
    for (const [t, chunks] of this.rowChunks) {
      const cols = t.shape[1];
      for (const c of chunks)
        this.gpu.write(c.buffer, params.subarray(t.offset + c.lo * cols, t.offset + (c.lo + c.rows) * cols));
    }
    this.refreshMirrors();
  }

  /** Copies another model's parameters on the GPU (same layout), e.g. to snapshot a GRPO reference policy. */
  copyParamsFrom(src: GpuModel): void {
    if (src.layout.totalFloats !== this.layout.totalFloats)
      throw new Error(`${this.label}: cannot copy parameters from '${src.label}' (layout differs)`);
    this.gpu.copy(src.params, 0, this.params, 0, this.layout.totalFloats * 4);
    this.refreshMirrors();
  }

  /** Records copies parameters → mirrors; call after anything writes the parameters on the GPU. */
  refreshMirrors(): void {
    for (const [t, buf] of this.mirrors) {
      const r = this.p(t);
      this.gpu.copy(r.buffer, r.offset * 4, buf, 0, t.size * 4);
    }
  }

  /** A tensor inside the parameter buffers, for offset-taking kernels (a tensor in one row chunk: that chunk). */
  p(t: TensorSpec): TensorRef {
    const seg = this.segmentOf.get(t);
    if (seg) return { buffer: seg.buffer, offset: t.offset - seg.start };
    const rows = this.rowChunks.get(t);
    if (rows?.length === 1) return { buffer: rows[0].buffer, offset: 0 };
    if (this.skipped.has(t)) throw new Error(`${this.label}: ${t.name} has no f32 copy (the frozen base holds it)`);
    throw new Error(`${this.label}: ${t.name} is split into row chunks (read it with chunks())`);
  }

  /** Whether `t` has f32 storage here (in a segment or in row chunks). */
  holds(t: TensorSpec): boolean {
    return this.segmentOf.has(t) || this.rowChunks.has(t);
  }

  /** The row chunks of a row-split tensor, or one chunk covering a tensor that sits in a segment at offset 0. */
  chunks(t: TensorSpec): RowChunk[] {
    const c = this.rowChunks.get(t);
    if (c) return c;
    const r = this.p(t);
    if (r.offset !== 0) throw new Error(`${this.label}: ${t.name} is not at the start of a buffer`);
    return [{ buffer: r.buffer, lo: 0, rows: t.shape[0] }];
  }

  /** Whether `t` is split into several row chunks (an lm_head larger than one binding). */
  isRowSplit(t: TensorSpec): boolean {
    return (this.rowChunks.get(t)?.length ?? 0) > 1;
  }

  /** out[n, H] = embedding rows of ids [n] (from the mirror, or chunk by chunk for a split table). */
  embedTokens(out: GPUBuffer, ids: GPUBuffer, n: number): void {
    const { hidden: H, vocabSize: V } = this.config;
    const e = this.layout.embed;
    const chunks = this.rowChunks.get(e);
    if (!chunks) embeddingForward(this.gpu, out, this.mirror(e), ids, n, H, V);
    else if (chunks.length === 1) embeddingForward(this.gpu, out, chunks[0].buffer, ids, n, H, V);
    else chunkedLookup(this.gpu, out, chunks, ids, n, H, V);
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
   * kernels that ACCUMULATE into a parameter gradient (rmsnorm dw, embedding dTable). A frozen model has no
   * gradients: `fn` gets a scratch buffer whose contents are dropped.
   */
  accumulateGrad(t: TensorSpec, fn: (grad: GPUBuffer) => void): void {
    const tmp = this.gpu.temp(`${this.label}.grad:${t.name}`, t.size * 4);
    if (this.frozen) {
      fn(tmp);
      this.gpu.release(tmp);
      return;
    }
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

  /** Bytes of the f32 parameter buffers (segments, row chunks and mirrors). */
  paramBytes(): number {
    let n = 0;
    for (const s of this.segments) n += s.buffer.size;
    for (const c of this.rowChunks.values()) for (const k of c) n += k.buffer.size;
    for (const m of this.mirrors.values()) n += m.size;
    return n;
  }

  /** A model holding a loaded checkpoint's fp32 parameters. */
  static fromCheckpoint(gpu: Gpu, ckpt: LoadedCheckpoint, label = 'model', storage?: ModelStorage): GpuModel {
    return new GpuModel(gpu, ckpt.layout, ckpt.params, label, storage);
  }

  /** Reads the parameters back and serialises them (fp32 or quantized) with config.json and tokenizer.json. */
  async checkpoint(opts: SaveOptions = {}): Promise<CheckpointFiles> {
    return saveCheckpoint(this.layout, await this.readParams(), opts);
  }

  /** All parameters in the flat layout (skipped tensors read as zeros). */
  async readParams(): Promise<Float32Array> {
    if (this.flat) return this.gpu.readF32(this.params, this.layout.totalFloats);
    const out = new Float32Array(this.layout.totalFloats);
    for (const s of this.segments) out.set(await this.gpu.readF32(s.buffer, s.floats), s.start);
    for (const [t, chunks] of this.rowChunks) {
      const cols = t.shape[1];
      for (const c of chunks) out.set(await this.gpu.readF32(c.buffer, c.rows * cols), t.offset + c.lo * cols);
    }
    return out;
  }

  async readGrads(): Promise<Float32Array> {
    return this.gpu.readF32(this.grads, this.layout.totalFloats);
  }

  destroy(): void {
    for (const b of [
      ...this.segments.map((s) => s.buffer),
      ...[...this.rowChunks.values()].flatMap((c) => c.map((k) => k.buffer)),
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
