// ACE's update of its one model: supervised steps on the robust programs (the coder side) and a KTO step on the
// adversarial-input rollouts labelled by execution (the adversary side).
import type { TrainConfig } from './config';
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
  const sft = {
    ...grpoSettingsAt(cfg, step, cfg.optim.lr),
    beta: 0,
    mini_batches: 1,
    num_iterations: 1,
    loss_type: 'dapo' as const,
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
