// The shipped micro Coder and a few fresh samples of it on training prompts: the fixture of the update-direction
// tests (GRPO, KTO), which check that one small step moves real log-probs the intended way.
import type { Gpu } from '../gpu/runtime';
import { loadCheckpointDir } from '../model/checkpoint-node';
import { PRESETS } from '../rl/config';
import { LabPolicy } from '../rl/lab-policy';
import { loadCurriculum } from '../run/lab-setup';
import type { Generation } from '../rl/policy';
import { coderPrompt } from '../rl/prompts';

/** A fresh copy of the micro Coder (fp32 rollouts, so samples and learner agree). */
export async function microCoder(gpu: Gpu, name: string): Promise<LabPolicy> {
  return LabPolicy.create(gpu, {
    name,
    checkpoint: await loadCheckpointDir(`public/${PRESETS.micro.model.coderCheckpoint}`),
    rolloutQuant: 'none',
    maxPromptTokens: 160,
  });
}

/** 16-token samples on six training prompts, keeping those with at least two completion tokens. */
export async function microSamples(policy: LabPolicy, seed: number): Promise<Generation[]> {
  const prompts = loadCurriculum(PRESETS.micro.tasks.families)
    .train.slice(0, 6)
    .map((p) => coderPrompt(p.prompt));
  const gens = await policy.generate(prompts, { maxNewTokens: 16, temperature: 1, topP: 1, seed });
  return gens.filter((g) => g.completionTokens.length >= 2);
}
