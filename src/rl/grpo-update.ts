// The GRPO update shared by the lab's policies (full fine-tuning and LoRA): mini-batches, the off-policy old
// log-probs, one optimizer step per mini-batch and pass, and the token-weighted statistics the trainer logs.
import type { MicroBatch, OptimConfig, StepHooks, StepResult } from '../model/backward-step';
import { prepareGrpoMicroBatches, type GrpoPolicyParts } from './grpo-batches';
import type { GrpoItem, GrpoSettings, UpdateStats } from './policy';

export interface GrpoUpdateParts extends GrpoPolicyParts {
  /** One optimizer step over a mini-batch's micro-batches (gradients accumulate across them). */
  step(micro: MicroBatch[], s: GrpoSettings, hooks?: StepHooks): Promise<StepResult>;
  /** Called after an update that applied at least one step (rollout weights follow the learner). */
  refresh(): void;
}

/** The optimizer settings of one GRPO step (AdamW + grad clip), with the weight-decay mask a policy chooses. */
export function grpoOptim(st: GrpoSettings, decayMask?: GPUBuffer): OptimConfig {
  const { beta1, beta2, eps, weight_decay, max_grad_norm } = st.optim;
  return { adamw: { lr: st.lr, beta1, beta2, eps, weightDecay: weight_decay, decayMask }, maxGradNorm: max_grad_norm };
}

/** On: the first mini-batch of a single pass takes the detached path (off = record its old log-probs; tests compare). */
export const detachFirstMiniBatch: { enabled: boolean } = { enabled: true };

export const IDLE_STATS: UpdateStats = {
  loss: 0,
  kl: 0,
  entropy: 0,
  clipLow: 0,
  clipHigh: 0,
  gradNorm: 0,
  mismatchKl: 0,
  skipped: false,
  tokens: 0,
};

/**
 * The items are cut into `mini_batches` contiguous mini-batches, each one optimizer step, and the whole is repeated
 * `num_iterations` times. When there is more than one optimizer step the old log-probs are recorded from the learner
 * before the first one (the policy at rollout time, as verl's compute_log_prob does), so later mini-batches are
 * off-policy and the clip acts; with a single step (and for the first mini-batch of a single pass) the learner's own
 * detached log-probs are the same numbers and save that forward pass.
 */
export async function runGrpoUpdate(p: GrpoUpdateParts, items: GrpoItem[], s: GrpoSettings): Promise<UpdateStats> {
  for (const [k, v] of [
    ['mini_batches', s.optim.mini_batches],
    ['num_iterations', s.grpo.num_iterations],
  ] as const) {
    if (!(Number.isInteger(v) && v >= 1)) throw new Error(`${p.name}: grpoUpdate needs ${k} >= 1, got ${v}`);
  }
  const usable = items.filter((it) => it.completionTokens.length > 0);
  const per = Math.ceil(usable.length / Math.max(1, Math.min(s.optim.mini_batches, usable.length)));
  const minis: GrpoItem[][] = [];
  for (let i = 0; i < usable.length; i += per) minis.push(usable.slice(i, i + per));
  if (!minis.length) return { ...IDLE_STATS };
  // The reference and old log-probs below record at once: pipelines a warm-up is compiling are awaited first.
  await p.model.gpu.ready();
  const offPolicy = minis.length > 1 || s.grpo.num_iterations > 1;
  // The first mini-batch of a single pass is only ever used by the first optimizer step, while the learner is still
  // the old policy: its recorded log-probs would be this very forward's, bit for bit (same kernels, weights, rows),
  // so it takes the detached path and saves one no-grad forward.
  const prepared = minis.map((mini, i) =>
    prepareGrpoMicroBatches(
      p,
      mini,
      s,
      offPolicy && !(detachFirstMiniBatch.enabled && i === 0 && s.grpo.num_iterations === 1),
    ),
  );
  const steps: StepResult[] = [];
  const total = s.grpo.num_iterations * prepared.reduce((a, m) => a + m.micro.length, 0);
  let base = 0;
  for (let it = 0; it < s.grpo.num_iterations; it++) {
    for (const m of prepared) {
      const at = base;
      const hooks: StepHooks | undefined = s.progress && {
        beforeMicro: s.progress.beforeMicro && (() => s.progress!.beforeMicro!()),
        onMicroDone: s.progress.onMicro && ((d) => s.progress!.onMicro!(at + d, total)),
      };
      steps.push(await p.step(m.micro, s, hooks));
      base += m.micro.length;
    }
  }
  for (const m of prepared) m.release();
  const skipped = steps.some((r) => r.skipped || !Number.isFinite(r.loss));
  if (steps.some((r) => !r.skipped)) p.refresh();
  const results = steps.flatMap((r) => r.micro ?? [r]);
  const weight = (f: (x: (typeof results)[number]) => number) => {
    let num = 0;
    let den = 0;
    for (const x of results) {
      const n = x.grpo?.completion_tokens ?? 0;
      num += f(x) * n;
      den += n;
    }
    return den ? num / den : 0;
  };
  const mean = (f: (r: StepResult) => number) => steps.reduce((a, r) => a + f(r), 0) / steps.length;
  return {
    loss: mean((r) => r.loss),
    kl: weight((x) => x.grpo?.kl ?? 0),
    entropy: weight((x) => x.entropy ?? 0),
    clipLow: weight((x) => x.grpo?.low_clip ?? 0),
    clipHigh: weight((x) => x.grpo?.high_clip ?? 0),
    gradNorm: mean((r) => r.gradNorm),
    mismatchKl: weight((x) => x.grpo?.mismatch_kl ?? 0),
    skipped,
    tokens: usable.reduce((a, it) => a + it.completionTokens.length, 0),
  };
}
