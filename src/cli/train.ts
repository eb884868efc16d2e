// `npm run train -- --preset tiny --mode code-a1 --steps 50 --seed 1 --out runs/NAME` (or `--resume runs/NAME`):
// headless Code-A1 / golden / self-play training with a progress bar, a compact line per step, and crash-safe runs.
import { existsSync } from 'node:fs';
import { mkdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { intArg, runMain, setOverrides, UsageError } from './args';
import { parseCli } from './cli-spec';
import { TRAIN_SPEC } from './help/run-specs';
import { Progress } from './progress';
import { presetConfig, type DeepPartial, type PresetName, type TrainConfig } from '../rl/config';
import type { Mode } from '../rl/metrics';
import { RunDir, RunDirError } from '../run/run-store';
import { NodeRunStore } from '../run/run-store-node';
import { TrainingHalted } from '../rl/trainer';
import { RunSession, type EvalRequest } from '../run/run-session';
import { formatStepLine } from '../run/format';
import { openNodeLab } from './lab-node';
import { DEFAULT_EVAL, parseHeldOutSplits } from '../run/eval';
import { formatReport } from '../run/format';
import { HF_RUN_FILE, hfOptions, hfRunJson, openHfLab, readHfRun } from './hf-lab';
import { HIDDEN_TESTS_FILE, readHiddenTests } from './hidden-tests-file';

async function main(): Promise<number> {
  const parsed = parseCli(TRAIN_SPEC, process.argv.slice(2));
  if (!parsed) return 0;
  const { args } = parsed;
  // Every flag is checked before anything is written: a mistake leaves no directory behind.
  const steps = intArg(args, 'steps', 20, { min: 1 });
  const evalEvery = intArg(args, 'eval-every', 0, { min: 0 });
  const evalProblems = intArg(args, 'eval-problems', 0, { min: 0 });
  const evalSamples = intArg(args, 'eval-samples', DEFAULT_EVAL.samples, { min: 1 });
  let evalSplits: ReturnType<typeof parseHeldOutSplits>;
  try {
    evalSplits = parseHeldOutSplits(args['eval-splits'] as string | undefined, '--eval-splits');
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const resumeDir = typeof args.resume === 'string' ? args.resume : undefined;
  const replace = args['force-delete'] ? 'delete' : args.force ? 'move' : undefined;
  if (args.force && args['force-delete']) throw new UsageError('--force and --force-delete: choose one');
  if (resumeDir && replace)
    throw new UsageError(`--resume continues ${resumeDir}; --force/--force-delete replace a run: choose one`);
  if (resumeDir && typeof args.out === 'string') throw new UsageError(`--resume ${resumeDir} writes there; drop --out`);
  const hfArg = hfOptions(args);
  if (hfArg && resumeDir)
    throw new UsageError(
      '--resume continues a LoRA run with the models and settings it started with (its hf.json): drop --coder-model and the LoRA flags',
    );
  const hiddenArg = typeof args['hidden-tests'] === 'string' ? args['hidden-tests'] : undefined;
  if (hiddenArg && resumeDir)
    throw new UsageError(
      `--resume continues with the hidden tests the run started with (its ${HIDDEN_TESTS_FILE}): drop --hidden-tests`,
    );
  const outDir =
    resumeDir ?? (typeof args.out === 'string' ? args.out : `runs/${new Date().toISOString().replace(/[:.]/g, '-')}`);
  const run = new RunDir(new NodeRunStore(outDir));
  if (resumeDir && !(await run.readConfig()))
    throw new UsageError(
      `--resume ${resumeDir}: ${existsSync(resumeDir) ? 'no config.json there (is it a run directory?)' : 'no such directory'}`,
    );
  const committed = resumeDir ? await run.loadCommitted() : undefined;

  let config: TrainConfig;
  if (committed) config = committed.config;
  else if (resumeDir) config = (await run.readConfig())!;
  else {
    const overrides = setOverrides(args) as DeepPartial<TrainConfig>;
    if (args.mode) overrides.mode = args.mode as Mode;
    if (args.seed !== undefined) overrides.seed = intArg(args, 'seed', 1);
    config = presetConfig(((args.preset as string) ?? 'tiny') as PresetName, overrides);
  }
  // Checked before the run directory is written, so a bad file leaves nothing behind.
  const hidden = await readHiddenTests(config, run.store, hiddenArg);
  if (!resumeDir) {
    const held = await run.describe();
    if (held.what !== 'nothing' && replace === 'move') {
      const aside = `${outDir.replace(/[/\\]+$/, '')}.replaced-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      await rename(outDir, aside);
      console.log(`moved the run that was in ${outDir} (${held.what}) to ${aside}`);
    } else if (held.what !== 'nothing' && replace === 'delete') {
      await run.discard();
      console.log(`deleted the run that was in ${outDir} (${held.what})`);
    }
  }
  // An empty directory the user made stays; one this run creates goes with it if no step commits.
  const existed = existsSync(outDir);
  if (!resumeDir) {
    try {
      await run.init(config);
    } catch (e) {
      if (!(e instanceof RunDirError)) throw e;
      const isRun = e.steps !== undefined;
      throw new UsageError(
        `${outDir} ${e.message}: ${isRun ? `--resume ${outDir} continues it, ` : ''}--force moves it aside to ${outDir}.replaced-TIME/ and starts a new run there, --force-delete deletes it first (or choose another --out)`,
      );
    }
  }
  // From here until the first committed step, a failure takes the new run directory away again.
  const discardIfNoStep = async () => {
    if (resumeDir || !(await run.incomplete())) return;
    await run.discard();
    if (existed) await mkdir(outDir, { recursive: true });
  };
  let session: RunSession | undefined;
  let lab: Awaited<ReturnType<typeof openNodeLab>> | Awaited<ReturnType<typeof openHfLab>> | undefined;
  let code = 0;
  const progress = new Progress();
  try {
    if (hidden && !resumeDir) await run.store.write(HIDDEN_TESTS_FILE, new TextEncoder().encode(hidden.text));
    const incomplete = resumeDir && !committed ? ' (it never committed a step: starting at step 0)' : '';
    console.log(
      `run ${outDir}: preset ${config.preset}, mode ${config.mode}, seed ${config.seed}${committed ? `, resuming at step ${committed.state.step}` : incomplete}`,
    );
    const hf = hfArg ?? (resumeDir ? await readHfRun(run.store) : undefined);
    const opened = (lab = hf
      ? await openHfLab(config, hf, (msg) => console.log(msg), committed)
      : await openNodeLab(config, committed, (msg) => console.log(msg), args.warmup ? 'train' : 'none'));
    if (hfArg) await run.store.write(HF_RUN_FILE, hfRunJson(hfArg));
    if (hidden)
      console.log(
        `hidden tests: replaced those of ${hidden.override.replaced.length} of ${hidden.override.problems.length} training problems from ${hiddenArg ?? join(outDir, HIDDEN_TESTS_FILE)}`,
      );
    const trainProblems = hidden ? hidden.override.problems : opened.trainProblems;
    const s = (session = new RunSession({ ...opened, trainProblems, config, dir: run }, committed?.state));
    const evalRequest: EvalRequest = {
      splits: [...evalSplits],
      // 0 (the default) evaluates every held-out problem.
      problems: evalProblems,
      samples: evalSamples,
      // CodeT selection (one Tester output per Coder sample) is left to `npm run eval`: it would double the cost.
      selection: false,
      onProgress: (what, d, t) => progress.update(`eval ${what}`, d, t),
    };
    await s.run(steps, {
      onPhase: (e) => progress.update(`step ${e.step} ${e.phase}`, 1, 1),
      onProgress: (phase, d, t) => progress.update(`step ${s.stepsDone} ${phase}`, d, t),
      onCommitted: ({ metrics: m }) => {
        progress.clear();
        if (m.skipped)
          console.log(`step ${m.step}: non-finite loss or gradient; update skipped (${s.trainer.badSteps} in a row)`);
        console.log(formatStepLine(m));
      },
      evalEvery,
      evalRequest,
      onEval: (p) => {
        progress.clear();
        console.log(`eval @ step ${p.step}:\n${formatReport(p.rows)}`);
      },
    });
  } catch (e) {
    progress.clear();
    await lab?.close();
    lab = undefined;
    await discardIfNoStep();
    if (!(e instanceof TrainingHalted)) throw e;
    console.error(e.message);
    code = 3;
  } finally {
    await lab?.close();
  }
  console.log(
    `done: ${session?.stepsDone ?? 0} steps in ${outDir} (metrics.jsonl, mistake-book.json, latest/, checkpoints/)`,
  );
  return code;
}

runMain(main);
