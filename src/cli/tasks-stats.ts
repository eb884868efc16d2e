// `npm run tasks -- stats`: the curriculum's families, split sizes and prompt/solution lengths; optional sandbox check
// of every style and mutant (--check N|all) and warm-start corpus export (--corpus DIR).
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type BpeTokenizer, loadTokenizer } from '../model/tokenizer';
import { trainTokenizer } from '../model/tokenizer-train';
import { FAMILIES } from '../tasks/families/index';
import { DEFAULT_PER_FAMILY, DEFAULT_SEED, HELDOUT_FAMILIES, generateCurriculum } from '../tasks/generate';
import type { CorpusExample } from '../rl/corpus';
import type { Instance } from '../tasks/family';
import type { Split } from '../tasks/types';
import { parseArgs, intArg } from './args';

const USAGE = `usage: npm run tasks -- stats [--seed N] [--per-family N] [--tokenizer tokenizer.json | --train-tokenizer VOCAB]
       [--check N|all] [--corpus DIR [--bug-rate 0.2] [--k 8]]`;

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
  if (argv.includes('--help')) {
    console.log(USAGE);
    return 0;
  }
  const args = parseArgs(argv, {
    seed: 'string',
    'per-family': 'string',
    tokenizer: 'string',
    'train-tokenizer': 'string',
    check: 'string',
    corpus: 'string',
    'bug-rate': 'string',
    k: 'string',
  });
  const seed = intArg(args, 'seed', DEFAULT_SEED);
  const perFamily = intArg(args, 'per-family', DEFAULT_PER_FAMILY);
  const insts = generateCurriculum({ seed, perFamily });
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
  for (const f of FAMILIES) byCat.set(f.category, (byCat.get(f.category) ?? 0) + 1);
  console.log(`seed ${seed}, up to ${perFamily} instances per family`);
  console.log(`families: ${FAMILIES.length} (${[...byCat].map(([c, n]) => `${c} ${n}`).join(', ')})`);
  const splits: Split[] = ['train', 'heldout', 'heldout-family'];
  const count = (s: Split): number => problems.filter((p) => p.split === s).length;
  console.log(`problems: ${problems.length} (${splits.map((s) => `${s} ${count(s)}`).join(', ')})`);
  console.log(`held-out families: ${HELDOUT_FAMILIES.join(', ')}`);
  const tests = problems.map((p) => p.hiddenTests.length);
  console.log(`hidden tests per problem: min ${Math.min(...tests)}, mean ${mean(tests).toFixed(1)}`);
  const styles = insts.flatMap((i) => i.styles);
  const mutants = insts.flatMap((i) => i.mutants);
  console.log(`programs: ${styles.length} correct styles, ${mutants.length} mutants`);
  console.log(`mean lengths in ${unit}:`);
  console.log(
    `  prompt ${mean(problems.map((p) => len(p.prompt))).toFixed(1)}, reference ${mean(problems.map((p) => len(p.solution))).toFixed(1)}, any style ${mean(styles.map(len)).toFixed(1)}, mutant ${mean(mutants.map((m) => len(m.code))).toFixed(1)}`,
  );
  console.log('\nfamily                 category  split           n  styles mutants  prompt  solution');
  for (const f of FAMILIES) {
    const mine = problems.filter((p) => p.family === f.name);
    console.log(
      `${f.name.padEnd(22)} ${f.category.padEnd(9)} ${(HELDOUT_FAMILIES.includes(f.name) ? 'heldout-family' : 'train/heldout').padEnd(14)} ${String(mine.length).padStart(3)}  ${String(f.styleCount).padStart(6)} ${String(f.mutantCount).padStart(7)}  ${mean(
        mine.map((p) => len(p.prompt)),
      )
        .toFixed(0)
        .padStart(6)}  ${mean(mine.map((p) => len(p.solution)))
        .toFixed(0)
        .padStart(8)}`,
    );
  }

  let rc = 0;
  if (typeof args.check === 'string') rc = Math.max(rc, await runCheck(insts, args.check));
  if (typeof args.corpus === 'string') {
    const bugRate = Number(args['bug-rate'] ?? 0.2);
    await writeCorpora(insts, args.corpus, seed, bugRate, intArg(args, 'k', 8));
  }
  return rc;
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
    return bad.length ? 1 : 0;
  } finally {
    await sandbox.close();
  }
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
