// The GRPO token loss on the GPU (clipped surrogate with dual-clip, k3 KL, truncated IS, loss_type normalisation):
// loss and statistics in one small buffer, and dL/dlogp [T] for the backward through logprobs.
//
// Shapes: T = B·S tokens, sequence b owns tokens [b·S, (b+1)·S). logp, oldLogp, refLogp?, rolloutLogp?, mask: f32 [T];
// advantages f32 [B]. mask is the completion mask (0 for prompt and pad; pad log-probs may be garbage).
// stats f32 [8] = GRPO_STATS order; seqStats f32 [B, 8] = per-sequence masked sums (same slots, sums not means).
// Names follow TRL/our TrainConfig.grpo (epsilon_low, epsilon_high, beta, loss_type, is_cap) and verl (dual_clip_c).
// Departures from TRL: dual-clip (verl) is added; the log-ratio is clamped to ±20 as verl does; dual_clip_c <= 1
// disables dual-clip (verl asserts c > 1 instead). See shaders/grpo_loss_common.wgsl for the exact formulas.
import commonSource from '../../../shaders/grpo_loss_common.wgsl?raw';
import seqSource from '../../../shaders/grpo_loss.wgsl?raw';
import reduceSource from '../../../shaders/grpo_loss_reduce.wgsl?raw';
import backwardSource from '../../../shaders/grpo_loss_backward.wgsl?raw';
import tokenSource from '../../../shaders/common/loss_token.wgsl?raw';
import { Kernel, type ScalarType } from '../launcher';
import type { Gpu } from '../runtime';
import { grid1d } from './grid';
import { checkBuffers, rowWorkgroup } from './logprobs';
import { mergeStorage, packedStorage } from './merge-storage';

export type GrpoLossType = 'grpo' | 'dr_grpo' | 'dapo';
export const GRPO_STATS = [
  'loss',
  'kl',
  'low_clip',
  'high_clip',
  'is_weight',
  'dual_clip',
  'completion_tokens',
  'mismatch_kl',
] as const;
export type GrpoStats = Record<(typeof GRPO_STATS)[number], number>;

export interface GrpoLossConfig {
  epsilon_low: number;
  epsilon_high: number;
  /** verl clip_ratio_c; applies to negative advantages; <= 1 disables. */
  dual_clip_c: number;
  beta: number;
  loss_type: GrpoLossType;
  /** dr_grpo's constant denominator is B · max_completion_length. */
  max_completion_length: number;
  /** Truncation cap of the rollout→learner importance weight (used when rollout log-probs are given). */
  is_cap: number;
}

export interface GrpoLossShape {
  B: number;
  S: number;
}

export interface GrpoLossOptions {
  /** Multiplies loss and gradient (e.g. 1 / gradient-accumulation steps). Default 1. */
  lossScale?: number;
  /** dapo only: a fixed token count for the denominator (TRL num_items_in_batch over accumulated micro-batches). */
  normTokens?: number;
}

export interface GrpoLossInputs<B> {
  logp: B;
  oldLogp: B;
  refLogp: B | null;
  rolloutLogp: B | null;
  advantages: B;
  mask: B;
}

type UName =
  | 'B'
  | 'S'
  | 'lossType'
  | 'flags'
  | 'epsLow'
  | 'epsHigh'
  | 'clipC'
  | 'beta'
  | 'isCap'
  | 'maxCompletionLength'
  | 'normTokens'
  | 'lossScale';
const uniforms: ReadonlyArray<readonly [UName, ScalarType]> = [
  ['B', 'u32'],
  ['S', 'u32'],
  ['lossType', 'u32'],
  ['flags', 'u32'],
  ['epsLow', 'f32'],
  ['epsHigh', 'f32'],
  ['clipC', 'f32'],
  ['beta', 'f32'],
  ['isCap', 'f32'],
  ['maxCompletionLength', 'f32'],
  ['normTokens', 'f32'],
  ['lossScale', 'f32'],
];
const seqKernel = new Kernel({ family: 'grpo_loss', source: commonSource + seqSource, uniforms });
const reduceKernel = new Kernel({ family: 'grpo_loss', source: reduceSource, uniforms });
const backwardKernel = new Kernel({
  family: 'grpo_loss',
  source: commonSource + tokenSource + backwardSource,
  uniforms,
});
/** For devices with 8 storage buffers per stage: seqStats [B, 8] then stats [8] in one buffer (copied in). */
const packedBackwardKernel = new Kernel({
  family: 'grpo_loss',
  source: mergeStorage(commonSource + tokenSource + backwardSource, 'seqStats', 'stats', 'allStats', 'u.B * 8u'),
  uniforms,
});
const LOSS_TYPES: Record<GrpoLossType, number> = { grpo: 0, dr_grpo: 1, dapo: 2 };
const WG = 256;

const dummies = new WeakMap<Gpu, GPUBuffer>();
function dummy(gpu: Gpu): GPUBuffer {
  let b = dummies.get(gpu);
  if (!b) dummies.set(gpu, (b = gpu.buffer('grpo_loss.dummy', 16)));
  return b;
}

