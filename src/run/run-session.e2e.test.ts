// RunSession on `micro` with the real models, sandbox and run directory (NodeRunStore): checkpoint copies every
// checkpoint_every steps and at a run's last step, pruning to keepCopies, evaluations every evalEvery steps, a run
// reopened from its directory continuing exactly where an uninterrupted one goes, pause and step-through.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedNodeGpu } from '../gpu/node';
import type { Gpu } from '../gpu/runtime';
import { createNodeSandbox } from '../sandbox/node';
import { loadCheckpointDir } from '../model/checkpoint-node';
import { presetConfig, type TrainConfig } from '../rl/config';
import type { StepMetrics } from '../rl/metrics';
import { buildPolicies, runProblems, type PolicySources } from './lab-setup';
import { PHASES, type Phase } from '../rl/records';
import { RunDir } from './run-store';
import { NodeRunStore } from './run-store-node';
import { checkpointDir, RUN_FILES, type EvalPoint } from './run-layout';
import { RunSession, type CommittedStep, type EvalRequest, type SessionOptions } from './run-session';
import type { TrainerState } from '../rl/trainer-types';
import type { PolicyFiles } from '../rl/policy';

const sandbox = createNodeSandbox();
let gpu: Gpu;
let sources: PolicySources;
const dirs: string[] = [];
const policies: { destroy(): void }[] = [];

// Small shapes (one problem, two candidates, two tester outputs each); checkpoint copies every 2 steps, so a 3-step
// run has a step with no copy (1), one by the period (2) and one because it is the last (3).
const CONFIG: TrainConfig = presetConfig('micro', {
  mode: 'code-a1',
  seed: 7,
  rollout: { num_generations: 2, tester_generations: 2, rollout_quant: 'int8' },
  optim: { lr: 1e-3, tester_lr: 1e-3 },
  run: { checkpoint_every: 2 },
});
const EVAL: EvalRequest = { splits: ['heldout'], problems: 1, samples: 2, selection: false };

beforeAll(async () => {
  gpu = await sharedNodeGpu();
  await sandbox.warm();
  sources = {
    coder: await loadCheckpointDir(`public/${CONFIG.model.coderCheckpoint}`),
    tester: await loadCheckpointDir(`public/${CONFIG.model.testerCheckpoint}`),
  };
}, 300_000);

