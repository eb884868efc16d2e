// A GradCase's SFT or GRPO objective as the GPU's LossSpec (f32 buffers of its log-probs and advantages) and as the
// float64 reference's Objective on exactly those f32 values, and the LoRA learners' gradient check built on it.
import type { Gpu } from '../gpu/runtime';
import type { GrpoLossConfig as KernelGrpoConfig } from '../gpu/kernels/grpo-loss';
import type { LossResult, LossSpec } from '../model/backward-step';
import { destroyBatch, uploadBatch, type GpuBatch } from '../model/forward-batch';
import type { GpuLora } from '../model/hf/lora-gpu';
import type { GradCase } from '../model/reference-fixture';
import type { Objective } from '../model/reference-grad';
import type { GrpoLossConfig } from '../model/reference-loss';
import type { LoraGrads } from '../model/hf/lora-reference';
import { maxRelDiff } from './random';

/** The GRPO kernel's config (TRL's names) for the reference's, with a truncated-IS cap. */
export function kernelGrpoConfig(c: GrpoLossConfig, isCap: number): KernelGrpoConfig {
  return {
    epsilon_low: c.epsilonLow,
    epsilon_high: c.epsilonHigh,
    dual_clip_c: c.dualClipC,
    beta: c.beta,
    loss_type: c.lossType,
    max_completion_length: c.maxCompletionLength,
    is_cap: isCap,
  };
}

export function gradCaseSpec(
  gpu: Gpu,
  gc: GradCase,
  which: 'sft' | 'grpo',
  label: string,
): { spec: LossSpec; obj: Objective; destroy: () => void } {
  if (which === 'sft') return { spec: { kind: 'sft' }, obj: gc.sft, destroy: () => {} };
  const g = gc.grpo;
  const oldLogp = Float32Array.from(g.oldLogp);
  const refLogp = Float32Array.from(g.refLogp ?? []);
  const advantages = Float32Array.from(g.advantages);
  const bufs = [oldLogp, refLogp, advantages].map((a, i) => gpu.buffer(`${label}.grpo${i}`, a));
  const spec: LossSpec = {
    kind: 'grpo',
    oldLogp: bufs[0],
    refLogp: bufs[1],
    rolloutLogp: null,
    advantages: bufs[2],
    config: kernelGrpoConfig(g.config, 2),
  };
  return { spec, obj: { ...g, oldLogp, refLogp, advantages }, destroy: () => bufs.forEach((b) => b.destroy()) };
}

/**
 * Checks a LoRA learner's loss and adapter gradients against the float64 reference (printing the errors under
 * `label`): loss within 1e-4 relative, every dA and dB within 1e-3 relative (max-norm). Returns the worst error.
 */
export function checkLoraGrads(
  label: string,
  lossGpu: number,
  got: Map<string, { A: Float32Array; B: Float32Array }>,
  ref: LoraGrads,
  expectBelow: (value: number, bound: number, what: string) => void,
): number {
  let worst = 0;
  for (const [name, r] of ref.grads) {
    const mine = got.get(name);
    worst = Math.max(worst, maxRelDiff(mine?.A ?? [], r.dA), maxRelDiff(mine?.B ?? [], r.dB));
  }
  console.log(
    `${label}: loss ${lossGpu.toFixed(6)} (ref ${ref.loss.toFixed(6)}), worst adapter grad rel err ${worst.toExponential(2)}`,
  );
  expectBelow(Math.abs(lossGpu - ref.loss), 1e-4 * Math.max(1, Math.abs(ref.loss)), 'loss');
  expectBelow(worst, 1e-3, 'adapter gradients');
  return worst;
}

/** What a LoRA learner offers the gradient check: one micro-batch's loss and adapter gradients, recorded. */
export interface GradRecorder {
  recordGrads(batch: GpuBatch, spec: LossSpec): { stats: GPUBuffer; decode: (v: Float32Array) => LossResult };
}

/**
 * Records the learner's adapter gradients on the grad case's `which` objective (from zero) and checks them with
 * checkLoraGrads against `reference(obj)`, the float64 loss and gradients on that objective's exact f32 values.
 */
export async function checkLearnerGrads(
  gpu: Gpu,
  gc: GradCase,
  which: 'sft' | 'grpo',
  label: string,
  lora: GpuLora,
  learner: GradRecorder,
  reference: (obj: Objective) => LoraGrads,
  expectBelow: (value: number, bound: number, what: string) => void,
): Promise<void> {
  const { spec, obj, destroy } = gradCaseSpec(gpu, gc, which, label);
  const batch = uploadBatch(gpu, { ...gc.input, targets: obj.targets, mask: obj.mask });
  lora.zeroGrads();
  const { stats, decode } = learner.recordGrads(batch, spec);
  const lossGpu = decode(await gpu.readF32(stats, 16)).loss;
  gpu.release(stats);
  const got = await lora.read('grads');
  checkLoraGrads(label, lossGpu, got, reference(obj), expectBelow);
  destroyBatch(batch);
  destroy();
}
