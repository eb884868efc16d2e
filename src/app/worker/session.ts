// Opens a training run inside the Worker: config, models, sandbox, problems and the IndexedDB run directory, with
// the same platform-neutral setup as the CLI (src/run/lab-setup.ts) and the same RunSession. Resuming reads the last
// committed step exactly as the CLI's --resume does (RunDir.loadCommitted).
import type { Gpu } from '../../gpu/runtime';
import type { Sandbox } from '../../sandbox/types';
import { SHIPPED_MODELS_HOW, type TrainConfig } from '../../rl/config';
import type { Policy, PolicyFiles } from '../../rl/policy';
import { RunDir } from '../../run/run-store';
import { RUN_FILES } from '../../run/run-layout';
import { RunSession } from '../../run/run-session';
import type { StepMetrics } from '../../rl/metrics';
import { buildPolicies, freshSources, runProblems, type PolicySources } from '../../run/lab-setup';
import { startLabWarmup } from '../../run/lab-warmup';
import {
  CONFIG_FILE,
  TOKENIZER_FILE,
  WEIGHTS_FILE,
  loadCheckpoint,
  type LoadedCheckpoint,
} from '../../model/checkpoint';
import { IdbRunStore } from '../persist/idb-run-store';
import { fetchShippedFiles } from '../persist/shipped-files';
import { isHfRun, openHfPolicies, type HfStart } from './hf-session';

/** The lab's own models (LabPolicy) or Hugging Face models with LoRA (HfLoraPolicy). */
export type SessionPolicy = Policy & { destroy(): void };

/** Browser storage is small: the last few per-step checkpoint copies are kept (latest/ always stays). */
const COPIES_KEPT = 3;

export interface Session {
  run: RunSession;
  /** Metrics of the committed steps this session resumed from (empty for a new run). */
  history: StepMetrics[];
  modelSource: string;
  close(): void;
}

const dec = new TextDecoder();

function checkpointFromFiles(files: PolicyFiles, what: string): LoadedCheckpoint {
  const need = (n: string) => {
    const f = Object.entries(files).find(
      ([name]) => name === n || name.endsWith('/' + n) || (n === WEIGHTS_FILE && name.endsWith('.safetensors')),
    );
    if (!f) throw new Error(`${what}: ${n} is missing`);
    return f[1];
  };
  try {
    return loadCheckpoint({
      weights: need(WEIGHTS_FILE),
      config: dec.decode(need(CONFIG_FILE)),
      tokenizerJson: dec.decode(need(TOKENIZER_FILE)),
    });
  } catch (e) {
    const msg = (e as Error).message;
    // Name the model in every error, so the user knows which files to replace.
    throw new Error(msg.startsWith(what) ? msg : `${what}: ${msg}`);
  }
}

/** A shipped checkpoint under public/ (e.g. `models/coder`), fetched from this site. */
async function fetchCheckpoint(path: string): Promise<LoadedCheckpoint> {
  const files = await fetchShippedFiles(path, SHIPPED_MODELS_HOW);
  return checkpointFromFiles(files, `shipped checkpoint ${path}`);
}

async function readSourceFiles(store: IdbRunStore, role: string): Promise<PolicyFiles | undefined> {
  const dir = `${RUN_FILES.sources}${role}/`;
  const names = await store.list(dir);
  if (!names.length) return undefined;
  const out: PolicyFiles = {};
  for (const n of names) out[n] = (await store.read(dir + n))!;
  return out;
}

/**
 * The starting checkpoints (also the KL reference). User files are stored with the run under sources/, so that a
 * resumed run rebuilds the same reference; shipped and fresh ones are rebuilt from the config.
 */
