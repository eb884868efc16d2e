// LoRA training on top of the existing training step, with no change to the model's kernels: the learner's flat
// parameters hold the merged weights W + s·B·A (rebuilt from a frozen copy of the base before each step), the usual
// forward / loss / backward fill dL/dW for every weight, and the chain rule turns the adapted weights' gradients into
// dA and dB; grad-norm clipping and AdamW then run over the adapters only. The KL reference policy is the base with
// the adapters off: the same buffer, unmerged for that one forward (no second model).
//
// This is the correct-first path: it keeps a full f32 gradient buffer and computes base weight gradients it then
// discards. A frozen quantized base with the adapter path inside the forward / backward (lora-gpu.ts) replaces it
// for models too large for f32.
import { GRADNORM_OUT, GRADNORM_OUT_BYTES } from '../../gpu/kernels/gradnorm';
import {
  recordLossAndBackward,
  recordMicroBatches,
  type LossResult,
  type LossSpec,
  type MicroBatch,
  type OptimConfig,
  type StepHooks,
  type StepResult,
} from '../backward-step';
import type { GpuBatch } from '../forward-batch';
import type { GpuModel } from '../model';
import type { GpuLora } from './lora-gpu';

export type LoraStepResult = StepResult;

export class LoraLearner {
  /** The frozen base weights (f32, the flat layout). */
  readonly base: GPUBuffer;
  private merged = false;

  constructor(
    readonly model: GpuModel,
    readonly lora: GpuLora,
  ) {
    const bytes = model.layout.totalFloats * 4;
    this.base = model.gpu.buffer(`${model.label}.lora-base`, bytes);
    model.gpu.copy(model.params, 0, this.base, 0, bytes);
  }

  /** The model's parameters become W + s·B·A (the current policy). */
  merge(): void {
    const bytes = this.model.layout.totalFloats * 4;
    this.model.gpu.copy(this.base, 0, this.model.params, 0, bytes);
    this.lora.mergeInto(this.model.params);
    this.model.refreshMirrors();
    this.merged = true;
  }

  /** The model's parameters become the base (adapters off): the KL reference policy. */
  unmerge(): void {
    this.model.gpu.copy(this.base, 0, this.model.params, 0, this.model.layout.totalFloats * 4);
    this.model.refreshMirrors();
    this.merged = false;
  }

  get isMerged(): boolean {
    return this.merged;
  }

  /** Records loss + backward on the merged weights and the adapters' gradients (accumulating; not zeroed here). */
  recordGrads(batch: GpuBatch, spec: LossSpec): { stats: GPUBuffer; decode: (v: Float32Array) => LossResult } {
    if (!this.merged) this.merge();
    this.model.zeroGrads();
    const r = recordLossAndBackward(this.model, batch, spec);
    for (const w of this.lora.targets()) this.lora.gradsFromWeightGrad(w, this.model.g(w));
    return r;
  }

  /** One optimizer step of the adapters on one batch: zero, loss + backward, clip, AdamW, re-merge. */
  async step(batch: GpuBatch, spec: LossSpec, optim: OptimConfig): Promise<LoraStepResult> {
    return this.stepMicro([{ batch, spec }], optim);
  }

  /**
   * One optimizer step over micro-batches whose adapter gradients add up (gradient accumulation; each spec carries
   * its share of the loss, as trainStep's micro-batches do): zero, loss + backward per micro-batch, clip, AdamW,
   * re-merge. The loss is the micro-batches' sum.
   */
  async stepMicro(micro: MicroBatch[], optim: OptimConfig, hooks?: StepHooks): Promise<StepResult> {
    return adapterStep(
      this.lora,
      micro,
      (b, s) => this.recordGrads(b, s),
      optim,
      () => this.merge(),
      hooks,
    );
  }

  destroy(): void {
    this.base.destroy();
  }
}

/**
 * One AdamW step of the adapters over micro-batches whose gradients add up: zero, `record` (loss + backward) per
 * micro-batch, clip, AdamW, then `after` (e.g. re-merge), and one readback. The loss is the micro-batches' sum.
 * `hooks` as trainStep's: a wait before each micro-batch (a pause holds there) and a report when the GPU has finished
 * one (each micro-batch's commands are then submitted as recorded: same commands, same order).
 */
export async function adapterStep(
  lora: GpuLora,
  micro: MicroBatch[],
  record: (batch: GpuBatch, spec: LossSpec) => { stats: GPUBuffer; decode: (v: Float32Array) => LossResult },
  optim: OptimConfig,
  after: () => void = () => {},
  hooks?: StepHooks,
): Promise<StepResult> {
  const gpu = lora.gpu;
  lora.zeroGrads();
  const recs = await recordMicroBatches(gpu, micro.length, (i) => record(micro[i].batch, micro[i].spec), hooks);
  const clip = lora.optimizerStep(optim);
  const n = recs.length;
  const out = gpu.temp('lora.step.readback', 64 * n + GRADNORM_OUT_BYTES);
  recs.forEach((r, i) => gpu.copy(r.stats, 0, out, 64 * i, 64));
  gpu.copy(clip, 0, out, 64 * n, GRADNORM_OUT_BYTES);
  [...recs.map((r) => r.stats), clip].forEach((b) => gpu.release(b));
  after();
  const v = await gpu.readF32(out, 16 * n + 4);
  gpu.release(out);
  const g = v.subarray(16 * n);
  const skipped = g[GRADNORM_OUT.nonFinite] !== 0;
  if (skipped) lora.step--;
  const results = recs.map((r, i) => r.decode(v.subarray(16 * i, 16 * (i + 1))));
  return {
    ...results[0],
    loss: results.reduce((a, r) => a + r.loss, 0),
    ...(n > 1 ? { micro: results } : {}),
    gradNorm: g[GRADNORM_OUT.norm],
    clip: g[GRADNORM_OUT.clip],
    skipped,
  };
}
