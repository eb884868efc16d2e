// Help and flags of the research-analysis commands: compare, plots, tuning, reward-audit, tester-inputs,
// results-page, reference-bundles (targets has its own, beside its sub-commands).
import type { CliSpec } from '../cli-spec';

export const COMPARE_SPEC: CliSpec = {
  command: 'npm run compare',
  summary: 'one table across runs and modes on the same held-out problems, each metric with a 95% interval',
  usage: [
    'npm run compare -- DIR|RUN_DIR|start-eval.json|evolved.jsonl ...',
    'npm run compare -- --disjoint DIR',
    'npm run compare -- --evals SPLITS NAME:FILE+FILE ... [--data docs/results-data]',
  ],
  positional: 'record directories, run directories, start-eval.json or evolved .jsonl files; with --evals, rows',
  flags: [
    { name: 'disjoint', value: 'DIR', help: "the warm-starts' pass rates on held-out problems and training halves" },
    {
      name: 'evals',
      value: 'SPLITS',
      help: 'compare `npm run eval --out` files of several checkpoints against the first row, per split, paired',
    },
    { name: 'data', value: 'DIR', help: 'with --evals: where the files are (default docs/results-data)' },
  ],
  notes: [
    'Prints Coder pass@1 (with the paired change against the start), greedy, Tester validity, mut@k, Mul, pass@k ' +
      'and the white-box mutation score, and the test-evolution table (pool pass rate, suite size, redundancy).',
  ],
  examples: [
    'npm run compare -- docs/results-data/compare',
    'npm run compare -- --disjoint docs/results-data/disjoint',
  ],
};

export const PLOTS_SPEC: CliSpec = {
  command: 'npm run plots',
  summary: "the result figures (SVG) from runs' metrics.jsonl and eval.jsonl, with 95% bands",
  usage: ['npm run plots -- runs/A [runs/B ...] [--out docs/plots]'],
  positional: "run directories (runs named MODE-sSEED also get each mode's seeds pooled)",
  flags: [{ name: 'out', value: 'DIR', help: 'where the SVG files go (default docs/plots)' }],
  notes: ['Also prints the results-table rows of every held-out evaluation of every run.'],
  examples: ['npm run plots -- runs/code-a1-s1 runs/golden-s1 --out docs/plots/mine'],
};

export const TUNING_SPEC: CliSpec = {
  command: 'npm run tuning',
  summary: 'choose a setting (problems per step, lr) on training and validation data only, never held-out numbers',
  usage: ['npm run tuning -- DIR [DIR ...] [--reference NAME] [--out DIR] [--resample problems|tasks]'],
  positional: 'tuning record directories (several: seeds pooled per problem, folds joined)',
  flags: [
    { name: 'reference', value: 'NAME', help: 'the setting the others are compared with, paired' },
    { name: 'out', value: 'DIR', help: 'where the plots go' },
    { name: 'resample', value: 'problems|tasks', help: 'the bootstrap unit (default problems)' },
  ],
  notes: ['`bash scripts/tune-setting.sh` makes the records.'],
  examples: ['npm run tuning -- docs/results-data/tuning'],
};

export const REWARD_AUDIT_SPEC: CliSpec = {
  command: 'npm run reward-audit',
  summary: "how well each run's Coder reward tracked correctness, from the rollouts it saved",
  usage: ['npm run reward-audit -- [--shared] [--public] RUN_DIR ...'],
  positional: 'run directories with rollouts/step-*.json',
  flags: [
    { name: 'shared', help: "add a row per run with each candidate regraded on its problem's shared test set" },
    { name: 'public', help: 'add a row per run with each candidate regraded on the docstring example alone' },
  ],
  notes: [
    'Per run: the share of candidates rewarded 1 that fail a hidden test, of correct ones rewarded less than 1, ' +
      'the correlation of reward with hidden-test pass rate, and how often the reward orders two candidates of ' +
      'one problem as the hidden tests do.',
  ],
  examples: ['npm run reward-audit -- runs/code-a1-s1 runs/self-play-s1'],
};

export const TESTER_INPUTS_SPEC: CliSpec = {
  command: 'npm run tester-inputs',
  summary: "what the Tester's valid tests call over a run's training steps, per window of steps",
  usage: ['npm run tester-inputs -- [--window 10] RUN_DIR ...'],
  positional: 'run directories with rollouts/step-*.json',
  flags: [{ name: 'window', value: 'N', help: 'training steps per table row (default 10)' }],
  notes: [
    'Per window: tests written, the valid share, the share of valid tests restating a docstring example, and ' +
      'the distinct valid calls per Tester rollout.',
  ],
  examples: ['npm run tester-inputs -- --window 20 runs/code-a1-s1'],
};

export const RESULTS_PAGE_SPEC: CliSpec = {
  command: 'npm run results-page',
  summary: "rewrite docs/results.md's generated blocks and figures and README's results paragraph from the records",
  usage: ['npm run results-page -- [--check] [--page docs/results.md] [--data docs/results-data] [--readme README.md]'],
  flags: [
    { name: 'check', help: 'only report the lines that differ (exit 1 when the page or README is stale)' },
    { name: 'page', value: 'FILE', help: 'the page (default docs/results.md)' },
    { name: 'data', value: 'DIR', help: 'the records (default docs/results-data)' },
    { name: 'readme', value: 'FILE', help: 'the README whose results paragraph is generated (default README.md)' },
  ],
  examples: ['npm run results-page -- --check'],
};

export const REFERENCE_BUNDLES_SPEC: CliSpec = {
  command: 'npm run reference-bundles',
  summary: 'write the reference runs (every <mode>-s<seed> record directory) as run bundles for the page',
  usage: ['npm run reference-bundles -- [--from DIR] [--out DIR] [--steps N]'],
  flags: [
    { name: 'from', value: 'DIR', help: 'the record directories (default docs/results-data/reference)' },
    { name: 'out', value: 'DIR', help: 'where the bundles and index.json go (default public/reference)' },
    { name: 'steps', value: 'N', help: 'refuse (writing nothing) unless every run has N steps (default 100)' },
  ],
  notes: [
    'Run after scripts/reference-runs.sh; the page\'s "Show reference runs" reads public/reference/index.json. ' +
      'Bundles no longer listed are removed.',
  ],
  examples: ['npm run reference-bundles', 'npm run reference-bundles -- --from /tmp/records --out /tmp/ref --steps 20'],
};
