// Opens a training run inside the Worker: config, models, sandbox, problems and the IndexedDB run directory.
// Resuming reads the last committed step exactly as the CLI's --resume does (RunDir.loadCommitted).
import type { Gpu } from '../../gpu/runtime';
import type { Sandbox } from '../../sandbox/types';
import type { TrainConfig } from '../../rl/config';
import type { Policy, PolicyFiles } from '../../rl/policy';
import { RunDir } from '../../rl/run-store';
import { Trainer } from '../../rl/trainer';
import type { StepMetrics } from '../../rl/metrics';
import { generateProblems, problemsBySplit } from '../../tasks/generate';
import { IdbRunStore } from '../persist/idb-run-store';

export interface Session {
  config: TrainConfig;
  trainer: Trainer;
  coder: Policy;
  tester: Policy;
  sandbox: Sandbox;
  dir: RunDir;
  store: IdbRunStore;
  /** Metrics of the committed steps this session resumed from (empty for a new run). */
  history: StepMetrics[];
  modelSource: string;
}

export interface SessionDeps {
  gpu: Gpu;
  sandbox: Sandbox;
  /** Builds a policy on the GPU from saved files, or fresh from the config when files is undefined. */
  createPolicy(gpu: Gpu, config: TrainConfig, role: 'coder' | 'tester', files: PolicyFiles | undefined): Promise<Policy>;
}

export async function openSession(runId: string, fresh: TrainConfig, deps: SessionDeps, userModels?: { coder?: PolicyFiles; tester?: PolicyFiles }): Promise<Session> {
  const store = new IdbRunStore(runId);
  const dir = new RunDir(store);
  const committed = await dir.loadCommitted();
  // A stored run keeps its own config: resuming must continue the same experiment.
  const config = committed?.config ?? fresh;
  if (!committed) await dir.init(config);
  const coderFiles = committed?.coder ?? userModels?.coder;
  const testerFiles = committed?.tester ?? userModels?.tester;
  const coder = await deps.createPolicy(deps.gpu, config, 'coder', coderFiles);
  const tester = config.mode === 'self-play' ? coder : await deps.createPolicy(deps.gpu, config, 'tester', testerFiles);
  const problems = problemsBySplit(generateProblems(), 'train');
  const trainer = new Trainer(config, { sandbox: deps.sandbox, coder, tester, problems }, committed?.state);
  const modelSource = committed
    ? `checkpoint of step ${committed.state.step} (IndexedDB)`
    : userModels?.coder
      ? 'your files'
      : config.model.coderCheckpoint
        ? `shipped checkpoint ${config.model.coderCheckpoint}`
        : `fresh ${config.model.preset} initialisation (seed ${config.seed})`;
  return { config, trainer, coder, tester, sandbox: deps.sandbox, dir, store, history: committed?.metrics ?? [], modelSource };
}

