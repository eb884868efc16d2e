// The KTO loss on the GPU (Kahneman–Tversky Optimization, Ethayarajh et al. 2024): per-sequence implied rewards
// r_b = Σ_t mask·(logp − ref), a detached reference point z = max(0, mean_b r_b), a sigmoid value per label, and
// dL/dlogp [T] for the backward through logprobs.
//
// Shapes: T = B·S tokens, sequence b owns tokens [b·S, (b+1)·S). logp, refLogp, mask: f32 [T]; labels f32 [B]
// (+1 desirable, −1 undesirable, 0 not trained on). stats f32 [8] = KTO_STATS order. Names follow TRL's KTOConfig
// (beta, desirable_weight = lambda_d, undesirable_weight = lambda_u). Departure from TRL: z is estimated from the
// batch's own completions (TRL pairs each completion with another prompt); docs/method.md lists the choice.
import uniformSource from '../../../shaders/kto_loss_common.wgsl?raw';
import termsSource from '../../../shaders/kto_loss_terms.wgsl?raw';
import seqSource from '../../../shaders/kto_loss.wgsl?raw';
import reduceSource from '../../../shaders/kto_loss_reduce.wgsl?raw';
import backwardSource from '../../../shaders/kto_loss_backward.wgsl?raw';
import tokenSource from '../../../shaders/common/loss_token.wgsl?raw';
import { Kernel, type ScalarType } from '../launcher';
import type { Gpu } from '../runtime';
import { grid1d } from './grid';
import { checkBuffers, rowWorkgroup } from './logprobs';

export const KTO_STATS = [
  'loss',
  'z_ref',
  'reward_desirable',
  'reward_undesirable',
  'num_desirable',
  'num_undesirable',
  'completion_tokens',
  'mean_reward',
] as const;
export type KtoStats = Record<(typeof KTO_STATS)[number], number>;

export interface KtoLossConfig {
  beta: number;
  /** Weight of desirable sequences (TRL desirable_weight). */
  lambda_d: number;
  /** Weight of undesirable sequences (TRL undesirable_weight). */
  lambda_u: number;
}

export interface KtoLossShape {
  B: number;
  S: number;
}

export interface KtoLossOptions {
  /** Multiplies loss and gradient (e.g. 1 / micro-batches). Default 1. */
  lossScale?: number;
  /** A fixed reference point instead of the batch estimate (e.g. one z for all micro-batches of an update). */
  zRef?: number;
}

export interface KtoLossInputs<B> {
  logp: B;
  refLogp: B;
  labels: B;
  mask: B;
}

type UName =
  'B' | 'S' | 'flags' | 'pad0' | 'beta' | 'lambdaD' | 'lambdaU' | 'lossScale' | 'zRef' | 'pad1' | 'pad2' | 'pad3';
const uniforms: ReadonlyArray<readonly [UName, ScalarType]> = [
  ['B', 'u32'],
  ['S', 'u32'],
  ['flags', 'u32'],
  ['pad0', 'u32'],
  ['beta', 'f32'],
  ['lambdaD', 'f32'],
  ['lambdaU', 'f32'],
  ['lossScale', 'f32'],
  ['zRef', 'f32'],
  ['pad1', 'f32'],
  ['pad2', 'f32'],
  ['pad3', 'f32'],
];
const seqKernel = new Kernel({ family: 'kto_loss', source: uniformSource + seqSource, uniforms });
const reduceKernel = new Kernel({ family: 'kto_loss', source: uniformSource + termsSource + reduceSource, uniforms });
const backwardKernel = new Kernel({
  family: 'kto_loss',
  source: uniformSource + termsSource + tokenSource + backwardSource,
  uniforms,
});
const WG = 256;

function packUniforms(shape: KtoLossShape, c: KtoLossConfig, o: KtoLossOptions): Record<UName, number> {
  if (!(c.beta > 0)) throw new Error(`kto_loss: beta must be > 0, got ${c.beta}`);
  if (!(c.lambda_d >= 0 && c.lambda_u >= 0)) throw new Error('kto_loss: lambda_d and lambda_u must be >= 0');
  return {
    B: shape.B,
    S: shape.S,
    flags: o.zRef === undefined ? 0 : 1,
    pad0: 0,
    beta: c.beta,
    lambdaD: c.lambda_d,
    lambdaU: c.lambda_u,
    lossScale: o.lossScale ?? 1,
    zRef: o.zRef ?? 0,
    pad1: 0,
    pad2: 0,
    pad3: 0,
  };
}

/** stats [8] and dlogp [T] ← inputs, in three passes (per-sequence sums, reduce, per-token gradient). */
export function ktoLoss(
  gpu: Gpu,
  dlogp: GPUBuffer,
  stats: GPUBuffer,
  i: KtoLossInputs<GPUBuffer>,
  shape: KtoLossShape,
  config: KtoLossConfig,
  opts: KtoLossOptions = {},
): void {
  const u = packUniforms(shape, config, opts);
  const T = shape.B * shape.S;
  checkBuffers('kto_loss', {
    logp: [i.logp, T],
    refLogp: [i.refLogp, T],
    labels: [i.labels, shape.B],
    mask: [i.mask, T],
    dlogp: [dlogp, T],
    stats: [stats, 8],
  });
  const seqStats = gpu.temp('kto_loss.seqStats', shape.B * 2 * 4);
  const rowWg = rowWorkgroup(gpu);
  seqKernel.dispatch(gpu, {
    buffers: [i.logp, i.refLogp, i.mask, seqStats],
    uniforms: u,
    workgroups: grid1d(shape.B, 1),
    overrides: { WG: rowWg },
  });
  reduceKernel.dispatch(gpu, {
    buffers: [i.labels, seqStats, stats],
    uniforms: u,
    workgroups: [1],
    overrides: { WG: rowWg },
  });
  backwardKernel.dispatch(gpu, {
    buffers: [i.labels, i.mask, seqStats, stats, dlogp],
    uniforms: u,
    workgroups: grid1d(T, WG),
    overrides: { WG },
  });
  gpu.release(seqStats);
}

export function decodeKtoStats(values: ArrayLike<number>): KtoStats {
  const out = {} as KtoStats;
  KTO_STATS.forEach((k, i) => (out[k] = values[i]));
  return out;
}
