// One GRPO mini-batch as GPU micro-batches: token layout, reference and (off-policy) old log-probs, loss specs.
import type { Gpu } from '../gpu/runtime';
import type { GpuModel } from '../model/model';
import type { MicroBatch } from '../model/backward-step';
import { uploadBatch, destroyBatch, type GpuBatch } from '../model/forward-batch';
import { recordLogprobs } from '../model/forward-logprobs';
import type { GrpoItem, GrpoSettings } from './policy';

export interface GrpoPolicyParts {
  name: string;
  model: GpuModel;
  /** The frozen reference policy for the KL term. */
  ref: GpuModel;
  /**
   * When `ref` is the learner itself in another state (LoRA: the base with the adapters off), how to enter that
   * state and leave it again; every reference log-prob of a mini-batch is recorded in between, so the switch happens
   * once per mini-batch and no second copy of the weights exists.
   */
  referenceState?: { enter(): void; leave(): void };
  padId: number;
  /** Sequences per micro-batch (bounds the [T, V] logits buffers). */
  microBatch: number;
}

/** A sequence layout (sequenceLayout) uploaded as one GPU batch with its targets and loss mask. */
export function uploadLayout(gpu: Gpu, l: ReturnType<typeof sequenceLayout>, label: string): GpuBatch {
  const { B: batch, S: seqLen, tokens, positions, valid, targets, mask } = l;
  return uploadBatch(gpu, { batch, seqLen, tokens, positions, valid, targets, mask }, label);
}

export interface PreparedMiniBatch {
  micro: MicroBatch[];
  /** Frees the uploaded batches and the recorded log-probs. */
  release(): void;
}

/** Token, target, mask and rollout-log-prob arrays for `group`, padded to its longest sequence (≤ maxSeqLen). */
export function sequenceLayout(
  group: Pick<GrpoItem, 'promptTokens' | 'completionTokens' | 'rolloutLogprobs'>[],
  maxSeqLen: number,
  padId: number,
) {
  const S = Math.min(maxSeqLen, Math.max(...group.map((it) => it.promptTokens.length + it.completionTokens.length)));
  const T = group.length * S;
  const tokens = new Uint32Array(T).fill(padId);
  const targets = new Uint32Array(T).fill(padId);
  const mask = new Float32Array(T);
  const valid = new Float32Array(T);
  const positions = new Uint32Array(T);
  const rollout = new Float32Array(T);
  group.forEach((it, b) => {
    const seq = [...it.promptTokens, ...it.completionTokens].slice(0, S);
    const P = it.promptTokens.length;
    for (let t = 0; t < S; t++) {
      positions[b * S + t] = t;
      if (t < seq.length) {
        tokens[b * S + t] = seq[t];
        valid[b * S + t] = 1;
      }
      if (t + 1 < seq.length) targets[b * S + t] = seq[t + 1];
      // Logits at t predict token t+1: completion token j sits at P + j, predicted from t = P − 1 + j.
      const j = t + 1 - P;
      if (j >= 0 && t + 1 < seq.length) {
        mask[b * S + t] = 1;
        rollout[b * S + t] = it.rolloutLogprobs[j] ?? 0;
      }
    }
  });
  return { B: group.length, S, tokens, targets, mask, valid, positions, rollout };
}

/**
 * Uploads one mini-batch (items with at least one completion token) as micro-batches. With `recordOld` the learner's
 * log-probs are recorded now, before any update of this step, and used as the old policy; otherwise the loss uses
 * the learner's own detached log-probs (ratio 1). Losses are normalised over the mini-batch: dapo by its completion
 * tokens, grpo / dr_grpo by its share of sequences.
 */
export function prepareGrpoMicroBatches(
  p: GrpoPolicyParts,
  items: GrpoItem[],
  s: GrpoSettings,
  recordOld: boolean,
): PreparedMiniBatch {
  const gpu = p.model.gpu;
  const totalTokens = items.reduce((a, it) => a + it.completionTokens.length, 0);
  // Greedy rollouts (temperature 0) are scored at temperature 1: the loss needs a proper distribution.
  const temperature = s.rollout.temperature > 0 ? s.rollout.temperature : 1;
  const batches: GpuBatch[] = [];
  const temps: GPUBuffer[] = [];
  const released: GPUBuffer[] = [];
  const micro: MicroBatch[] = [];
  const groups: GrpoItem[][] = [];
  const layouts: ReturnType<typeof sequenceLayout>[] = [];
  for (let i = 0; i < items.length; i += p.microBatch) {
    const group = items.slice(i, i + p.microBatch);
    const l = sequenceLayout(group, p.model.config.maxSeqLen, p.padId);
    groups.push(group);
    layouts.push(l);
    batches.push(uploadLayout(gpu, l, `${p.name}.grpo`));
  }
  // The loss reads both log-probs only on completion rows: the head runs on those rows alone.
  if (s.grpo.beta > 0) p.referenceState?.enter();
  const refs = batches.map((batch) =>
    s.grpo.beta > 0 ? recordLogprobs(p.ref, batch, temperature, { rows: 'mask' }) : undefined,
  );
  if (s.grpo.beta > 0) p.referenceState?.leave();
  for (let i = 0; i < batches.length; i++) {
    const [group, l, batch, ref] = [groups[i], layouts[i], batches[i], refs[i]];
    const old = recordOld ? recordLogprobs(p.model, batch, temperature, { rows: 'mask' }) : undefined;
    for (const r of [ref, old]) {
      if (!r) continue;
      gpu.release(r.entropy);
      released.push(r.logp);
    }
    const advantages = gpu.buffer(`${p.name}.advantages`, Float32Array.from(group.map((it) => it.advantage)));
    const rolloutLogp = gpu.buffer(`${p.name}.rollout_logp`, l.rollout);
    temps.push(advantages, rolloutLogp);
    micro.push({
      batch,
      spec: {
        kind: 'grpo',
        oldLogp: old?.logp ?? 'detached',
        refLogp: ref?.logp ?? null,
        rolloutLogp,
        advantages,
        temperature,
        config: { ...s.grpo, max_completion_length: s.rollout.max_completion_length },
        // Micro-batches sum their gradients: grpo/dr_grpo scale by each micro-batch's share of sequences, dapo
        // normalises by the whole mini-batch's completion tokens.
        lossScale: s.grpo.loss_type === 'dapo' ? 1 : l.B / items.length,
        normTokens: s.grpo.loss_type === 'dapo' ? totalTokens : undefined,
      },
    });
  }
  return {
    micro,
    release() {
      for (const b of released) gpu.release(b);
      for (const b of batches) destroyBatch(b);
      for (const t of temps) t.destroy();
    },
  };
}
