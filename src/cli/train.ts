// `npm run train -- --preset tiny --mode code-a1 --steps 50 --seed 1 --out runs/NAME` (or `--resume runs/NAME`):
// headless Code-A1 / golden / self-play training with a progress bar, a compact line per step, and crash-safe runs.
import { join } from 'node:path';
import { intArg, setOverrides } from './args';
import { parseCli } from './cli-spec';
import { TRAIN_SPEC } from './help/run-specs';
import { Progress } from './progress';
import { presetConfig, type DeepPartial, type PresetName, type TrainConfig } from '../rl/config';
import type { Mode } from '../rl/metrics';
import { RunDir } from '../run/run-store';
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
  const resumeDir = typeof args.resume === 'string' ? args.resume : undefined;
  const hfArg = hfOptions(args);
  if (hfArg && resumeDir)
    throw new Error(
      '--resume continues a LoRA run with the models and settings it started with (its hf.json): drop --coder-model and the LoRA flags',
    );
  const outDir =
    resumeDir ?? (typeof args.out === 'string' ? args.out : `runs/${new Date().toISOString().replace(/[:.]/g, '-')}`);
  const run = new RunDir(new NodeRunStore(outDir));
  const committed = resumeDir ? await run.loadCommitted() : undefined;
  if (resumeDir && !committed) {
    const cfg = await run.readConfig();
    if (!cfg) throw new Error(`--resume ${resumeDir}: no config.json there (is it a run directory?)`);
  }

  const hiddenArg = typeof args['hidden-tests'] === 'string' ? args['hidden-tests'] : undefined;
  if (hiddenArg && resumeDir)
    throw new Error(
      `--resume continues with the hidden tests the run started with (its ${HIDDEN_TESTS_FILE}): drop --hidden-tests`,
    );

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
    await run.init(config);
    if (hidden) await run.store.write(HIDDEN_TESTS_FILE, new TextEncoder().encode(hidden.text));
  }
  const steps = intArg(args, 'steps', 20);
  const progress = new Progress();
  console.log(
    `run ${outDir}: preset ${config.preset}, mode ${config.mode}, seed ${config.seed}${committed ? `, resuming at step ${committed.state.step}` : ''}`,
  );

  const hf = hfArg ?? (resumeDir ? await readHfRun(run.store) : undefined);
  const lab = hf
    ? await openHfLab(config, hf, (msg) => console.log(msg), committed)
    : await openNodeLab(config, committed, (msg) => console.log(msg), args.warmup ? 'train' : 'none');
  if (hfArg) await run.store.write(HF_RUN_FILE, hfRunJson(hfArg));
  if (hidden)
    console.log(
      `hidden tests: replaced those of ${hidden.override.replaced.length} of ${hidden.override.problems.length} training problems from ${hiddenArg ?? join(outDir, HIDDEN_TESTS_FILE)}`,
    );
  const trainProblems = hidden ? hidden.override.problems : lab.trainProblems;
  const session = new RunSession({ ...lab, trainProblems, config, dir: run }, committed?.state);
  const evalSplits = parseHeldOutSplits(args['eval-splits'] as string | undefined, '--eval-splits');
  const evalRequest: EvalRequest = {
    splits: [...evalSplits],
    // 0 (the default) evaluates every held-out problem.
    problems: intArg(args, 'eval-problems', 0),
    samples: intArg(args, 'eval-samples', DEFAULT_EVAL.samples),
    // CodeT selection (one Tester output per Coder sample) is left to `npm run eval`: it would double the cost.
    selection: false,
    onProgress: (what, d, t) => progress.update(`eval ${what}`, d, t),
  };
  let code = 0;
  try {
    await session.run(steps, {
      onPhase: (e) => progress.update(`step ${e.step} ${e.phase}`, 1, 1),
      onProgress: (phase, d, t) => progress.update(`step ${session.stepsDone} ${phase}`, d, t),
      onCommitted: ({ metrics: m }) => {
        progress.clear();
        if (m.skipped)
          console.log(
            `step ${m.step}: non-finite loss or gradient; update skipped (${session.trainer.badSteps} in a row)`,
          );
        console.log(formatStepLine(m));
      },
      evalEvery: intArg(args, 'eval-every', 0),
      evalRequest,
      onEval: (p) => {
        progress.clear();
        console.log(`eval @ step ${p.step}:\n${formatReport(p.rows)}`);
      },
    });
  } catch (e) {
    if (!(e instanceof TrainingHalted)) throw e;
    progress.clear();
    console.error(e.message);
    code = 3;
  } finally {
    await lab.close();
  }
  console.log(
    `done: ${session.stepsDone} steps in ${outDir} (metrics.jsonl, mistake-book.json, latest/, checkpoints/)`,
  );
  return code;
}

main().then(
  (c) => process.exit(c),
  (e) => {
    console.error(e instanceof Error ? (e.stack ?? e.message) : e);
    process.exit(1);
  },
);
