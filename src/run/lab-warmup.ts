// Pipeline warm-up for a lab: a dry run of the trainer's GPU code paths on a throwaway copy of each policy, on a
// dry-run view of the device (every dispatch only starts an async compile of its pipeline, nothing runs), started
// right after the policies are built. Step 0 then finds its shaders compiled off the calling thread instead of
// compiling ~40 of them synchronously at first use (seconds of main-thread time each on SwiftShader).
import type { Gpu } from '../gpu/runtime';
import type { LoadedCheckpoint } from '../model/checkpoint';
import type { TrainConfig } from '../rl/config';
import { LabPolicy } from '../rl/lab-policy';
import type { GrpoItem } from '../rl/policy';
import { grpoSettingsAt } from '../rl/trainer-grpo';

/** What a lab will run: rollouts only (evaluation) or rollouts and GRPO updates (training). */
export type WarmScope = 'generate' | 'train';

export interface WarmSources {
  coder: LoadedCheckpoint;
  tester: LoadedCheckpoint;
}

/** Row counts the dry run decodes at: decode matmuls pick their tile by live rows (compaction shrinks them). */
const DECODE_ROWS = [8, 4, 2, 1];

/**
 * Starts the warm-up and registers it with the pipeline cache, whose ready() the model's entry points await (so the
 * first generate waits for the compiles instead of repeating them). Returns the task (resolves to the number of
 * pipelines it started compiling).
 */
export function startLabWarmup(gpu: Gpu, config: TrainConfig, src: WarmSources, scope: WarmScope): Promise<number> {
  let samplingReady!: () => void;
  const sampling = new Promise<void>((r) => (samplingReady = r));
  const task = warmLabPipelines(gpu, config, src, scope, samplingReady).finally(samplingReady);
  gpu.pipelines.track(task, sampling);
  return task;
}

/**
 * The dry runs, sampling first: every policy's generate calls, then (once those compiles have settled, which
 * `onSampling` reports) the GRPO updates. A first rollout waits only for the first part, and the update's compiles do
 * not compete with the sampling kernels' on a few cores.
 */
export async function warmLabPipelines(
  gpu: Gpu,
  config: TrainConfig,
  src: WarmSources,
  scope: WarmScope,
  onSampling: () => void = () => {},
): Promise<number> {
  const cache = gpu.pipelines;
  // One dry run per distinct architecture: the kernels and their override sets depend on the shapes, not the weights.
  const seen = new Set<string>();
  const checkpoints = [src.coder, src.tester].filter((ck) => {
    const key = JSON.stringify(ck.layout.config);
    return !seen.has(key) && !!seen.add(key);
  });
  const before = cache.requested;
  // Each view has its own buffers and dispatches nothing, so the lab's own work (which may already be running) is
  // untouched; ready() on the lab's Gpu waits for this task.
  const dry: { view: Gpu; policy?: LabPolicy }[] = [];
  try {
    for (const ck of checkpoints) {
      const d: { view: Gpu; policy?: LabPolicy } = { view: gpu.dryRunView() };
      dry.push(d);
      d.policy = LabPolicy.create(d.view, {
        name: 'warmup',
        checkpoint: ck,
        rolloutQuant: config.rollout.rollout_quant,
        maxPromptTokens: config.rollout.max_prompt_length,
      });
    }
    for (const d of dry) await dryGenerate(d.policy!, config);
    await cache.settleInFlight();
    onSampling();
    if (scope === 'train') for (const d of dry) await dryUpdate(d.policy!, config);
  } finally {
    for (const d of dry) {
      d.policy?.destroy();
      d.view.releaseView();
    }
  }
  return cache.requested - before;
}

/** The sampler's calls on made-up prompts of the trainer's shapes. */
async function dryGenerate(policy: LabPolicy, config: TrainConfig): Promise<void> {
  const { rollout } = config;
  // A prompt of about the length the trainer's are (the quad matmul applies from 32 rows on, as in real prefills).
  const line = 'def solve(values):\n    """Return the sum of the even values."""\n';
  let prompt = line;
  while (policy.tokenCount(prompt) < Math.min(64, rollout.max_prompt_length)) prompt += line;
  const sampling = { maxNewTokens: 2, temperature: rollout.temperature, topP: rollout.top_p, seed: 1 };
  for (const rows of DECODE_ROWS) {
    // Two rows per distinct prompt where there are two: prefill once, fan out (the trainer's M samples per problem).
    const prompts = Array.from({ length: rows }, (_, i) => `${prompt}# ${Math.floor(i / 2)}\n`);
    await policy.generate(prompts, sampling);
  }
  // A short prompt: prefill matmuls below the quad kernel's row minimum.
  await policy.generate(['def f(x):'], sampling);
}

/** The GRPO updates' calls on made-up groups of the trainer's shapes. */
async function dryUpdate(policy: LabPolicy, config: TrainConfig): Promise<void> {
  const { rollout } = config;
  const V = policy.model.config.vocabSize;
  const promptLen = Math.min(64, rollout.max_prompt_length);
  const item = (g: number, j: number, n: number, len = promptLen): GrpoItem => {
    const completionTokens = Array.from({ length: n }, (_, i) => (g * 13 + j * 5 + i * 11 + 1) % V);
    return {
      promptTokens: Array.from({ length: len }, (_, i) => (g * 31 + i * 7 + 3) % V),
      completionTokens,
      rolloutLogprobs: completionTokens.map(() => -1),
      advantage: j % 2 ? 1 : -1,
    };
  };
  const settings = grpoSettingsAt(config, 0, config.optim.lr);
  // The trainer's shape: groups of samples sharing a prompt, completions of assorted lengths.
  const groups = Math.max(2, Math.min(4, rollout.problems_per_step));
  const per = Math.max(2, Math.min(4, rollout.num_generations));
  const cap = (n: number) => Math.max(1, Math.min(rollout.max_completion_length, n));
  const items: GrpoItem[] = [];
  for (let g = 0; g < groups; g++) for (let j = 0; j < per; j++) items.push(item(g, j, cap(8 + 5 * j)));
  await policy.grpoUpdate(items, settings);
  // Small updates (few completion tokens, short prompts): the head and weight-gradient matmuls at small row counts
  // take other tiles.
  for (const n of [1, 2, 5]) await policy.grpoUpdate([item(0, 0, n, 8), item(0, 1, cap(n + 1), 8)], settings);
}
