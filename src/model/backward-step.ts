// Training-step orchestration: forward, loss (SFT via xent, GRPO / KTO via logprobs + grpo-loss / kto-loss), backward,
// clip, AdamW.
import { adamwStep, type AdamWConfig } from '../gpu/kernels/adamw';
import { gradNorm, GRADNORM_OUT, GRADNORM_OUT_BYTES } from '../gpu/kernels/gradnorm';
import { grpoLoss, decodeGrpoStats, GRPO_STATS, type GrpoLossConfig, type GrpoStats } from '../gpu/kernels/grpo-loss';
import { ktoLoss, decodeKtoStats, KTO_STATS, type KtoLossConfig, type KtoStats } from '../gpu/kernels/kto-loss';
import { logprobsBackward, logprobsForward } from '../gpu/kernels/logprobs';
import { xentBackward, xentForward } from '../gpu/kernels/xent';
import { matmul } from '../gpu/kernels/matmul';
import { gatherRows } from '../gpu/kernels/rows';
import { lossRows, scatterToT } from './head-rows';
import { backward } from './backward';
import { forward, releaseForward } from './forward';
import { forwardMaskRows } from './forward-shared';
import type { GpuBatch } from './forward-batch';
import type { GpuModel } from './model';
import type { Gpu } from '../gpu/runtime';

/** Supervised loss: mean cross-entropy of batch.targets over batch.mask. */
export interface SftLoss {
  kind: 'sft';
  /** Multiplies the gradient (not the reported loss), e.g. 1 / micro-batches when accumulating. */
  gradScale?: number;
}

/** GRPO token loss on batch.targets with batch.mask as the completion mask; all per-token inputs are f32 [T]. */
export interface GrpoLoss {
  kind: 'grpo';
  /**
   * Log-probs of the policy that generated the batch, or 'detached': the learner's own log-probs from this very
   * forward pass (TRL with num_iterations = 1: old = logp.detach(), ratio 1, gradient −A), which saves the extra
   * no-grad forward that recordLogprobs would cost.
   */
  oldLogp: GPUBuffer | 'detached';
  /** Reference-policy log-probs for the k3 KL (null when beta = 0). */
  refLogp: GPUBuffer | null;
  /** Rollout (sampler, maybe quantized) log-probs for truncated importance sampling; null disables it. */
  rolloutLogp: GPUBuffer | null;
  /** f32 [B] advantages. */
  advantages: GPUBuffer;
  config: GrpoLossConfig;
  /** Sampling temperature the log-probs are taken at (TRL divides logits by it). Default 1. */
  temperature?: number;
  /** Multiplies loss and gradient, e.g. 1 / micro-batches when accumulating. */
  lossScale?: number;
  /** dapo: fixed token count for the denominator across accumulated micro-batches. */
  normTokens?: number;
}

/** KTO sequence loss on batch.targets with batch.mask as the completion mask (see gpu/kernels/kto-loss.ts). */
export interface KtoLoss {
  kind: 'kto';
  /** Reference-policy log-probs f32 [T]: the implied reward is Σ mask·(logp − ref). */
  refLogp: GPUBuffer;
  /** f32 [B]: +1 desirable, −1 undesirable, 0 not trained on. */
  labels: GPUBuffer;
  config: KtoLossConfig;
  temperature?: number;
  /** Multiplies loss and gradient, e.g. this micro-batch's share of the labelled sequences. */
  lossScale?: number;
}

export type LossSpec = SftLoss | GrpoLoss | KtoLoss;

export interface LossResult {
  /** The loss value, plus GRPO's statistics (kl, clip fractions, …) when kind = 'grpo'. */
  loss: number;
  grpo?: GrpoStats;
  kto?: KtoStats;
  /** Mean token entropy over the mask (GRPO only; at the loss temperature). */
  entropy?: number;
}

/**
 * Records forward + loss + backward for one (micro-)batch, accumulating into model.grads (not zeroed here), and
 * returns a small GPU buffer with the loss statistics plus a decoder for it. Nothing is read back.
 */