afterAll(async () => {
  for (const p of new Set(policies)) p.destroy();
  await sandbox.close();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function newDir(): Promise<RunDir> {
  const root = await mkdtemp(join(tmpdir(), 'run-session-'));
  dirs.push(root);
  return new RunDir(new NodeRunStore(root));
}

/** A session over `dir`, from the shipped micro models or, resuming, from the files and state the directory holds. */
function session(
  dir: RunDir,
  opts: SessionOptions,
  resume?: { state: TrainerState; coder: PolicyFiles; tester?: PolicyFiles },
): RunSession {
  const { coder, tester } = buildPolicies(gpu, CONFIG, sources, resume);
  policies.push(coder, tester);
  return new RunSession({ ...runProblems(CONFIG), config: CONFIG, dir, sandbox, coder, tester }, resume?.state, opts);
}

/** Runs `steps` steps with an evaluation every 2; returns which steps kept a checkpoint copy. */
async function run(s: RunSession, steps: number): Promise<boolean[]> {
  const kept: boolean[] = [];
  await s.run(steps, {
    evalEvery: 2,
    evalRequest: EVAL,
    onCommitted: (c: CommittedStep) => void kept.push(c.keptCopy),
  });
  return kept;
}

const strip = (m: StepMetrics) =>
  Object.fromEntries(Object.entries(m).filter(([k]) => !k.startsWith('time') && !k.startsWith('perf')));
/** An evaluation without its wall times. */
const evalResult = (p: EvalPoint) => ({
  ...p,
  seconds: undefined,
  rows: p.rows.map((r) => ({ ...r, seconds: undefined })),
});

async function latestCoder(dir: RunDir): Promise<string[]> {
  return dir.store.list(RUN_FILES.latest + 'coder/');
}

describe('RunSession on micro (real models, sandbox and run directory)', { timeout: 600_000 }, () => {
  let full: RunDir;

  it('an uninterrupted run keeps copies every checkpoint_every steps and at its last, prunes the oldest, evaluates every evalEvery', async () => {
    full = await newDir();
    await full.init(CONFIG);
    const s = session(full, { keepCopies: 1 });
    expect(await run(s, 3)).toEqual([false, true, true]);
    // Step 2's copy was written, then pruned when step 3's made two.
    expect(await full.checkpointCopies()).toEqual(['step-00003']);
    const names = await latestCoder(full);
    expect(names.length).toBeGreaterThan(0);
    for (const n of names)
      expect(await full.store.read(checkpointDir(3) + 'coder/' + n)).toEqual(
        await full.store.read(RUN_FILES.latest + 'coder/' + n),
      );

    const metrics = await full.readMetrics();
    expect(metrics.map((m) => m.step)).toEqual([0, 1, 2]);
    const evals = await full.readEvals();
    expect(evals.map((e) => e.step)).toEqual([0, 2]);
    expect(evals[0].rows.map((r) => [r.split, r.problems, r.samples])).toEqual([['heldout', 1, 2]]);
    expect(evals[0].trainPassRate).toBeUndefined();
    // The training batches since the previous evaluation: steps 0 and 1.
    expect(evals[1].trainPassRate).toBeCloseTo((metrics[0]['coder/pass_rate'] + metrics[1]['coder/pass_rate']) / 2, 12);
  });

  it('a run stopped after 2 steps and reopened from its directory goes on exactly as the uninterrupted one', async () => {
    const dir = await newDir();
    await dir.init(CONFIG);
    expect(await run(session(dir, { keepCopies: 1 }), 2)).toEqual([false, true]);
    expect(await dir.checkpointCopies()).toEqual(['step-00002']);

    const committed = (await new RunDir(dir.store).loadCommitted())!;
    expect(committed.state.step).toBe(2);
    const resumed = session(dir, { keepCopies: 1 }, committed);
    expect(await run(resumed, 1)).toEqual([true]);
    expect(await dir.checkpointCopies()).toEqual(['step-00003']);

    expect((await dir.readMetrics()).map(strip)).toEqual((await full.readMetrics()).map(strip));
    // Step 2 was evaluated before the stop, so the reopened run does not repeat it; the results are the same models'.
    expect((await dir.readEvals()).map(evalResult)).toEqual((await full.readEvals()).map(evalResult));
    for (const n of await latestCoder(full))
      expect(await dir.store.read(RUN_FILES.latest + 'coder/' + n)).toEqual(
        await full.store.read(RUN_FILES.latest + 'coder/' + n),
      );
  });

  it('a pause held inside a step (at phase boundaries, at a GRPO micro-batch boundary) resumes to the same numbers', async () => {
    const dir = await newDir();
    await dir.init(CONFIG);
    const s = session(dir, { keepCopies: 1 });
    const held: string[] = [];
    let last = '';
    // Pause as step 0's rewards are reported, and pause again at once after each of the first two resumes: the holds
    // are before the Mistake Book phase, before the update phase, then inside the update before a micro-batch.
    await s.run(2, {
      evalEvery: 2,
      evalRequest: EVAL,
      onPhase: (e) => {
        last = `${e.step}:${e.phase}`;
        if (e.step === 0 && e.phase === 'rewards' && !held.length) s.pause();
      },
      onHeld: () => {
        held.push(`after ${last}`);
        expect(s.held).toBe(true);
        setTimeout(() => {
          expect(s.resume()).toBe(true);
          if (held.length < 3) s.pause();
        }, 20);
      },
    });
    expect(held).toEqual(['after 0:rewards', 'after 0:mistake-book', 'after 0:mistake-book']);
    expect(s.stepsDone).toBe(2);
    expect((await dir.readMetrics()).map(strip)).toEqual((await full.readMetrics()).slice(0, 2).map(strip));
  });

  it('step-through waits before every phase; pause ends the run after the step in progress; a stop with a reason rejects', async () => {
    const dir = await newDir();
    await dir.init(CONFIG);
    const s = session(dir, {});
    s.setStepThrough(true);
    const waited: Phase[] = [];
    await s.run(Infinity, {
      onWaiting: (p) => {
        waited.push(p);
        setTimeout(() => s.nextPhase(), 0);
      },
      onCommitted: () => s.pause(),
    });
    expect(waited).toEqual([...PHASES]);
    expect((await dir.readMetrics()).map((m) => m.step)).toEqual([0]);
    expect(s.busy).toBe(false);

    await expect(s.run(Infinity, { onWaiting: () => s.stop(new Error('device lost')) })).rejects.toThrow('device lost');
    expect(s.stepsDone).toBe(1);
    expect((await dir.readMetrics()).map((m) => m.step)).toEqual([0]);
  });
});
