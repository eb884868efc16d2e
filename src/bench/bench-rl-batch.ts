// An RL-update batch shaped like the trainer's (src/rl/lab-policy.ts): right-padded prompt + completion rows of mixed
// lengths, the loss mask on the completion only, rollout log-probs and advantages; for bench:engine's RL row.
import type { Gpu } from '../gpu/runtime';
import { uploadBatch, destroyBatch, type GpuBatch } from '../model/forward-batch';
import type { GrpoLoss } from '../model/backward-step';

export interface RlBatch {
  batch: GpuBatch;
  /** GRPO spec without the reference log-probs (the bench records them per run). */
  spec: GrpoLoss;
  completion: number;
  destroy(): void;
}

/**
 * B rows in GRPO groups of `group` rollouts of one prompt (the tiny Coder's num_generations is 4): prompts of
 * 55-100 % of maxLen/2 tokens, completions of 4-40 tokens (as the tiny Coder's are).
 */
export function rlBatch(gpu: Gpu, B: number, maxLen: number, V: number, rng: () => number, group = 4): RlBatch {
  const prompts: number[][] = [];
  const lens = Array.from({ length: B }, (_, b) => {
    if (b % group === 0) {
      const p = Math.round((maxLen / 2) * (0.55 + 0.45 * rng()));
      prompts.push(Array.from({ length: p }, () => 8 + Math.floor(rng() * (V - 8))));
    }
    return {
      p: prompts[prompts.length - 1].length,
      c: 4 + Math.floor(rng() * 37),
      prompt: prompts[prompts.length - 1],
    };
  });
  const S = Math.min(maxLen, Math.max(...lens.map((l) => l.p + l.c)));
  const T = B * S;
  const tokens = new Uint32Array(T);
  const targets = new Uint32Array(T);
  const valid = new Float32Array(T);
  const positions = new Uint32Array(T);
  const mask = new Float32Array(T);
  const rollout = new Float32Array(T);
  let completion = 0;
  lens.forEach(({ p, c, prompt }, b) => {
    const n = Math.min(S, p + c);
    const seq = [...prompt, ...Array.from({ length: c }, () => 8 + Math.floor(rng() * (V - 8)))].slice(0, n);
    for (let t = 0; t < S; t++) {
      positions[b * S + t] = t;
      if (t < n) {
        tokens[b * S + t] = seq[t];
        valid[b * S + t] = 1;
      }
      if (t + 1 < n) targets[b * S + t] = seq[t + 1];
      if (t + 1 >= p && t + 1 < n) {
        mask[b * S + t] = 1;
        rollout[b * S + t] = -Math.log(V) + 0.1 * (rng() - 0.5);
        completion++;
      }
    }
  });
  const batch = uploadBatch(gpu, { batch: B, seqLen: S, tokens, positions, valid, targets, mask }, 'bench.rl');
  const advantages = gpu.buffer(
    'bench.rl.adv',
    Float32Array.from({ length: B }, () => rng() * 2 - 1),
  );
  const rolloutLogp = gpu.buffer('bench.rl.rollout', rollout);
  return {
    batch,
    completion,
    spec: {
      kind: 'grpo',
      oldLogp: 'detached',
      refLogp: null,
      rolloutLogp,
      advantages,
      temperature: 1,
      config: {
        epsilon_low: 0.2,
        epsilon_high: 0.28,
        dual_clip_c: 10,
        beta: 0.001,
        loss_type: 'grpo',
        max_completion_length: 128,
        is_cap: 2,
      },
    },
    destroy() {
      destroyBatch(batch);
      advantages.destroy();
      rolloutLogp.destroy();
    },
  };
}
