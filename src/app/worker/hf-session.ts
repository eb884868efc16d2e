// A run with Hugging Face models in the Worker: the picked or downloaded files imported (progress in the status line),
// LoRA policies opened by the same setup as the CLI (src/run/hf-setup.ts), and hf.json saved with the run so a reload
// finds the models again (a hub model from the browser's cache; picked files must be picked again).
import type { Gpu } from '../../gpu/runtime';
import { blobSource } from '../../model/hf/source';
import { peftBasePlaceholder } from '../../model/hf/export';
import type { LoraConfig } from '../../model/hf/lora';
import type { TrainConfig } from '../../rl/config';
import type { HfLoraPolicy } from '../../rl/hf-policy';
import { loadHfPolicy, type HfLoraSettings } from '../../run/hf-setup';
import { modeRules } from '../../rl/modes';
import type { RunStore } from '../../run/run-store';
import type { PolicyFiles } from '../../rl/policy';
import type { HfModelSpec, HfOrigin } from '../hf/hf-files';
import { loadHubModel } from '../hf/hub-cache';

export const HF_RUN_FILE = 'hf-models.json';

/** What the page sends to start a LoRA run. */
export interface HfStart extends HfLoraSettings {
  coder: HfModelSpec;
  /** Default: the Coder's model again, with its own adapters. */
  tester?: HfModelSpec;
}

interface HfRunRecord extends HfLoraSettings {
  coder: { label: string; origin: HfOrigin };
  tester?: { label: string; origin: HfOrigin };
}

const enc = new TextEncoder();

async function readRecord(store: RunStore): Promise<HfRunRecord | undefined> {
  const b = await store.read(HF_RUN_FILE);
  return b ? (JSON.parse(new TextDecoder().decode(b)) as HfRunRecord) : undefined;
}

/** Whether a stored run was made with Hugging Face models. */
export async function isHfRun(store: RunStore): Promise<boolean> {
  return (await store.read(HF_RUN_FILE)) !== undefined;
}

/** A model's files again for a stored run: the start message's, else the hub cache's (no network when cached). */
async function filesFor(m: { label: string; origin: HfOrigin }, given?: HfModelSpec): Promise<Record<string, Blob>> {
  if (given) return given.files;
  if (m.origin.kind === 'hub') return Object.fromEntries((await loadHubModel(m.origin)).files);
  throw new Error(
    `this run uses the Hugging Face model ${m.label} from picked files, which a reload cannot read again: pick the same files in the Model panel, then Resume`,
  );
}

export async function openHfPolicies(
  gpu: Gpu,
  config: TrainConfig,
  store: RunStore,
  start: HfStart | undefined,
  saved: { coder: PolicyFiles; tester?: PolicyFiles } | undefined,
  onLoading: (msg: string) => void,
): Promise<{ coder: HfLoraPolicy; tester: HfLoraPolicy; label: string }> {
  if (modeRules(config.mode).testerIsCoder)
    throw new Error('Hugging Face models: self-play is not supported yet (use code-a1 or golden)');
  // Models given with Start replace the record of a run that has not committed a step yet (a retry after an error).
  let rec = start ? undefined : await readRecord(store);
  if (!rec) {
    if (!start) throw new Error('no Hugging Face model given for this run');
    const { coder, tester, ...settings } = start;
    rec = {
      ...settings,
      coder: { label: coder.label, origin: coder.origin },
      tester: tester && { label: tester.label, origin: tester.origin },
    };
    await store.write(HF_RUN_FILE, enc.encode(JSON.stringify(rec, null, 2) + '\n'));
  }
  const lora: LoraConfig = rec.lora;
  const settings: HfLoraSettings = { lora, microBatch: rec.microBatch, budgetBytes: rec.budgetBytes };
  const open = async (name: 'coder' | 'tester', m: { label: string; origin: HfOrigin }, given?: HfModelSpec) => {
    onLoading(`loading the ${name} (${m.label})`);
    return loadHfPolicy(gpu, config, settings, {
      name,
      src: blobSource(new Map(Object.entries(await filesFor(m, given))), m.label),
      // Picked files carry no path PEFT could resolve: a placeholder docs/hf.md tells the user to fill in.
      baseModel: m.origin.kind === 'hub' ? m.origin.repo : peftBasePlaceholder(m.label),
      settingsHint:
        'lower the micro-batch or problems / step in the Model panel and the hyperparameters, or raise the budget',
      restore: saved?.[name],
      onProgress: (p) => onLoading(`loading the ${name} (${m.label}): ${p.tensorsDone}/${p.tensorsTotal} tensors`),
    });
  };
  const coder = await open('coder', rec.coder, start?.coder);
  try {
    const t = rec.tester ?? rec.coder;
    const tester = await open('tester', t, rec.tester ? start?.tester : start?.coder);
    const label = `Hugging Face: coder ${rec.coder.label}, tester ${t.label} (LoRA r${lora.rank}, α ${lora.alpha})`;
    return { coder, tester, label };
  } catch (e) {
    coder.destroy();
    throw e;
  }
}