function packUniforms(
  inputs: GrpoLossInputs<unknown>,
  shape: GrpoLossShape,
  c: GrpoLossConfig,
  o: GrpoLossOptions,
): Record<UName, number> {
  if (c.loss_type === 'dr_grpo' && !(c.max_completion_length > 0))
    throw new Error('grpo_loss: dr_grpo needs max_completion_length > 0');
  if (inputs.rolloutLogp && !(c.is_cap > 0)) throw new Error('grpo_loss: is_cap must be > 0 with rollout log-probs');
  return {
    B: shape.B,
    S: shape.S,
    lossType: LOSS_TYPES[c.loss_type],
    flags: (inputs.refLogp ? 1 : 0) | (inputs.rolloutLogp ? 2 : 0),
    epsLow: c.epsilon_low,
    epsHigh: c.epsilon_high,
    clipC: c.dual_clip_c,
    beta: c.beta,
    isCap: c.is_cap,
    maxCompletionLength: c.max_completion_length,
    normTokens: o.normTokens ?? 0,
    lossScale: o.lossScale ?? 1,
  };
}

function inputBuffers(gpu: Gpu, i: GrpoLossInputs<GPUBuffer>, s: GrpoLossShape): GPUBuffer[] {
  const T = s.B * s.S;
  checkBuffers('grpo_loss', {
    logp: [i.logp, T],
    oldLogp: [i.oldLogp, T],
    advantages: [i.advantages, s.B],
    mask: [i.mask, T],
  });
  if (i.refLogp) checkBuffers('grpo_loss', { refLogp: [i.refLogp, T] });
  if (i.rolloutLogp) checkBuffers('grpo_loss', { rolloutLogp: [i.rolloutLogp, T] });
  return [i.logp, i.oldLogp, i.refLogp ?? dummy(gpu), i.rolloutLogp ?? dummy(gpu), i.advantages, i.mask];
}

/** stats [8] and seqStats [B, 8] ← inputs. */
export function grpoLossForward(
  gpu: Gpu,
  stats: GPUBuffer,
  seqStats: GPUBuffer,
  inputs: GrpoLossInputs<GPUBuffer>,
  shape: GrpoLossShape,
  config: GrpoLossConfig,
  opts: GrpoLossOptions = {},
): void {
  const u = packUniforms(inputs, shape, config, opts);
  checkBuffers('grpo_loss', { stats: [stats, 8], seqStats: [seqStats, shape.B * 8] });
  const WG = rowWorkgroup(gpu);
  seqKernel.dispatch(gpu, {
    buffers: [...inputBuffers(gpu, inputs, shape), seqStats],
    uniforms: u,
    workgroups: grid1d(shape.B, 1),
    overrides: { WG },
  });
  reduceKernel.dispatch(gpu, { buffers: [seqStats, stats], uniforms: u, workgroups: [1], overrides: { WG } });
}

/** dlogp [T] ← inputs and the forward's stats / seqStats (read on the GPU, no readback). */
export function grpoLossBackward(
  gpu: Gpu,
  dlogp: GPUBuffer,
  inputs: GrpoLossInputs<GPUBuffer>,
  stats: GPUBuffer,
  seqStats: GPUBuffer,
  shape: GrpoLossShape,
  config: GrpoLossConfig,
  opts: GrpoLossOptions = {},
): void {
  const u = packUniforms(inputs, shape, config, opts);
  checkBuffers('grpo_loss', {
    dlogp: [dlogp, shape.B * shape.S],
    stats: [stats, 8],
    seqStats: [seqStats, shape.B * 8],
  });
  const launch = { uniforms: u, workgroups: grid1d(shape.B * shape.S, WG), overrides: { WG } };
  if (packedStorage(gpu.device)) {
    const all = gpu.temp('grpo_loss.allStats', (shape.B + 1) * 8 * 4);
    gpu.copy(seqStats, 0, all, 0, shape.B * 8 * 4);
    gpu.copy(stats, 0, all, shape.B * 8 * 4, 8 * 4);
    packedBackwardKernel.dispatch(gpu, { buffers: [...inputBuffers(gpu, inputs, shape), all, dlogp], ...launch });
    gpu.release(all);
  } else
    backwardKernel.dispatch(gpu, { buffers: [...inputBuffers(gpu, inputs, shape), seqStats, stats, dlogp], ...launch });
}

/** Forward and backward in one go with a pooled seqStats; stats [8] is then the single small readback. */
export function grpoLoss(
  gpu: Gpu,
  dlogp: GPUBuffer,
  stats: GPUBuffer,
  inputs: GrpoLossInputs<GPUBuffer>,
  shape: GrpoLossShape,
  config: GrpoLossConfig,
  opts: GrpoLossOptions = {},
): void {
  const seqStats = gpu.temp('grpo_loss.seqStats', shape.B * 8 * 4);
  grpoLossForward(gpu, stats, seqStats, inputs, shape, config, opts);
  grpoLossBackward(gpu, dlogp, inputs, stats, seqStats, shape, config, opts);
  gpu.release(seqStats);
}

export function decodeGrpoStats(values: ArrayLike<number>): GrpoStats {
  const out = {} as GrpoStats;
  GRPO_STATS.forEach((k, i) => (out[k] = values[i]));
  return out;
}
