// Opens everything a headless run needs in Node: a GPU (Dawn/SwiftShader), a Pyodide sandbox pool, the curriculum,
// and the Coder/Tester policies from shipped checkpoints, fresh init (micro) or a resumed run.
import { resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { createNodeGpu } from '../gpu/node';
import { createNodeSandbox } from '../sandbox/node';
import type { Sandbox } from '../sandbox/types';
import { loadCheckpointDir } from '../model/checkpoint-node';
import { CheckpointError } from '../model/checkpoint';
import { SHIPPED_MODELS_HOW, type TrainConfig } from '../rl/config';
import type { Committed } from '../run/run-store';
import { buildPolicies, freshSources, runProblems, type PolicySources, type RunProblems } from '../run/lab-setup';
import type { LabPolicy } from '../rl/lab-policy';
import type { Gpu } from '../gpu/runtime';
import { startLabWarmup, type WarmScope } from '../run/lab-warmup';

/** A lab opened in Node: GPU, sandbox, the two policies (of type P) and the problems. */
export interface LabOf<P> extends RunProblems {
  gpu: Gpu;
  sandbox: Sandbox;
  coder: P;
  tester: P;
  close(): Promise<void>;
}

export type NodeLab = LabOf<LabPolicy>;

/** Frees a lab: the sandbox's workers, each policy once (self-play shares one), then the device. */
export async function closeLab(
  gpu: Gpu,
  sandbox: Sandbox,
  coder: { destroy(): void },
  tester: { destroy(): void },
): Promise<void> {
  await sandbox.close();
  // A warm-up still compiling must settle before its device goes away.
  await gpu.pipelines.ready();
  coder.destroy();
  if (tester !== coder) tester.destroy();
  gpu.destroy();
}

/** Resolves a checkpoint path as given, or under public/ (where the shipped models live). */
export function checkpointPath(p: string): string {
  const direct = resolve(p);
  if (existsSync(direct)) return direct;
  const pub = resolve('public', p);
  if (existsSync(pub)) return pub;
  const looked = direct === pub ? direct : `${direct} and ${pub}`;
  throw new CheckpointError(`checkpoint '${p}' not found (looked in ${looked}); ${SHIPPED_MODELS_HOW}`);
}

export async function loadSources(config: TrainConfig): Promise<PolicySources> {
  if (!config.model.coderCheckpoint) return freshSources(config);
  const coder = await loadCheckpointDir(checkpointPath(config.model.coderCheckpoint));
  const tester = config.model.testerCheckpoint
    ? await loadCheckpointDir(checkpointPath(config.model.testerCheckpoint))
    : coder;
  return { coder, tester };
}

export async function openNodeLab(
  config: TrainConfig,
  committed?: Committed,
  log: (m: string) => void = () => {},
  /**
   * Off by default in Node: Dawn's async-compiled pipelines ran 3-10% slower on SwiftShader than synchronously compiled
   * ones (linear_quad, same process, alternating; a tiny step 1.07x), which over a long run costs more than step 0's
   * ~9 s of main-thread compiles. The browser warms up (session.ts).
   */
  warm: WarmScope | 'none' = 'none',
): Promise<NodeLab> {
  const gpu = await createNodeGpu();
  log(`gpu: ${gpu.summary.vendor} ${gpu.summary.architecture}`);
  // A spare worker absorbs the cold start after a hard stop (runaway candidate) so training does not stall.
  const sandbox = createNodeSandbox({ spares: 1 });
  const sources = await loadSources(config);
  const { coder, tester } = buildPolicies(
    gpu,
    config,
    sources,
    committed ? { coder: committed.coder, tester: committed.tester } : undefined,
  );
  // Compiles the shaders step 0 will need off this thread while the sandbox and the first prompts get ready.
  if (warm !== 'none') startLabWarmup(gpu, config, sources, warm);
  log(
    `models: coder ${coder.model.layout.totalFloats.toLocaleString()} floats${tester !== coder ? `, tester ${tester.model.layout.totalFloats.toLocaleString()} floats` : ' (self-play: one model)'}`,
  );
  return {
    gpu,
    sandbox,
    coder,
    tester,
    ...runProblems(config),
    close: () => closeLab(gpu, sandbox, coder, tester),
  };
}
