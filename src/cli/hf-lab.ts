// A headless run with Hugging Face models: Coder and Tester folders imported, the memory plan printed (and the run
// refused with a setting that fits when it does not), LoRA policies on the release's chat prompts, the sandbox and
// the curriculum as in lab-node.ts.
import { resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { createNodeGpu } from '../gpu/node';
import { createNodeSandbox } from '../sandbox/node';
import type { Gpu } from '../gpu/runtime';
import { dirSource } from '../model/hf/source-node';
import { LORA_TARGETS, validateLoraConfig } from '../model/hf/lora';
import { peftBaseOf } from '../model/hf/export';
import type { TrainConfig } from '../rl/config';
import type { PolicyFiles } from '../rl/policy';
import type { RunStore } from '../run/run-store';
import { HfLoraPolicy } from '../rl/hf-policy';
import { loadCurriculum } from '../run/lab-setup';
import { loadHfPolicy, type HfLoraSettings } from '../run/hf-setup';
import { modeRules } from '../rl/modes';
import { Progress } from './progress';
import { intArg, numArg, UsageError, type Args } from './args';
import { closeLab, type LabOf } from './lab-node';

export interface HfRunOptions extends HfLoraSettings {
  coderModel: string;
  /** Default: a second copy of the Coder's model (its own adapters). */
  testerModel?: string;
}

/** HfRunOptions from parsed flags, or undefined without --coder-model. */
export function hfOptions(args: Args): HfRunOptions | undefined {
  if (typeof args['coder-model'] !== 'string') {
    for (const k of ['tester-model', 'lora-rank', 'lora-alpha'])
      if (args[k] !== undefined) throw new UsageError(`--${k} needs --coder-model (a Hugging Face model folder)`);
    return undefined;
  }
  const rank = intArg(args, 'lora-rank', 16, { min: 1 });
  const alpha = numArg(args, 'lora-alpha', 2 * rank, { above: 0 });
  const budget = numArg(args, 'budget-gb', 8, { above: 0 });
  return {
    // Absolute, so that hf.json lets --resume find the folders from anywhere.
    coderModel: resolve(args['coder-model']),
    testerModel: typeof args['tester-model'] === 'string' ? resolve(args['tester-model']) : undefined,
    lora: validateLoraConfig({ rank, alpha, targets: [...LORA_TARGETS] }),
    microBatch: intArg(args, 'micro-batch', 4, { min: 1 }),
    budgetBytes: budget * 2 ** 30,
  };
}

export type HfLab = LabOf<HfLoraPolicy>;

/** Saved with a LoRA run, so that --resume reopens the same folders with the same settings. */
export const HF_RUN_FILE = 'hf.json';

export function hfRunJson(o: HfRunOptions): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(o, null, 2) + '\n');
}

/** The options a LoRA run was started with, or undefined for a run of the lab's own models. */
export async function readHfRun(store: RunStore): Promise<HfRunOptions | undefined> {
  const b = await store.read(HF_RUN_FILE);
  return b ? (JSON.parse(new TextDecoder().decode(b)) as HfRunOptions) : undefined;
}

async function loadPolicy(
  gpu: Gpu,
  name: string,
  dir: string,
  config: TrainConfig,
  o: HfRunOptions,
  log: (m: string) => void,
  restore?: PolicyFiles,
): Promise<HfLoraPolicy> {
  const path = resolve(dir);
  if (!existsSync(path)) throw new UsageError(`--${name}-model ${dir}: no such folder`);
  const bar = new Progress();
  try {
    return await loadHfPolicy(gpu, config, o, {
      name,
      src: dirSource(path),
      // PEFT resolves the base from adapter_config.json: the hub id of a cached snapshot, else this absolute path.
      baseModel: peftBaseOf(path),
      restore,
      settingsHint:
        'flags: micro-batch is --micro-batch N; per-layer recompute is --set optim.recompute=true; the rollout batch is rollout.problems_per_step × num_generations (× tester_generations for the tester), set with --set; the budget is --budget-gb',
      log: (m) => (bar.clear(), log(m)),
      onProgress: (p) => bar.update(`loading ${name}`, p.tensorsDone, p.tensorsTotal),
    });
  } finally {
    bar.clear();
  }
}

export async function openHfLab(
  config: TrainConfig,
  o: HfRunOptions,
  log: (m: string) => void = () => {},
  saved?: { coder: PolicyFiles; tester?: PolicyFiles },
): Promise<HfLab> {
  if (modeRules(config.mode).testerIsCoder)
    throw new Error('Hugging Face models: self-play is not supported yet (use code-a1 or golden)');
  const gpu = await createNodeGpu();
  log(`gpu: ${gpu.summary.vendor} ${gpu.summary.architecture}`);
  const policies: HfLoraPolicy[] = [];
  const sandbox = createNodeSandbox({ spares: 1 });
  try {
    policies.push(await loadPolicy(gpu, 'coder', o.coderModel, config, o, log, saved?.coder));
    policies.push(await loadPolicy(gpu, 'tester', o.testerModel ?? o.coderModel, config, o, log, saved?.tester));
  } catch (e) {
    policies.forEach((p) => p.destroy());
    await sandbox.close();
    gpu.destroy();
    throw e;
  }
  const [coder, tester] = policies;
  const cur = loadCurriculum(config.tasks.families);
  return {
    gpu,
    sandbox,
    coder,
    tester,
    trainProblems: cur.train,
    heldout: cur.heldout,
    renamed: cur.renamed,
    heldoutFamily: cur.heldoutFamily,
    mutants: cur.mutants,
    close: () => closeLab(gpu, sandbox, coder, tester),
  };
}
