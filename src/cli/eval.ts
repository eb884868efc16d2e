// `npm run eval -- --run runs/NAME` (or `--preset tiny` for the shipped checkpoints, or `--coder DIR --tester DIR`):
// held-out coder pass@1 (sampled + greedy), tester validity, mutation score, pass@k/mut@k/Mul and CodeT selection,
// with 95% bootstrap CIs, reported apart for held-out tasks (one instance of each task no training instance poses
// under any name) and whole held-out families. Every held-out problem by default; the result (with per-problem
// counts) goes to eval.json. `--splits heldout,train-sft,train-rl` adds the training instances by warm-start part
// (seen vs unseen by SFT), `--splits renamed` the instances held out by instance (mostly training tasks renamed);
// `--resample tasks` draws the intervals over tasks instead of instances.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { intArg, runMain } from './args';
import { parseCli } from './cli-spec';
import { EVAL_SPEC } from './help/run-specs';
import { Progress } from './progress';
import { presetConfig, type PresetName, type TrainConfig } from '../rl/config';
import { RunDir } from '../run/run-store';
import { NodeRunStore } from '../run/run-store-node';
import { openNodeLab } from './lab-node';
import {
  DEFAULT_EVAL,
  evalSubset,
  evaluateSplit,
  parseEvalSplits,
  splitLabel,
  runEvalOptions,
  type EvalSplit,
  type SplitReport,
} from '../run/eval';
import { formatReport } from '../run/format';
import { hfOptions, openHfLab } from './hf-lab';
import { loadCurriculum } from '../run/lab-setup';
import { selectTrainPart, TRAIN_SUBSETS, trainPartIds, type TrainSubset } from '../tasks/split';
import type { Problem, Split } from '../tasks/types';
import { taskOf } from '../tasks/generate';
import { overTasks, RESAMPLE_UNITS, type ResampleUnit } from '../analysis/targets';

async function main(): Promise<number> {
  const parsed = parseCli(EVAL_SPEC, process.argv.slice(2));
  if (!parsed) return 0;
  const { args } = parsed;
  // --resample tasks: the intervals drawn over tasks (a task's instances, which differ only in the function name,
  // together) instead of over instances; the records then name each instance's task.
  const unit = (args.resample as string | undefined) ?? 'problems';
  if (!RESAMPLE_UNITS.includes(unit as ResampleUnit))
    throw new Error(`--resample ${unit}: expected one of ${RESAMPLE_UNITS.join(', ')}`);
  // --coder-model DIR [--tester-model DIR]: Hugging Face models (fresh LoRA adapters, i.e. the base) on the chat prompts.
  const hf = hfOptions(args);
  if (hf && typeof args.run === 'string')
    throw new Error('--run with --coder-model: a LoRA run cannot be re-evaluated yet');
  let config: TrainConfig;
  let committed;
  if (typeof args.run === 'string') {
    const run = new RunDir(new NodeRunStore(args.run));
    committed = await run.loadCommitted();
    if (!committed) throw new Error(`--run ${args.run}: no committed step there (need config.json and latest/)`);
    config = committed.config;
  } else {
    config = presetConfig(((args.preset as string) ?? 'tiny') as PresetName);
    if (typeof args.coder === 'string') config.model.coderCheckpoint = args.coder;
    if (typeof args.tester === 'string') config.model.testerCheckpoint = args.tester;
  }
  // Evaluate both models as separate policies even for self-play runs (the one model plays both roles).
  const lab = hf
    ? await openHfLab(config, hf, (m) => console.log(m))
    : await openNodeLab(config, committed, (m) => console.log(m));
  // 0 (the default) takes every held-out problem.
  const n = intArg(args, 'problems', 0) || Number.MAX_SAFE_INTEGER;
  const seed = intArg(args, 'seed', 1234);
  const opts = runEvalOptions(config, {
    samples: intArg(args, 'samples', DEFAULT_EVAL.samples),
    mutantGroups: intArg(args, 'mutant-groups', DEFAULT_EVAL.mutantGroups ?? 1),
    selection: !args['no-codet'],
    seed,
    // --show N: print (and record) the greedy program of each split's first N problems.
    showGreedy: intArg(args, 'show', 0),
  });
  const progress = new Progress();
  const rows: SplitReport[] = [];
  // --splits heldout: skip the whole-family split; renamed: the instances held out by instance, most of them a
  // training task under another function name (recall as much as generalisation);
  // train-sft / train-rl: the training instances a warm-start on the SFT half saw / did not see (recall vs learning);
  // train-rl-fit / train-rl-val: the RL half's part a tuning run trains on / the part it is judged on.
  const splits = parseEvalSplits(args.splits as string | undefined, '--splits');
  const train = loadCurriculum(config.tasks.families).train;
  const part = (p: TrainSubset) => selectTrainPart(train, trainPartIds(train), p);
  const pools: [EvalSplit, Split, TrainSubset | undefined, () => Problem[]][] = [
    ['heldout', 'heldout', undefined, () => lab.heldout],
    ['heldout-family', 'heldout-family', undefined, () => lab.heldoutFamily],
    ['renamed', 'renamed', undefined, () => lab.renamed],
    ['train', 'train', undefined, () => train],
    ...TRAIN_SUBSETS.map((p): [EvalSplit, Split, TrainSubset, () => Problem[]] => [
      `train-${p}`,
      'train',
      p,
      () => part(p),
    ]),
  ];
  try {
    for (const [name, split, which, problems] of pools) {
      const pool = splits.has(name) ? problems() : [];
      if (!pool.length) continue;
      const row = await evaluateSplit(
        split,
        evalSubset(pool, n, seed),
        lab.mutants,
        lab.coder,
        lab.tester,
        lab.sandbox,
        {
          ...opts,
          onProgress: (what, d, t) => progress.update(what, d, t),
        },
      );
      const drawn = unit === 'tasks' ? overTasks(row, taskOf) : row;
      rows.push(which ? { ...drawn, part: which } : drawn);
      progress.clear();
    }
  } finally {
    await lab.close();
  }
  console.log(formatReport(rows));
  for (const r of rows)
    for (const g of r.greedy ?? [])
      console.log(`\n# ${splitLabel(r)} ${g.id}, greedy: ${g.passed ? 'passes' : 'fails'} the hidden tests\n${g.code}`);
  const out = (args.out as string) ?? (typeof args.run === 'string' ? join(args.run, 'eval.json') : undefined);
  if (out) {
    await writeFile(
      out,
      JSON.stringify({ step: committed?.state.step ?? 0, config: config.preset, rows }, null, 2) + '\n',
    );
    console.log(`wrote ${out}`);
  }
  return 0;
}

runMain(main);
