// Reads a tuning directory (docs/results-data/tuning): start-eval.json (the warm-start on the RL training instances)
// and one folder per candidate setting with config.json, metrics.jsonl and train-rl.json (its Coder on the same
// instances after the last step), for `npm run tuning` and the results page's tuning table.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { TrainConfig } from './config';
import type { SplitReport } from './eval';
import { parseMetricsJsonl } from './metrics';
import type { TuningRun } from './tuning';

export const TUNING_FILES = { start: 'start-eval.json', end: 'end-eval.json' } as const;

/** The evaluation of the RL part of the training instances in an eval.json (`--splits train-rl`). */
export function trainRlRow(file: string): SplitReport {
  const e = JSON.parse(readFileSync(file, 'utf8')) as { rows?: SplitReport[] };
  const row = e.rows?.find((r) => r.split === 'train' && r.part === 'rl');
  if (!row) throw new Error(`${file}: no train-rl evaluation in it (npm run eval -- --splits train-rl)`);
  return row;
}

/** The candidate settings of a tuning directory, in name order, and the start they are compared with. */
export function loadTuning(dir: string): { start: SplitReport; runs: TuningRun[] } {
  if (!existsSync(dir)) throw new Error(`${dir}: no such directory`);
  const start = trainRlRow(join(dir, TUNING_FILES.start));
  const runs = readdirSync(dir)
    .filter((n) => statSync(join(dir, n)).isDirectory())
    .sort()
    .map((name): TuningRun => {
      const d = join(dir, name);
      for (const f of ['config.json', 'metrics.jsonl', TUNING_FILES.end])
        if (!existsSync(join(d, f))) throw new Error(`${d}: ${f} is missing`);
      const cfg = JSON.parse(readFileSync(join(d, 'config.json'), 'utf8')) as TrainConfig;
      return {
        name,
        problemsPerStep: cfg.rollout.problems_per_step,
        lr: cfg.optim.lr,
        testerLr: cfg.optim.tester_lr,
        metrics: parseMetricsJsonl(readFileSync(join(d, 'metrics.jsonl'), 'utf8')),
        end: trainRlRow(join(d, TUNING_FILES.end)),
      };
    });
  if (!runs.length) throw new Error(`${dir}: no setting folders in it`);
  return { start, runs };
}