export function recordLossAndBackward(
  model: GpuModel,
  batch: GpuBatch,
  spec: LossSpec,
): { stats: GPUBuffer; decode: (v: Float32Array) => LossResult } {
  const gpu = model.gpu;
  const { T } = batch;
  const V = model.config.vocabSize;
  if (!batch.targets || !batch.mask) throw new Error('recordLossAndBackward: the batch needs targets and mask');
  const stats = gpu.temp('loss.stats', 16 * 4);
  if (spec.kind === 'sft') {
    // The SFT loss reads only the mask rows' logits: the head (lm_head, xent) runs on those rows alone.
    const sel = lossRows(gpu, batch);
    const fwd = sel ? forwardMaskRows(model, batch, true, sel.head) : forward(model, batch, true);
    const n = sel ? sel.head.n : T;
    const dLogits = gpu.temp('grad.logits', n * V * 4);
    const tokLoss = gpu.temp('xent.loss', n * 4);
    const lse = gpu.temp('xent.lse', n * 4);
    const targets = sel ? sel.targets : batch.targets;
    const mask = sel ? sel.mask : batch.mask;
    xentForward(gpu, tokLoss, lse, stats, fwd.logits, targets, mask, { T: n, V });
    xentBackward(gpu, dLogits, fwd.logits, targets, mask, lse, stats, { T: n, V }, spec.gradScale ?? 1);
    gpu.release(tokLoss);
    gpu.release(lse);
    backward(model, batch, fwd, dLogits);
    releaseForward(gpu, fwd);
    gpu.release(dLogits);
    if (sel) [sel.head.rows, sel.targets, sel.mask].forEach((b) => gpu.release(b));
    return { stats, decode: (v) => ({ loss: v[0] }) };
  }
  // GRPO reads only the completion rows' log-probs (the loss skips mask = 0): the head, log-probs and their backward
  // run on those rows, and the [T] log-probs the loss reads are scattered back (other positions stay 0, unread).
  const sel = lossRows(gpu, batch);
  const fwd = sel ? forwardMaskRows(model, batch, true, sel.head) : forward(model, batch, true);
  const n = sel ? sel.head.n : T;
  const dLogits = gpu.temp('grad.logits', n * V * 4);
  const shape = { T: n, V, temperature: spec.temperature ?? 1 };
  const targets = sel ? sel.targets : batch.targets;
  const logpRows = gpu.temp('grpo.logp', n * 4);
  const entropy = gpu.temp('grpo.entropy', n * 4);
  const lse = gpu.temp('grpo.lse', n * 4);
  logprobsForward(gpu, logpRows, entropy, lse, fwd.logits, targets, shape);
  const logp = sel ? scatterToT(gpu, logpRows, sel.head, T) : logpRows;
  const dLogp = gpu.temp('grpo.dlogp', T * 4);
  if (spec.kind === 'kto') {
    const inputs = { logp, refLogp: spec.refLogp, labels: spec.labels, mask: batch.mask };
    ktoLoss(gpu, dLogp, stats, inputs, { B: batch.B, S: batch.S }, spec.config, { lossScale: spec.lossScale });
  } else {
    grpoLoss(
      gpu,
      dLogp,
      stats,
      {
        logp,
        oldLogp: spec.oldLogp === 'detached' ? logp : spec.oldLogp,
        refLogp: spec.refLogp,
        rolloutLogp: spec.rolloutLogp,
        advantages: spec.advantages,
        mask: batch.mask,
      },
      { B: batch.B, S: batch.S },
      spec.config,
      { lossScale: spec.lossScale, normTokens: spec.normTokens },
    );
  }
  let dLogpRows = dLogp;
  if (sel) {
    dLogpRows = gpu.temp('grpo.dlogpRows', n * 4);
    gatherRows(gpu, dLogpRows, dLogp, sel.head.rows, n, T, 1);
  }
  logprobsBackward(gpu, dLogits, dLogpRows, null, fwd.logits, targets, lse, entropy, shape);
  backward(model, batch, fwd, dLogits);
  // Masked entropy for the metrics: mask·entropy summed by a 1×n·n×1 matmul into stats[8].
  maskedSum(
    model,
    stats,
    spec.kind === 'kto' ? KTO_STATS.length : GRPO_STATS.length,
    entropy,
    sel ? sel.mask : batch.mask,
    n,
  );
  for (const b of new Set([logp, logpRows, entropy, lse, dLogp, dLogpRows, dLogits])) gpu.release(b);
  if (sel) [sel.head.rows, sel.targets, sel.mask].forEach((b) => gpu.release(b));
  releaseForward(gpu, fwd);
  if (spec.kind === 'kto') {
    return {
      stats,
      decode: (v) => {
        const kto = decodeKtoStats(v.subarray(0, KTO_STATS.length));
        return { loss: kto.loss, kto, entropy: v[KTO_STATS.length] / Math.max(1, kto.completion_tokens) };
      },
    };
  }
  return {
    stats,
    decode: (v) => {
      const grpo = decodeGrpoStats(v.subarray(0, GRPO_STATS.length));
      return { loss: grpo.loss, grpo, entropy: v[GRPO_STATS.length] / Math.max(1, grpo.completion_tokens) };
    },
  };
}

/** out[at] = Σ_t a[t]·b[t], as a [1, T]·[T, 1] matmul (no reduction kernel of our own needed). */
function maskedSum(model: GpuModel, out: GPUBuffer, at: number, a: GPUBuffer, b: GPUBuffer, T: number): void {
  matmul(model.gpu, { a, b, c: { buffer: out, offset: at }, M: 1, N: 1, K: T });
}

