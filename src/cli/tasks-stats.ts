// `npm run tasks -- stats`: the curriculum's families, split sizes, tasks (instances that differ only in the function
// name pose one) and prompt/solution lengths; optional sandbox check of every style and mutant (--check N|all, with
// the mutants each family's docstring example misses) and warm-start corpus export (--corpus DIR). `--preset tiny`
// restricts it to a preset's families.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type BpeTokenizer, loadTokenizer } from '../model/tokenizer';
import { trainTokenizer } from '../model/tokenizer-train';
import { FAMILIES } from '../tasks/families/index';
import {
  DEFAULT_PER_FAMILY,
  DEFAULT_SEED,
  HELDOUT_FAMILIES,
  HELDOUT_TASK_CAP,
  generateCurriculum,
  generateHeldoutTasks,
  taskOf,
} from '../tasks/generate';
import type { CorpusExample } from '../rl/corpus';
import type { Instance } from '../tasks/family';
import type { InstanceCheck } from '../tasks/verify';
import type { Split } from '../tasks/types';
import {
  NOVELTIES,
  noveltyAgainst,
  taskSummary,
  type Novelty,
  type TaskCount,
  type TaskSummary,
} from '../tasks/novelty';
import { PRESET_NAMES, PRESETS, type PresetName } from '../rl/config';
import { intArg, UsageError } from './args';
import { didYouMean } from '../rl/nearest';
import { parseCli } from './cli-spec';
import { TASKS_STATS_SPEC } from './help/tasks-specs';

/** A tokenizer.json given explicitly, else the first shipped one under public/models. */
function findTokenizer(path: string | undefined): string | undefined {
  if (path) return path;
  const root = 'public/models';
  if (!existsSync(root)) return undefined;
  for (const d of readdirSync(root))
    if (existsSync(join(root, d, 'tokenizer.json'))) return join(root, d, 'tokenizer.json');
  return undefined;
}

const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

