// The sentences that state the result, generated from the records like the tables, so that no number in them is typed
// by hand: the results page's three sentences under its first table, and README's results paragraph (<= 5 lines).
import { seedsDelta, showDelta, type TargetRun } from './targets';
import { gapSpread, PAPER_GAPS, pooledSe, powerOf, seedsNeeded } from './power';
import { pooledLevel } from './summary-table';
import { atStep } from './targets';

const MODES = ['code-a1', 'golden', 'self-play'] as const;
const PAIRS = [
  ['code-a1', 'golden'],
  ['code-a1', 'self-play'],
  ['golden', 'self-play'],
] as const;

export interface ClaimInputs {
  /** The runs of the first screen (on the held-out split) and the step judged. */
  runs: readonly TargetRun[];
  step: number;
  dir: string;
  /** Every records directory whose spreads the power statement draws on (the first screen's included). */
  powerRuns: readonly (readonly TargetRun[])[];
  powerStep: number;
  /** Held-out tasks the reference runs evaluate (the tiny preset's held-out split). */
  planTasks: number;
}

/** The reference runs (scripts/reference-runs.sh) have their own records directory; any other is a pilot's. */
export const REFERENCE_DIR = 'reference';

const pct = (x: number) => `${Math.round(100 * x)}%`;
const count = (n: number) => ['no', 'one', 'two', 'three', 'four', 'five'][n] ?? String(n);
/** "one seed", "two seeds": the records may hold a single seed while the others are still running. */
const seedsWord = (n: number) => `${count(n)} seed${n === 1 ? '' : 's'}`;

/** The numbers the sentences quote. */
function facts(c: ClaimInputs) {
  const of = (mode: string, seed: number) => c.runs.find((r) => r.mode === mode && r.seed === seed);
  const seeds = [...new Set(c.runs.map((r) => r.seed))].sort((a, b) => a - b);
  const vsStart = MODES.map((m) => seedsDelta(of, seeds, [m, c.step], [m, 0], 'coderPass1')!);
  const between = PAIRS.map(([a, b]) => seedsDelta(of, seeds, [a, c.step], [b, c.step], 'coderPass1')!);
  const start = pooledLevel(
    seeds.map((s) => atStep(of('code-a1', s), 0)!.perProblem!),
    'coderPass1',
  )!;
  const spreads = c.powerRuns.flatMap((runs) => PAIRS.flatMap(([a, b]) => gapSpread(runs, a, b, c.powerStep) ?? []));
  const power5 = spreads.map((g) => powerOf(5, pooledSe(g, g.tasks, g.seeds.length)));
  const paperMax = Math.max(...PAPER_GAPS.map(([, d]) => d));
  const powerPaper = spreads.map((g) => powerOf(paperMax, pooledSe(g, c.planTasks, 2)));
  const seedsFor5 = spreads.map((g) => seedsNeeded(g, 5, c.planTasks));
  // The paper's gap counts as within reach once some pair reaches 80% power: one rule for the page and README.
  const bestPaperPower = powerPaper.length ? Math.max(...powerPaper) : 0;
  const paperInReach = bestPaperPower >= 0.8;
  // Whether an interval excludes 0, per comparison: the wording follows the records, never a fixed conclusion.
  const excludes0 = (d: { ci: readonly [number, number] }) => d.ci[0] > 0 || d.ci[1] < 0;
  const pilot = c.dir !== REFERENCE_DIR;
  return {
    seeds,
    vsStart,
    between,
    start,
    tasks: start.problems,
    power5,
    powerPaper,
    seedsFor5,
    paperMax,
    bestPaperPower,
    paperInReach,
    excludes0,
    pilot,
  };
}

const range = (xs: readonly number[], f: (x: number) => string) =>
  Math.min(...xs) === Math.max(...xs) ? f(Math.min(...xs)) : `${f(Math.min(...xs))} to ${f(Math.max(...xs))}`;

/** Whether the paper's gap is within reach follows the computed power (80% for some pair), not a fixed phrase. */
function belowText(f: ReturnType<typeof facts>): string {
  if (f.paperInReach) return 'within what this lab can resolve for at least one pair';
  return f.bestPaperPower < 0.5 ? 'far below what this lab can resolve' : 'below what this lab can resolve';
}

/** The power clause; a seed-to-seed spread needs two seeds, so records of one seed give no figure (never Infinity). */
function seedsFor5Text(f: ReturnType<typeof facts>): string {
  const finite = f.seedsFor5.filter(Number.isFinite);
  return finite.length
    ? `a 5-point gap needs ${range(finite, String)} seed${Math.max(...finite) === 1 ? '' : 's'} for 80% power`
    : 'how many seeds a 5-point gap needs is estimated once two seeds are recorded';
}

