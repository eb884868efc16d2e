// `npm run train -- --preset tiny --mode code-a1 --steps 50 --seed 1 --out runs/NAME` (or `--resume runs/NAME`):
// headless Code-A1 / golden / self-play training with a progress bar, a compact line per step, and crash-safe runs.
import { configHelp, parseArgs, intArg, setOverrides } from './args';
import { Progress } from './progress';
import { presetConfig, type DeepPartial, type PresetName, type TrainConfig } from '../rl/config';
import type { Mode } from '../rl/metrics';
import { modeRules } from '../rl/modes';
import { RunDir } from '../rl/run-store';
import { NodeRunStore } from '../rl/run-store-node';
import { Trainer, TrainingHalted } from '../rl/trainer';
import { formatStepLine } from '../rl/format';
import { openNodeLab } from './lab-node';
import { DEFAULT_EVAL, evalSubset, evaluateSplit, parseHeldOutSplits } from '../rl/eval';
import { formatReport } from '../rl/format';
import { HF_FLAGS, HF_HELP, hfOptions, openHfLab } from './hf-lab';

const HELP = `usage: npm run train -- [--preset micro|tiny|paper] [--mode code-a1|golden|self-play|tcs|ace] [--steps N]
                        [--seed S] [--out runs/NAME | --resume runs/NAME] [--set group.key=value ...]
                        [--eval-every N [--eval-problems 0 (all)] [--eval-samples 8] [--eval-splits heldout,heldout-family]]   (appends eval.jsonl)
${HF_HELP}

${configHelp()}`;

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2), {
    preset: 'string',
    mode: 'string',
    steps: 'string',
    seed: 'string',
    out: 'string',
    resume: 'string',
    set: 'string',
    'eval-every': 'string',
    'eval-problems': 'string',
    'eval-samples': 'string',
    'eval-splits': 'string',
    ...HF_FLAGS,
    help: 'boolean',
  });
  if (args.help) {
    console.log(HELP);
    return 0;
  }
  const resumeDir = typeof args.resume === 'string' ? args.resume : undefined;
  const hf = hfOptions(args);
  if (hf && resumeDir) throw new Error('--resume with --coder-model: resuming a LoRA run is not supported yet (start a new run)');
  const outDir = resumeDir ?? (typeof args.out === 'string' ? args.out : `runs/${new Date().toISOString().replace(/[:.]/g, '-')}`);
  const run = new RunDir(new NodeRunStore(outDir));
  const committed = resumeDir ? await run.loadCommitted() : undefined;
  if (resumeDir && !committed) {
    const cfg = await run.readConfig();
    if (!cfg) throw new Error(`--resume ${resumeDir}: no config.json there (is it a run directory?)`);
  }

  let config: TrainConfig;
  if (committed) config = committed.config;
  else if (resumeDir) config = (await run.readConfig())!;
  else {
    const overrides = setOverrides(args) as DeepPartial<TrainConfig>;
    if (args.mode) overrides.mode = args.mode as Mode;
    if (args.seed !== undefined) overrides.seed = intArg(args, 'seed', 1);
    config = presetConfig(((args.preset as string) ?? 'tiny') as PresetName, overrides);
    await run.init(config);
  }
  const steps = intArg(args, 'steps', 20);
  const progress = new Progress();
  console.log(`run ${outDir}: preset ${config.preset}, mode ${config.mode}, seed ${config.seed}${committed ? `, resuming at step ${committed.state.step}` : ''}`);

  const lab = hf ? await openHfLab(config, hf, (msg) => console.log(msg)) : await openNodeLab(config, committed, (msg) => console.log(msg));
  if (hf) await run.store.write('hf.json', new TextEncoder().encode(JSON.stringify(hf, null, 2) + '\n'));
  const trainer = new Trainer(config, { sandbox: lab.sandbox, coder: lab.coder, tester: lab.tester, problems: lab.trainProblems }, committed?.state);
  const evalEvery = intArg(args, 'eval-every', 0);
  const evalSplits = parseHeldOutSplits(args['eval-splits'] as string | undefined, '--eval-splits');
  // 0 (the default) evaluates every held-out problem.
  const evalN = intArg(args, 'eval-problems', 0) || Number.MAX_SAFE_INTEGER;
  const evalSet = {
    heldout: evalSplits.has('heldout') ? evalSubset(lab.heldout, evalN, DEFAULT_EVAL.seed) : [],
    heldoutFamily: evalSplits.has('heldout-family') ? evalSubset(lab.heldoutFamily, evalN, DEFAULT_EVAL.seed) : [],
  };
  const runEval = async () => {
    const opts = {
      ...DEFAULT_EVAL,
      samples: intArg(args, 'eval-samples', DEFAULT_EVAL.samples),
      // CodeT selection (one Tester output per Coder sample) is left to `npm run eval`: it would double the cost.
      selection: false,
      k: config.rollout.tests_per_group,
      maxNewTokens: config.rollout.max_completion_length,
      maxTestTokens: config.rollout.max_test_completion_length,
      onProgress: (what: string, d: number, t: number) => progress.update(`eval ${what}`, d, t),
    };
    const rows = [];
    for (const [split, probs] of [['heldout', evalSet.heldout], ['heldout-family', evalSet.heldoutFamily]] as const) {
      if (probs.length) rows.push(await evaluateSplit(split, probs, lab.mutants, lab.coder, lab.tester, lab.sandbox, opts));
    }
    progress.clear();
    // The training batches' pass rate since the last evaluation (metrics line s is the step that took trainer.step
    // from s to s + 1), beside the held-out one (memorisation shows as a gap).
    const recent = (await run.readMetrics()).filter((m) => m.step >= trainer.step - evalEvery && m.step < trainer.step);
    const trainPassRate = recent.length ? recent.reduce((a, m) => a + m['coder/pass_rate'], 0) / recent.length : undefined;
    await run.store.append('eval.jsonl', new TextEncoder().encode(JSON.stringify({ step: trainer.step, trainPassRate, rows }) + '\n'));
    console.log(`eval @ step ${trainer.step}:\n${formatReport(rows)}`);
  };
  const evaluatedSteps = async () => {
    const b = await run.store.read('eval.jsonl');
    const lines = b ? new TextDecoder().decode(b).split('\n').filter((l) => l.trim()) : [];
    return new Set(lines.map((l) => (JSON.parse(l) as { step: number }).step));
  };
  let code = 0;
  try {
    const target = trainer.step + steps;
    // A run stopped during an evaluation (or before it) gets that evaluation on resume.
    if (evalEvery > 0 && trainer.step % evalEvery === 0 && !(await evaluatedSteps()).has(trainer.step)) await runEval();
    while (trainer.step < target) {
      let out;
      try {
        out = await trainer.runStep({
          onPhase: (e) => progress.update(`step ${e.step} ${e.phase}`, 1, 1),
          onProgress: (phase, d, t) => progress.update(`step ${trainer.step} ${phase}`, d, t),
        });
      } catch (e) {
        if (e instanceof TrainingHalted) {
          progress.clear();
          console.error(e.message);
          code = 3;
          break;
        }
        throw e;
      }
      progress.clear();
      const m = out.metrics;
      if (m.skipped) console.log(`step ${m.step}: non-finite loss or gradient; update skipped (${trainer.badSteps} in a row)`);
      const keep = trainer.step % config.run.checkpoint_every === 0 || trainer.step === target;
      await run.commitStep(
        trainer.state(),
        m,
        await lab.coder.save(),
        modeRules(config.mode).savesTester ? await lab.tester.save() : undefined,
        keep,
      );
      await run.store.write(`rollouts/step-${String(m.step).padStart(5, '0')}.json`, new TextEncoder().encode(JSON.stringify(out.rollouts)));
      console.log(formatStepLine(m));
      if (evalEvery > 0 && trainer.step % evalEvery === 0) await runEval();
    }
  } finally {
    await lab.close();
  }
  console.log(`done: ${trainer.step} steps in ${outDir} (metrics.jsonl, mistake-book.json, latest/, checkpoints/)`);
  return code;
}

main().then(
  (c) => process.exit(c),
  (e) => {
    console.error(e instanceof Error ? (e.stack ?? e.message) : e);
    process.exit(1);
  },
);