export interface OptimConfig {
  adamw: AdamWConfig;
  /** Global grad-norm clip (TRL max_grad_norm); <= 0 disables clipping. */
  maxGradNorm: number;
}

export const DEFAULT_OPTIM: OptimConfig = {
  adamw: { lr: 1e-3, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0 },
  maxGradNorm: 1.0,
};

/** Records grad-norm + clip + AdamW over the whole flat buffer and refreshes the parameter mirrors. */
export function recordOptimizerStep(model: GpuModel, optim: OptimConfig): GPUBuffer {
  const gpu = model.gpu;
  const n = model.layout.totalFloats;
  const clip = gpu.temp('gradnorm.out', GRADNORM_OUT_BYTES);
  gradNorm(gpu, clip, model.grads, n, optim.maxGradNorm);
  const { m, v } = model.ensureMoments();
  model.step++;
  adamwStep(gpu, model.params, m, v, model.grads, clip, n, optim.adamw, model.step);
  model.refreshMirrors();
  return clip;
}

export interface StepResult extends LossResult {
  /** Per micro-batch results when there was more than one. */
  micro?: LossResult[];
  gradNorm: number;
  /** The factor gradients were scaled by (1 when under the clip norm). */
  clip: number;
  /** True when the gradients were not finite and AdamW skipped the update. */
  skipped: boolean;
}

/**
 * Optional hooks of a training step, for a UI: a wait before each micro-batch is recorded (a pause holds there) and a
 * report when the GPU has finished one. Neither changes what is computed: with hooks each micro-batch's commands are
 * submitted as they are recorded (same commands, same order), without them the step records all and submits once.
 */
export interface StepHooks {
  beforeMicro?: (index: number, count: number) => Promise<void>;
  onMicroDone?: (done: number, count: number) => void;
}

/**
 * Records each micro-batch with `record(i)` under the hooks: awaits beforeMicro first and, when onMicroDone is set,
 * submits what it recorded and reports when the GPU has finished it. Shared by every optimizer step (full and LoRA).
 */
export async function recordMicroBatches<T>(
  gpu: Gpu,
  n: number,
  record: (i: number) => T,
  hooks?: StepHooks,
): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < n; i++) {
    if (hooks?.beforeMicro) await hooks.beforeMicro(i, n);
    out.push(record(i));
    if (hooks?.onMicroDone) {
      gpu.submit();
      const done = i + 1;
      void gpu.device.queue.onSubmittedWorkDone().then(() => hooks.onMicroDone?.(done, n));
    }
  }
  return out;
}

export interface MicroBatch {
  batch: GpuBatch;
  spec: LossSpec;
}

/**
 * One full training step: zero grads, loss + backward for each micro-batch (gradients sum: scale each loss by
 * 1 / count via gradScale / lossScale for a mean), clip, AdamW. A single small readback at the end.
 */
export async function trainStep(
  model: GpuModel,
  batchOrMicro: GpuBatch | MicroBatch[],
  spec: LossSpec | null,
  optim: OptimConfig,
  hooks?: StepHooks,
): Promise<StepResult> {
  const micro: MicroBatch[] = Array.isArray(batchOrMicro)
    ? batchOrMicro
    : [{ batch: batchOrMicro, spec: spec ?? { kind: 'sft' } }];
  if (!micro.length) throw new Error('trainStep: no micro-batches');
  const gpu = model.gpu;
  await gpu.ready();
  model.zeroGrads();
  const n = micro.length;
  // Each micro-batch's 16 stats floats, then the 4 grad-norm floats: one buffer, one round trip.
  const out = gpu.temp('step.readback', (16 * n + 4) * 4);
  const decoders = await recordMicroBatches(
    gpu,
    n,
    (i) => {
      const { stats, decode } = recordLossAndBackward(model, micro[i].batch, micro[i].spec);
      gpu.copy(stats, 0, out, i * 64, 64);
      gpu.release(stats);
      return decode;
    },
    hooks,
  );
  const clip = recordOptimizerStep(model, optim);
  gpu.copy(clip, 0, out, n * 64, GRADNORM_OUT_BYTES);
  gpu.release(clip);
  const v = await gpu.readF32(out, 16 * n + 4);
  gpu.release(out);
  const g = v.subarray(16 * n);
  const skipped = g[GRADNORM_OUT.nonFinite] !== 0;
  if (skipped) model.step--; // AdamW did nothing; keep bias correction in step with real updates
  const results = decoders.map((d, i) => d(v.subarray(16 * i, 16 * i + 16)));
  const first = results[0];
  return {
    ...first,
    // The mean over micro-batches of each one's reported loss (SFT: its own mean; GRPO: includes its lossScale).
    loss: results.reduce((a, r) => a + r.loss, 0) / n,
    micro: n > 1 ? results : undefined,
    gradNorm: g[GRADNORM_OUT.norm],
    clip: g[GRADNORM_OUT.clip],
    skipped,
  };
}
