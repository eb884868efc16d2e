// ACE's execution phase over a step's problems, and the update of its one model: supervised steps on the robust programs (the coder side) and a KTO step on the
// adversarial-input rollouts labelled by execution (the adversary side).
import type { Problem } from '../tasks/types';
import type { Sandbox } from '../sandbox/types';
import type { TrainConfig } from './config';
import { aceExecuteProblem, type AceProblemResult } from './ace';
import type { CountedRollout } from './judging';
import type { Generation, GrpoItem, KtoItem, Policy, UpdateStats } from './policy';
import { grpoSettingsAt, idleStats, updateOrIdle } from './trainer-grpo';

/**
 * SFT on robust programs is run as the GRPO surrogate with advantage 1 at ratio 1 (one optimizer step, no KL): its
 * gradient is then exactly the token-mean negative log-likelihood gradient of those programs.
 */
export async function aceUpdate(
  cfg: TrainConfig,
  step: number,
  model: Policy,
  coderGens: Generation[],
  robust: number[],
  testerGens: Generation[],
  labels: (1 | -1 | 0)[],
): Promise<{ coderStats: UpdateStats; testerStats: UpdateStats }> {
  const sftItems: GrpoItem[] = coderGens
    .filter((_, i) => robust[i] === 1)
    .map((g) => ({
      promptTokens: g.promptTokens,
      completionTokens: g.completionTokens,
      rolloutLogprobs: g.rolloutLogprobs,
      advantage: 1,
    }));
  const base = grpoSettingsAt(cfg, step, cfg.optim.lr);
  const sft = {
    ...base,
    grpo: { ...base.grpo, beta: 0, num_iterations: 1, loss_type: 'dapo' as const },
    optim: { ...base.optim, mini_batches: 1 },
  };
  const coderStats = await updateOrIdle(model, sftItems, sft);
  const ktoItems: KtoItem[] = [];
  testerGens.forEach((g, i) => {
    const label = labels[i];
    if (label !== 0)
      ktoItems.push({
        promptTokens: g.promptTokens,
        completionTokens: g.completionTokens,
        rolloutLogprobs: g.rolloutLogprobs,
        label,
      });
  });
  if (!ktoItems.length) return { coderStats, testerStats: idleStats() };
  if (!model.ktoUpdate) throw new Error(`ace mode needs a policy with a KTO update; '${model.name}' has none`);
  const m = cfg.methods;
  const testerStats = await model.ktoUpdate(ktoItems, {
    ...grpoSettingsAt(cfg, step, cfg.optim.tester_lr),
    kto: { beta: m.kto_beta, lambda_d: m.kto_lambda_d, lambda_u: m.kto_lambda_u },
  });
  return { coderStats, testerStats };
}

/** Every problem's programs against every input its rollouts wrote (execution only). */
export function aceExecuteAll(
  sandbox: Sandbox,
  cfg: TrainConfig,
  problems: Problem[],
  candidates: string[],
  validated: CountedRollout[],
): Promise<AceProblemResult[]> {
  const { num_generations: M, tester_generations: N, tests_per_group: K } = cfg.rollout;
  return Promise.all(
    problems.map((p, pi) =>
      aceExecuteProblem(
        sandbox,
        p,
        candidates.slice(pi * M, (pi + 1) * M),
        validated.slice(pi * M * N, (pi + 1) * M * N),
        K,
        cfg.reward.timeout_ms,
      ),
    ),
  );
}

export function aceExecutionSummary(r: AceProblemResult[], programs: number): string {
  const robust = r.reduce((a, x) => a + x.coder.filter(Boolean).length, 0);
  const broke = r.reduce((a, x) => a + x.labels.filter((l) => l === 1).length, 0);
  return `${robust}/${programs} programs survived every well-formed input; ${broke} input groups broke their program`;
}
