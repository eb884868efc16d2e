// The whole-model gradient check as a platform-free function (Node tests and the browser run the same code).
import type { Gpu } from '../gpu/runtime';
import type { GrpoLossConfig as KernelGrpoConfig } from '../gpu/kernels/grpo-loss';
import { recordLossAndBackward } from './backward-step';
import { destroyBatch, uploadBatch } from './forward-batch';
import { computeLogits } from './forward-logprobs';
import { view } from './layout';
import { GpuModel } from './model';
import { makeGradCase } from './reference-fixture';
import { referenceLoss } from './reference-grad';

export interface GradCheckOptions {
  seed: number;
  objective: 'sft' | 'grpo';
  tied: boolean;
  /** GRPO only: log-probs at this sampling temperature. */
  temperature?: number;
}

export interface GradCheckReport {
  /** max |gpu − ref| / max |ref| over the real-token rows of the logits. */
  logitsRelErr: number;
  lossGpu: number;
  lossRef: number;
  /** Per parameter tensor: max |gpu − ref| / max |ref| of its gradient. */
  tensors: { name: string; relErr: number }[];
  /** GRPO: fraction of completion tokens in the dual-clip branch (the fixture is built to reach it). */
  dualClip?: number;
}

const IS_CAP = 2;

function maxRel(a: ArrayLike<number>, ref: ArrayLike<number>): number {
  let scale = 0;
  let diff = 0;
  for (let i = 0; i < ref.length; i++) {
    scale = Math.max(scale, Math.abs(ref[i]));
    diff = Math.max(diff, Math.abs(a[i] - ref[i]));
  }
  return diff / Math.max(scale, 1e-30);
}

/**
 * Builds the micro gradient case (padded batch, jittered weights), runs the GPU forward + loss + backward, and
 * compares logits, loss and every parameter gradient with the float64 CPU reference.
 */
export async function gradCheck(gpu: Gpu, o: GradCheckOptions): Promise<GradCheckReport> {
  const gc = makeGradCase(o.seed, { tiedEmbeddings: o.tied });
  const p64 = Float64Array.from(gc.params);
  const model = new GpuModel(gpu, gc.layout, gc.params, `gradcheck.${o.objective}`);
  const T = gc.input.batch * gc.input.seqLen;
  const V = gc.layout.config.vocabSize;
  const obj = o.objective === 'sft' ? gc.sft : gc.grpo;
  const batch = uploadBatch(gpu, { ...gc.input, targets: obj.targets, mask: obj.mask });
  const extra: GPUBuffer[] = [];
  try {
    const logits = await computeLogits(model, batch);
    const refLogits = referenceLoss(gc.layout, p64, gc.input, gc.sft, false).logits;
    // Pad query rows carry no meaning (their outputs feed nothing); compare real-token rows only.
    const rows = Array.from({ length: T }, (_, t) => t).filter((t) => gc.input.valid[t]);
    const pick = (a: ArrayLike<number>) => rows.flatMap((t) => Array.from({ length: V }, (_, v) => a[t * V + v]));
    const logitsRelErr = maxRel(pick(logits), pick(refLogits));

    model.zeroGrads();
    let lossGpu: number;
    let dualClip: number | undefined;
    let ref: ReturnType<typeof referenceLoss>;
    if (o.objective === 'sft') {
      const { stats, decode } = recordLossAndBackward(model, batch, { kind: 'sft' });
      lossGpu = decode(await gpu.readF32(stats, 16)).loss;
      gpu.release(stats);
      ref = referenceLoss(gc.layout, p64, gc.input, gc.sft);
    } else {
      const g = gc.grpo;
      const temperature = o.temperature ?? 1;
      // The GPU sees f32 inputs; the reference gets exactly the same (rounded) values.
      const oldLogp = Float32Array.from(g.oldLogp);
      const refLogp = Float32Array.from(g.refLogp ?? []);
      const rolloutLogp = Float32Array.from(oldLogp, (x, t) => x + 0.4 * Math.cos(3 * t));
      const isWeight = Float64Array.from(oldLogp, (x, t) => Math.min(Math.exp(x - rolloutLogp[t]), IS_CAP));
      const advantages = Float32Array.from(g.advantages);
      const [bOld, bRef, bRoll, bAdv] = [oldLogp, refLogp, rolloutLogp, advantages].map((a, i) =>
        gpu.buffer(`gradcheck.grpo${i}`, a),
      );
      extra.push(bOld, bRef, bRoll, bAdv);
      const config: KernelGrpoConfig = {
        epsilon_low: g.config.epsilonLow,
        epsilon_high: g.config.epsilonHigh,
        dual_clip_c: g.config.dualClipC,
        beta: g.config.beta,
        loss_type: g.config.lossType,
        max_completion_length: g.config.maxCompletionLength,
        is_cap: IS_CAP,
      };
      const spec = {
        kind: 'grpo' as const,
        oldLogp: bOld,
        refLogp: bRef,
        rolloutLogp: bRoll,
        advantages: bAdv,
        config,
        temperature,
      };
      const { stats, decode } = recordLossAndBackward(model, batch, spec);
      const res = decode(await gpu.readF32(stats, 16));
      gpu.release(stats);
      lossGpu = res.loss;
      dualClip = res.grpo?.dual_clip;
      ref = referenceLoss(gc.layout, p64, gc.input, { ...g, oldLogp, refLogp, advantages, isWeight, temperature });
    }
    const grads = await model.readGrads();
    const refGrads = ref.grads ?? new Float64Array(0);
    const tensors = gc.layout.tensors.map((t) => ({ name: t.name, relErr: maxRel(view(grads, t), view(refGrads, t)) }));
    return { logitsRelErr, lossGpu, lossRef: ref.loss, tensors, dualClip };
  } finally {
    destroyBatch(batch);
    extra.forEach((b) => b.destroy());
    model.destroy();
  }
}