async function resolveSources(
  config: TrainConfig,
  store: IdbRunStore,
  user?: { coder?: PolicyFiles; tester?: PolicyFiles },
): Promise<{ sources: PolicySources; label: string }> {
  let coderFiles = await readSourceFiles(store, 'coder');
  let testerFiles = await readSourceFiles(store, 'tester');
  if (!coderFiles && user?.coder) {
    coderFiles = user.coder;
    testerFiles = user.tester;
    // Parse before storing: files that cannot load must not become part of the run.
    checkpointFromFiles(user.coder, 'your coder checkpoint');
    if (user.tester) checkpointFromFiles(user.tester, 'your tester checkpoint');
    for (const [role, files] of [
      ['coder', user.coder],
      ['tester', user.tester],
    ] as const) {
      for (const [n, data] of Object.entries(files ?? {}))
        await store.write(`${RUN_FILES.sources}${role}/${n.split('/').pop()}`, data);
    }
  }
  if (coderFiles) {
    const coder = checkpointFromFiles(coderFiles, 'your coder checkpoint');
    const tester = testerFiles ? checkpointFromFiles(testerFiles, 'your tester checkpoint') : coder;
    return { sources: { coder, tester }, label: 'your checkpoint files' };
  }
  if (config.model.coderCheckpoint) {
    const coder = await fetchCheckpoint(config.model.coderCheckpoint);
    const tester = config.model.testerCheckpoint ? await fetchCheckpoint(config.model.testerCheckpoint) : coder;
    return {
      sources: { coder, tester },
      label: `shipped checkpoints public/${config.model.coderCheckpoint}${config.model.testerCheckpoint ? `, public/${config.model.testerCheckpoint}` : ''}`,
    };
  }
  return { sources: freshSources(config), label: `fresh ${config.model.preset} initialisation (seed ${config.seed})` };
}

async function openLabPolicies(
  gpu: Gpu,
  config: TrainConfig,
  store: IdbRunStore,
  user: { coder?: PolicyFiles; tester?: PolicyFiles } | undefined,
  saved: { coder: PolicyFiles; tester?: PolicyFiles } | undefined,
): Promise<{ coder: SessionPolicy; tester: SessionPolicy; label: string }> {
  const { sources, label } = await resolveSources(config, store, user);
  const policies = buildPolicies(gpu, config, sources, saved);
  // The GPU process compiles the shaders step 0 needs while the sandbox warms up (first use awaits them).
  startLabWarmup(gpu, config, sources, 'train');
  return { ...policies, label };
}

export async function openSession(
  runId: string,
  fresh: TrainConfig,
  deps: { gpu: Gpu; sandbox: Sandbox },
  userModels?: { coder?: PolicyFiles; tester?: PolicyFiles; hf?: HfStart },
  onLoading: (msg: string) => void = () => {},
): Promise<Session> {
  const store = new IdbRunStore(runId);
  const dir = new RunDir(store);
  const committed = await dir.loadCommitted();
  // A stored run keeps its own config: resuming must continue the same experiment.
  const stored = committed?.config ?? (await dir.readConfig());
  const config = stored ?? fresh;
  // The same rule as the CLI's run directories: a new run starts only in an empty store (init refuses anything else).
  if (!stored) await dir.init(config);
  const saved = committed ? { coder: committed.coder, tester: committed.tester } : undefined;
  const hf = committed ? undefined : userModels?.hf;
  let policies: Awaited<ReturnType<typeof openLabPolicies>>;
  try {
    policies =
      hf || (await isHfRun(store))
        ? await openHfPolicies(deps.gpu, config, store, hf, saved, onLoading)
        : await openLabPolicies(deps.gpu, config, store, committed ? undefined : userModels, saved);
  } catch (e) {
    // A run that fails before its first step leaves nothing behind (its models could not even be opened).
    if (!stored) await dir.discard();
    throw e;
  }
  const { coder, tester, label } = policies;
  const run = new RunSession(
    { ...runProblems(config), config, dir, sandbox: deps.sandbox, coder, tester },
    committed?.state,
    { keepCopies: COPIES_KEPT },
  );
  const modelSource = committed ? `${label}; resumed from IndexedDB at step ${committed.state.step}` : label;
  return {
    run,
    history: committed?.metrics ?? [],
    modelSource,
    close() {
      coder.destroy();
      if (tester !== coder) tester.destroy();
    },
  };
}
