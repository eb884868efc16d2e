// The lab's pipeline warm-up: after it, a rollout and a GRPO update on the real policy compile no pipeline
// synchronously, sampling waits only for its own kernels, and running it concurrently with that work changes no
// sampled token (real micro model, WGSL).
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedNodeGpu } from '../gpu/node';
import type { Gpu } from '../gpu/runtime';
import { loadCheckpointDir } from '../model/checkpoint-node';
import { presetConfig } from '../rl/config';
import { LabPolicy } from '../rl/lab-policy';
import { loadCurriculum } from './lab-setup';
import { startLabWarmup } from './lab-warmup';
import { coderPrompt } from '../rl/prompts';
import { grpoSettingsAt } from '../rl/trainer-grpo';
import type { GrpoItem } from '../rl/policy';

let gpu: Gpu;
beforeAll(async () => {
  gpu = await sharedNodeGpu();
}, 300_000);

describe('lab pipeline warm-up (micro)', { timeout: 600_000 }, () => {
  it('prefetches what a rollout and a GRPO update dispatch, without disturbing them', async () => {
    // A fixed seed: the check needs a device that has compiled nothing yet (one per test file), so it cannot loop
    // over seeds in one process; the dry run's shapes, not the seed, decide what it covers.
    const seed = 1;
    const config = presetConfig('micro', { seed });
    const ck = await loadCheckpointDir(`public/${config.model.coderCheckpoint}`);
    const make = (name: string) =>
      LabPolicy.create(gpu, {
        name,
        checkpoint: ck,
        rolloutQuant: config.rollout.rollout_quant,
        maxPromptTokens: config.rollout.max_prompt_length,
      });
    const policy = make('warm-a');
    const M = config.rollout.num_generations;
    const prompts = loadCurriculum(config.tasks.families)
      .train.slice(0, 2)
      .flatMap((p) => Array<string>(M).fill(coderPrompt(p.prompt)));
    const opts = { maxNewTokens: 12, temperature: 1, topP: 1, seed };

    const task = startLabWarmup(gpu, config, { coder: ck, tester: ck }, 'train');
    const misses = gpu.pipelines.misses;
    // Sampling waits for the sampling kernels' compiles only: it may start while the update's are still compiling
    // (they start after; the check below that nothing compiles synchronously shows sampling found its own ready).
    await gpu.ready('generate');
    const atSampling = gpu.pipelines.warmup();
    console.log(`sampling may start: ${atSampling.settled} of ${atSampling.started} compiles settled`);
    expect(atSampling.settled).toBeGreaterThan(0);
    expect(atSampling.settled, 'update compiles still in flight').toBeLessThan(atSampling.started);
    // Started at once, as the trainer's first step is: generate waits for the warm-up instead of compiling.
    const gens = await policy.generate(prompts, opts);
    const items: GrpoItem[] = gens
      .filter((g) => g.completionTokens.length > 0)
      .map((g, i) => ({ ...g, advantage: i % 2 ? 1 : -1 }));
    await policy.grpoUpdate(items, grpoSettingsAt(config, 0, config.optim.lr));
    const started = await task;
    expect(started).toBeGreaterThan(0);
    console.log(
      `seed ${seed}: warm-up started ${started} compiles; sync compiles after it ${gpu.pipelines.misses - misses}`,
    );
    expect(gpu.pipelines.misses - misses, `seed ${seed}`).toBe(0);
    expect(gpu.pipelines.raced).toBe(0);

    // A second copy, run after everything is compiled with nothing else in flight, samples the same tokens.
    const other = make('warm-b');
    const again = await other.generate(prompts, opts);
    expect(
      again.map((g) => g.completionTokens),
      `seed ${seed}`,
    ).toEqual(gens.map((g) => g.completionTokens));
    other.destroy();
    policy.destroy();
  });
});
