// Reads a tuning directory (docs/results-data/tuning, tuning-val): start-eval.json (the warm-start on the judged
// instances) and one folder per candidate setting with config.json, metrics.jsonl and end-eval.json (its Coder on the
// same instances after the last step), for `npm run tuning` and the results page's tuning tables. Runs that trained
// on train-rl-fit are judged on train-rl-val and back (two folds); any other run on the part it trained on.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { TrainConfig } from '../rl/config';
import { splitLabel, type SplitReport } from '../run/eval';
import { parseMetricsJsonl } from '../rl/metrics';
import { joinFolds, poolTunings, type Tuning, type TuningRun } from './tuning';
import type { TrainPart } from '../tasks/split';
import { taskOf } from '../tasks/generate';
import { overTasks, type ResampleUnit } from './targets';
import { evalFileRows } from './compare-records-node';

export const TUNING_FILES = { start: 'start-eval.json', end: 'end-eval.json' } as const;

/** The evaluation of one part of the training instances in an eval.json (`--splits train-<part>`). */
export function trainPartRow(file: string, part: TrainPart): SplitReport {
  const row = evalFileRows(file).find((r) => r.split === 'train' && (r.part ?? 'all') === part);
  const name = part === 'all' ? 'train' : `train-${part}`;
  if (!row) throw new Error(`${file}: no ${name} evaluation in it (npm run eval -- --splits ${name})`);
  return row;
}

/**
 * The candidate settings of a tuning directory, in name order, the start they are compared with, what is judged;
 * with `unit` 'tasks' every interval resamples the curriculum's tasks instead of instances (overTasks).
 */
export function loadTuning(dir: string, unit: ResampleUnit = 'problems'): Tuning {
  const read = (file: string, part: TrainPart) => {
    const row = trainPartRow(file, part);
    return unit === 'tasks' ? overTasks(row, taskOf) : row;
  };
  if (!existsSync(dir)) throw new Error(`${dir}: no such directory`);
  const settings = readdirSync(dir)
    .filter((n) => statSync(join(dir, n)).isDirectory())
    .sort()
    .map((name) => {
      const d = join(dir, name);
      for (const f of ['config.json', 'metrics.jsonl', TUNING_FILES.end])
        if (!existsSync(join(d, f))) throw new Error(`${d}: ${f} is missing`);
      return { name, d, cfg: JSON.parse(readFileSync(join(d, 'config.json'), 'utf8')) as TrainConfig };
    });
  if (!settings.length) throw new Error(`${dir}: no setting folders in it`);
  const parts = [...new Set(settings.map((s) => s.cfg.tasks.train_part ?? 'all'))];
  if (parts.length > 1) throw new Error(`${dir}: the settings trained on different parts (${parts.join(', ')})`);
  const trained = parts[0];
  // The RL half's two halves are the folds of a cross-validation: each run is judged on the one it did not train on.
  const judged: TrainPart = trained === 'rl-fit' ? 'rl-val' : trained === 'rl-val' ? 'rl-fit' : trained;
  const startFile = join(dir, TUNING_FILES.start);
  const start = read(startFile, judged);
  const runs = settings.map(({ name, d, cfg }): TuningRun => ({
    name,
    problemsPerStep: cfg.rollout.problems_per_step,
    lr: cfg.optim.lr,
    testerLr: cfg.optim.tester_lr,
    metrics: parseMetricsJsonl(readFileSync(join(d, 'metrics.jsonl'), 'utf8'), join(d, 'metrics.jsonl')),
    end: read(join(d, TUNING_FILES.end), judged),
    fit: judged === trained ? undefined : read(join(d, TUNING_FILES.end), trained),
  }));
  const fitted = judged === trained ? undefined : { label: splitLabel(runs[0].fit!), start: read(startFile, trained) };
  const seeds = [...new Set(settings.map((s) => s.cfg.seed))].sort((a, b) => a - b);
  return { runs, start, judged: splitLabel(start), fitted, seeds };
}

/**
 * Several tuning directories as one: those judged on the same part (one per seed) pooled per problem, then the
 * folds (judged on train-rl-val and on train-rl-fit) joined; one directory as it is.
 */
export function loadTunings(dirs: readonly string[], unit: ResampleUnit = 'problems'): Tuning {
  const byPart = new Map<string, Tuning[]>();
  for (const t of dirs.map((d) => loadTuning(d, unit))) byPart.set(t.judged, [...(byPart.get(t.judged) ?? []), t]);
  return joinFolds([...byPart.values()].map(poolTunings));
}
