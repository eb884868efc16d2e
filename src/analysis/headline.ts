// The headline table of docs/results.md: for each records directory and mode it names, the seeds pooled per problem
// at one step — held-out pass@1 and the Tester's Mul, each against the run's own start with a paired interval — so
// the page's first table is generated from the records like every other one, never typed in. Pure: callers load runs.
import { atStep, poolSeeds, seedsDelta, showDelta, showValue, type JudgedSplit, type TargetRun } from './targets';
import { trainsTester } from '../rl/modes';

/** One row the marker asks for: the runs of `mode` in records directory `dir` ('.' is the records root). */
export interface HeadlineEntry {
  dir: string;
  mode: string;
  runs: readonly TargetRun[];
}

export const HEADLINE_HEADER = [
  '| records | mode | seeds | pass@1 start (%) | pass@1 at step (%) | Δ pass@1 (points, paired; seeds and tasks resampled) | Mul start | Mul at step | Δ Mul (paired) |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
];

/**
 * One table row per entry at `step`: its seeds pooled per problem (16 samples per problem with two seeds of 8), the
 * start being the same runs' step-0 evaluation. A mode that trains no Tester (golden) gets Mul columns that say so
 * instead of repeating the start. An entry without runs, or whose runs were not all evaluated at `step`, is an error
 * naming it: a headline row must not silently drop out.
 */
export function headlineTable(entries: readonly HeadlineEntry[], step: number): string[] {
  const rows = entries.map(({ dir, mode, runs }) => {
    const name = `${dir}:${mode}`;
    if (!runs.length) throw new Error(`headline ${name}: no ${mode} runs in that records directory`);
    const short = runs.filter((r) => !atStep(r, step)?.perProblem?.length).map((r) => r.name);
    if (short.length) throw new Error(`headline ${name}: ${short.join(', ')} not evaluated at step ${step}`);
    const pooled = poolSeeds([...runs].sort((a, b) => a.seed - b.seed))!;
    const [start, end] = [atStep(pooled, 0), atStep(pooled, step)];
    if (!start || !end) throw new Error(`headline ${name}: no step-0 evaluation to compare with`);
    // Δ against the start paired per seed, the bootstrap resampling seeds and then tasks.
    const bySeed = (mode: string, seed: number) => runs.find((r) => r.mode === mode && r.seed === seed);
    const delta = (m: 'coderPass1' | 'mul') => {
      const d = seedsDelta(
        bySeed,
        runs.map((r) => r.seed),
        [mode, step],
        [mode, 0],
        m,
      );
      if (!d) throw new Error(`headline ${name}: step ${step} and step 0 share no problem`);
      return showDelta(d);
    };
    const seeds = runs
      .map((r) => r.seed)
      .sort((a, b) => a - b)
      .join(', ');
    const tester = trainsTester(mode)
      ? [showValue(start, 'mul'), showValue(end, 'mul'), delta('mul')]
      : ['–', '–', '– (no Tester trained)'];
    const records = dir === '.' ? 'results-data' : `results-data/${dir}`;
    const cells = [
      `\`${records}\``,
      mode,
      seeds,
      showValue(start, 'coderPass1'),
      showValue(end, 'coderPass1'),
      delta('coderPass1'),
    ];
    return `| ${[...cells, ...tester].join(' | ')} |`;
  });
  return [...HEADLINE_HEADER, ...rows];
}

export const HEADLINE_END = '<!-- headline:end -->';
/**
 * `<!-- headline:begin step=100 rows=disjoint-shared:code-a1,disjoint:golden -->` … `<!-- headline:end -->`, with an
 * optional ` split=renamed` after the rows: that evaluated split in the held-out one's place. Groups: 1 step,
 * 2 rows, 3 the split or undefined.
 */
export const HEADLINE_BLOCK =
  /<!-- headline:begin step=(\d+) rows=([^\s]+)(?: split=(renamed|heldout-family))? -->[\s\S]*?<!-- headline:end -->/g;
export const headlineBegin = (step: number, rows: string, split?: JudgedSplit) =>
  `<!-- headline:begin step=${step} rows=${rows}${split ? ` split=${split}` : ''} -->`;

/** `dir:mode,dir:mode` as the marker (and `npm run targets -- headline DATA --rows`) spell it; an error for a malformed item. */
export function parseHeadlineRows(spec: string): { dir: string; mode: string }[] {
  return spec.split(',').map((item) => {
    const m = /^([^:]+):(code-a1|golden|self-play)$/.exec(item);
    if (!m) throw new Error(`headline row "${item}": expected DIR:MODE with MODE code-a1, golden or self-play`);
    return { dir: m[1], mode: m[2] };
  });
}
