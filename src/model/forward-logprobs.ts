// Forward-only passes: logits, token log-probs + entropy (old / reference log-probs for GRPO), eval SFT loss.
import { logprobsForward } from '../gpu/kernels/logprobs';
import { xentForward } from '../gpu/kernels/xent';
import { forward, releaseForward } from './forward';
import type { GpuBatch } from './forward-batch';
import type { GpuModel } from './model';
import { lossRows, scatterToT } from './head-rows';
import { forwardMaskRows } from './forward-shared';

export interface LogprobBuffers {
  /** f32 [T] log p(targets[t] | tokens ≤ t) at the temperature; pooled, release with gpu.release. */
  logp: GPUBuffer;
  /** f32 [T] entropy of the full next-token distribution. */
  entropy: GPUBuffer;
}

export interface LogprobOptions {
  /**
   * 'all' (default): every position. 'mask': only the batch's mask rows are computed (head and log-probs on those
   * rows; e.g. reference log-probs for a GRPO loss, which reads no other position); the others read 0.
   */
  rows?: 'all' | 'mask';
}

/** Records a no-grad forward and the log-prob gather; results stay on the GPU (feed them to the GRPO loss). */
export function recordLogprobs(
  model: GpuModel,
  batch: GpuBatch,
  temperature = 1,
  opts: LogprobOptions = {},
): LogprobBuffers {
  if (!batch.targets) throw new Error('recordLogprobs: the batch needs targets');
  const gpu = model.gpu;
  const { T } = batch;
  const sel = opts.rows === 'mask' ? lossRows(gpu, batch) : null;
  const n = sel ? sel.head.n : T;
  const fwd = sel ? forwardMaskRows(model, batch, false, sel.head) : forward(model, batch, false);
  const logp = gpu.temp('logprobs.logp', n * 4);
  const entropy = gpu.temp('logprobs.entropy', n * 4);
  const lse = gpu.temp('logprobs.lse', n * 4);
  logprobsForward(gpu, logp, entropy, lse, fwd.logits, sel ? sel.targets : batch.targets, {
    T: n,
    V: model.config.vocabSize,
    temperature,
  });
  gpu.release(lse);
  releaseForward(gpu, fwd);
  if (!sel) return { logp, entropy };
  const out = { logp: scatterToT(gpu, logp, sel.head, T), entropy: scatterToT(gpu, entropy, sel.head, T) };
  [logp, entropy, sel.head.rows, sel.targets, sel.mask].forEach((b) => gpu.release(b));
  return out;
}

/** Host copies of the token log-probs and entropies [T]. */
export async function computeLogprobs(
  model: GpuModel,
  batch: GpuBatch,
  temperature = 1,
): Promise<{ logp: Float32Array; entropy: Float32Array }> {
  const { logp, entropy } = recordLogprobs(model, batch, temperature);
  const lp = await model.gpu.readF32(logp, batch.T);
  const en = await model.gpu.readF32(entropy, batch.T);
  model.gpu.release(logp);
  model.gpu.release(entropy);
  return { logp: lp, entropy: en };
}

/** Host copy of the logits [T, V] (tests, greedy checks). */
export async function computeLogits(model: GpuModel, batch: GpuBatch): Promise<Float32Array> {
  const fwd = forward(model, batch, false);
  const out = await model.gpu.readF32(fwd.logits, batch.T * model.config.vocabSize);
  releaseForward(model.gpu, fwd);
  return out;
}

/** Mean cross-entropy of batch.targets over batch.mask without a backward (validation loss). */
export async function computeSftLoss(model: GpuModel, batch: GpuBatch): Promise<number> {
  if (!batch.targets || !batch.mask) throw new Error('computeSftLoss: the batch needs targets and mask');
  const gpu = model.gpu;
  const { T } = batch;
  const fwd = forward(model, batch, false);
  const loss = gpu.temp('eval.xent.loss', T * 4);
  const lse = gpu.temp('eval.xent.lse', T * 4);
  const stats = gpu.temp('eval.xent.stats', 16);
  xentForward(gpu, loss, lse, stats, fwd.logits, batch.targets, batch.mask, { T, V: model.config.vocabSize });
  const v = await gpu.readF32(stats, 2);
  [loss, lse, stats].forEach((b) => gpu.release(b));
  releaseForward(gpu, fwd);
  return v[0];
}