export async function statsCommand(argv: string[]): Promise<number> {
  const parsed = parseCli(TASKS_STATS_SPEC, argv);
  if (!parsed) return 0;
  const { args } = parsed;
  const seed = intArg(args, 'seed', DEFAULT_SEED);
  const perFamily = intArg(args, 'per-family', DEFAULT_PER_FAMILY);
  const preset = args.preset as string | undefined;
  if (preset !== undefined && !PRESET_NAMES.includes(preset as PresetName))
    throw new UsageError(
      `--preset ${preset}${didYouMean(preset, PRESET_NAMES)}: expected one of ${PRESET_NAMES.join(', ')}`,
    );
  const families = preset ? PRESETS[preset as PresetName].tasks.families : FAMILIES.map((f) => f.name);
  const insts = generateCurriculum({ seed, perFamily, families });
  const problems = insts.map((i) => i.problem);

  const tokPath = findTokenizer(typeof args.tokenizer === 'string' ? args.tokenizer : undefined);
  let tok: BpeTokenizer | undefined = tokPath ? loadTokenizer(readFileSync(tokPath, 'utf8')) : undefined;
  let unit = tok ? `tokens (${tokPath})` : 'characters (no tokenizer found; pass --tokenizer or --train-tokenizer)';
  if (!tok && typeof args['train-tokenizer'] === 'string') {
    // A throwaway BPE fitted to the training split's prompts and programs: what the lab's tokenizer would see.
    const vocabSize = intArg(args, 'train-tokenizer', 1024);
    const train = insts.filter((i) => i.problem.split === 'train');
    const texts = train.flatMap((i) => [
      i.problem.prompt,
      ...i.styles,
      ...i.mutants.map((m) => m.code),
      ...i.problem.hiddenTests,
    ]);
    tok = loadTokenizer(trainTokenizer(texts, { vocabSize }));
    unit = `tokens (BPE with ${vocabSize} ids fitted to the train split)`;
  }
  const fitted = tok;
  const len = (s: string): number => (fitted ? fitted.encode(s).length : s.length);

  const byCat = new Map<string, number>();
  const chosen = FAMILIES.filter((f) => families.includes(f.name));
  for (const f of chosen) byCat.set(f.category, (byCat.get(f.category) ?? 0) + 1);
  console.log(`seed ${seed}, up to ${perFamily} instances per family`);
  console.log(
    `families: ${chosen.length}${preset ? ` (the ${preset} preset's)` : ''} (${[...byCat].map(([c, n]) => `${c} ${n}`).join(', ')})`,
  );
  const splits: Split[] = ['train', 'renamed', 'heldout-family'];
  const count = (s: Split): number => problems.filter((p) => p.split === s).length;
  console.log(`problems: ${problems.length} (${splits.map((s) => `${s} ${count(s)}`).join(', ')})`);
  console.log(`held-out families: ${HELDOUT_FAMILIES.filter((f) => families.includes(f)).join(', ')}`);
  const tests = problems.map((p) => p.hiddenTests.length);
  console.log(`hidden tests per problem: min ${Math.min(...tests)}, mean ${mean(tests).toFixed(1)}`);
  const styles = insts.flatMap((i) => i.styles);
  const mutants = insts.flatMap((i) => i.mutants);
  console.log(`programs: ${styles.length} correct styles, ${mutants.length} mutants`);
  console.log(`mean lengths in ${unit}:`);
  console.log(
    `  prompt ${mean(problems.map((p) => len(p.prompt))).toFixed(1)}, reference ${mean(problems.map((p) => len(p.solution))).toFixed(1)}, any style ${mean(styles.map(len)).toFixed(1)}, mutant ${mean(mutants.map((m) => len(m.code))).toFixed(1)}`,
  );
  printTasks(taskSummary(problems));
  const newTasks = generateHeldoutTasks({ seed, perFamily, families });
  const perFam = chosen.map((f) => `${f.name} ${newTasks.filter((i) => i.problem.family === f.name).length}`);
  console.log(
    `  heldout ${newTasks.length} instances, one per task no curriculum instance poses (at most ${HELDOUT_TASK_CAP} per family, task variants included): ${perFam.join(', ')}`,
  );
  // Per family: its tasks, and its held-out instances whose task no training instance poses (against the halves).
  const novelty = noveltyAgainst(problems, 'rl');
  console.log(
    '\nfamily                 category  split           n  tasks  new  styles mutants  prompt  solution   (new: renamed instances posing a task no training instance poses)',
  );
  for (const f of chosen) {
    const mine = problems.filter((p) => p.family === f.name);
    const tasks = new Set(mine.map((p) => taskOf(p.id))).size;
    const fresh = mine.filter((p) => p.split === 'renamed' && novelty(p.id) === 'new').length;
    console.log(
      `${f.name.padEnd(22)} ${f.category.padEnd(9)} ${(HELDOUT_FAMILIES.includes(f.name) ? 'heldout-family' : 'train/renamed').padEnd(14)} ${String(mine.length).padStart(3)}  ${String(tasks).padStart(5)} ${String(fresh).padStart(4)}  ${String(f.styleCount).padStart(6)} ${String(f.mutantCount).padStart(7)}  ${mean(
        mine.map((p) => len(p.prompt)),
      )
        .toFixed(0)
        .padStart(6)}  ${mean(mine.map((p) => len(p.solution)))
        .toFixed(0)
        .padStart(8)}`,
    );
  }

  let rc = 0;
  // The held-out instances are checked too: their parameters are ones no curriculum instance exercises.
  if (typeof args.check === 'string') rc = Math.max(rc, await runCheck([...insts, ...newTasks], args.check));
  if (typeof args.corpus === 'string') {
    const bugRate = Number(args['bug-rate'] ?? 0.2);
    await writeCorpora(insts, args.corpus, seed, bugRate, intArg(args, 'k', 8));
  }
  return rc;
}

/** The task counts: how many distinct tasks the instances are, and which renamed instances rename training ones. */
function printTasks(t: TaskSummary): void {
  const c = (x: TaskCount) => `${x.instances} instances, ${x.tasks} tasks`;
  const n = (r: Record<Novelty, number>) => NOVELTIES.map((k) => `${k} ${r[k]}`).join(', ');
  console.log('tasks (family + parameters: instances that differ only in the function name pose one task):');
  console.log(
    `  train ${c(t.train)}: SFT part ${c(t.sft)}, RL part ${c(t.rl)} (${t.rlRenamingSft} rename an SFT task)`,
  );
  console.log(`  renamed ${c(t.heldout)}; heldout-family ${c(t.heldoutFamily)}`);
  console.log(`  renamed instances against the SFT-half warm-start with RL on the RL part: ${n(t.heldoutVsHalves)}`);
  console.log(`  against a warm-start on every training instance: ${n(t.heldoutVsAll)}`);
}

async function runCheck(insts: Instance[], what: string): Promise<number> {
  const { createNodeSandbox } = await import('../sandbox/node');
  const { checkInstances, sampleByFamily } = await import('../tasks/verify');
  const chosen = what === 'all' ? insts : sampleByFamily(insts, Number(what));
  const sandbox = createNodeSandbox();
  try {
    await sandbox.warm();
    const t0 = performance.now();
    const checks = await checkInstances(sandbox, chosen);
    const bad = checks.filter((c) => c.failures.length);
    const judged = checks.reduce((a, c) => a + c.judged, 0);
    console.log(
      `\ncheck: judged ${judged} programs on ${chosen.length} problems in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${bad.length} problems with failures`,
    );
    for (const c of bad.slice(0, 50)) console.log(`  ${c.problemId}: ${c.failures.slice(0, 3).join('; ')}`);
    printExampleEscapes(checks);
    return bad.length ? 1 : 0;
  } finally {
    await sandbox.close();
  }
}

/**
 * Per family, the mutants that pass the docstring example but fail a hidden test: where the example alone would grade
 * a wrong program as right, so tests written against the program (a Tester's) have something to add.
 */
function printExampleEscapes(checks: readonly InstanceCheck[]): void {
  const byFamily = new Map<string, { escapes: number; mutants: number }>();
  for (const c of checks) {
    const f = c.problemId.split('/')[0];
    const t = byFamily.get(f) ?? { escapes: 0, mutants: 0 };
    byFamily.set(f, { escapes: t.escapes + c.exampleEscapes, mutants: t.mutants + c.mutants });
  }
  const rows = [...byFamily].sort((a, b) => b[1].escapes / b[1].mutants - a[1].escapes / a[1].mutants);
  const all = rows.reduce((a, [, t]) => ({ e: a.e + t.escapes, m: a.m + t.mutants }), { e: 0, m: 0 });
  console.log(
    `\nmutants that pass the docstring example but fail a hidden test: ${all.e}/${all.m} (${((100 * all.e) / Math.max(1, all.m)).toFixed(1)}%)`,
  );
  for (const [f, t] of rows)
    console.log(
      `  ${f.padEnd(22)} ${`${t.escapes}/${t.mutants}`.padStart(8)}  ${((100 * t.escapes) / t.mutants).toFixed(0).padStart(3)}%`,
    );
}

async function writeCorpora(insts: Instance[], dir: string, seed: number, bugRate: number, k: number): Promise<void> {
  const { createNodeSandbox } = await import('../sandbox/node');
  const { buildCoderCorpus, buildTesterCorpus, toJsonl } = await import('../rl/corpus');
  const writeJsonl = (path: string, examples: readonly CorpusExample[]) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, toJsonl(examples));
  };
  const train = insts.filter((i) => i.problem.split === 'train');
  const coder = buildCoderCorpus(train, { seed, bugRate });
  writeJsonl(join(dir, 'coder.jsonl'), coder);
  const sandbox = createNodeSandbox();
  try {
    const tester = await buildTesterCorpus(sandbox, train, { seed, k });
    writeJsonl(join(dir, 'tester.jsonl'), tester);
    console.log(`\ncorpus: ${coder.length} coder and ${tester.length} tester examples (train split) written to ${dir}`);
  } finally {
    await sandbox.close();
  }
}