/** Which comparisons' intervals exclude 0, named, so the sentence says where the table's evidence is. */
function outsideText(f: ReturnType<typeof facts>): string {
  const named = [
    ...MODES.filter((_, i) => f.excludes0(f.vsStart[i])).map((m) => `${m} − its start`),
    ...PAIRS.filter((_, i) => f.excludes0(f.between[i])).map(([a, b]) => `${a} − ${b}`),
  ];
  if (!named.length) return 'no difference lies outside its interval';
  const between = PAIRS.some((_, i) => f.excludes0(f.between[i]));
  return `the interval excludes 0 for ${named.join(', ')}${between ? '' : ', none between modes'}`;
}

/** The three sentences of the results page's first screen. */
export function pageClaims(c: ClaimInputs): string[] {
  const f = facts(c);
  const methodOutside = f.between.some(f.excludes0);
  const notShown = f.pilot
    ? `**What it does not show.** These are pilot runs (${c.step} steps, ${f.tasks} tasks, a setting chosen while looking at held-out numbers, one step-0 draw shared by both seeds); the clean reference runs (code-a1, golden and self-play, two seeds, 100 steps, ${c.planTasks} held-out tasks, the setting chosen on validation data: \`scripts/reference-runs.sh\`) are pending, and nothing on this page says whether code-a1 beats its baselines.`
    : `**What it does not show.** These are ${seedsWord(f.seeds.length)} of ${c.step} steps of the tiny models at one setting (chosen on validation data, never on held-out numbers: \`scripts/reference-runs.sh\`), graded as the release grades; the three modes of a seed start from the same models, so they share that seed's step-0 evaluation. ${methodOutside ? "A difference between modes outside its interval is one of three comparisons at one setting and scale, not evidence about the paper's models." : "Nothing here says whether code-a1 beats its baselines, at this scale or at the paper's."}`;
  return [
    `**What it shows.** On ${f.tasks} held-out tasks (no training instance poses them under any name; \`results-data/${c.dir}\`, seed${f.seeds.length === 1 ? '' : 's'} ${f.seeds.join(' and ')}), ${c.step} steps of RL from the SFT-half warm-start (${f.start.delta.toFixed(1)}% at the start) change pass@1 by ${MODES.map((m, i) => `${showDelta(f.vsStart[i])} (${m})`).join(', ')} points, and the modes differ by ${PAIRS.map(([a, b], i) => `${showDelta(f.between[i])} (${a} − ${b})`).join(', ')}: ${outsideText(f)}.`,
    notShown,
    f.powerPaper.length
      ? `**Power.** The paper's 1.5B gaps (Code-A1 56.95, golden 56.23, self-play 55.88: at most ${f.paperMax.toFixed(2)} points) are ${belowText(f)}: with the spreads the records show, a ${f.paperMax.toFixed(2)}-point gap has ${range(f.powerPaper, pct)} power over two seeds of ${c.planTasks} tasks, and ${seedsFor5Text(f)} (the power table below).`
      : `**Power.** The paper's 1.5B gaps (Code-A1 56.95, golden 56.23, self-play 55.88: at most ${f.paperMax.toFixed(2)} points) are compared with this lab's resolution once two seeds are recorded (a seed-to-seed spread needs two).`,
  ];
}

/** README's results paragraph: the same facts in at most five lines. */
export function readmeClaims(c: ClaimInputs): string[] {
  const f = facts(c);
  const effect = f.excludes0(f.between[0]) ? 'its interval excludes 0' : 'no method effect is visible';
  const which = f.pilot
    ? `Those are pilot runs; the 100-step reference runs on ${c.planTasks} held-out tasks are pending.`
    : 'These are the reference runs (tiny models, a setting chosen on validation data).';
  const paper = !f.powerPaper.length
    ? "The paper's 1.5B gaps (56.95 vs 56.23 vs 55.88) are set against this lab's resolution once two seeds are recorded."
    : `The paper's 1.5B gaps (56.95 vs 56.23 vs 55.88) are ${f.paperInReach ? "within this lab's resolution" : "below this lab's resolution"}: ${seedsFor5Text(f)}.`;
  const text = `**Results** ([docs/results.md](docs/results.md)): on ${f.tasks} tasks never trained on, ${c.step} steps of RL (${seedsWord(f.seeds.length)}) move pass@1 by ${MODES.map((m, i) => `${showDelta(f.vsStart[i])} (${m})`).join(', ')} points, and code-a1 − golden is ${showDelta(f.between[0])}: ${effect}. ${which} ${paper}`;
  return wrap(text, 118);
}

/** Words joined into lines of at most `width` characters. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const w of text.split(' ')) {
    if (line && line.length + 1 + w.length > width) {
      lines.push(line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  if (line) lines.push(line);
  return lines;
}

export const CLAIMS_END = '<!-- claims:end -->';
/** `<!-- claims:begin step=40 dir=heldout-task power=heldout-task,heldout-task-ws -->` … end (page or README). */
export const CLAIMS_BLOCK =
  /<!-- claims:begin (page|readme) step=(\d+) dir=([\w.-]+) power=([\w.,-]+) -->[\s\S]*?<!-- claims:end -->/g;
export const claimsBegin = (kind: 'page' | 'readme', step: number, dir: string, power: string) =>
  `<!-- claims:begin ${kind} step=${step} dir=${dir} power=${power} -->`;
