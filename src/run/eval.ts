// Evaluation harness: coder pass@1 (sampled and greedy) on held-out problems, tester validity, mutation score,
// pass@k / mut@k / Mul, and CodeT-style selection with generated tests; split by in-distribution vs held-out family.
//
// Definitions (the maths lives in eval-metrics.ts):
// - coder pass@1: a sample passes when it passes every hidden test; the unbiased estimator over n samples (T=0.7,
//   top-p 0.95), i.e. the share of passing samples.
// - tester validity: share of the assert lines the Tester wrote (for the reference and for the mutants) that are
//   correct on the ground truth, counted as in training (judging.ts).
// - pass@k / mut@k / Mul as UnLeakedTestBench defines them: the Tester writes k groups for the reference function;
//   pass@k = % of those tests correct on the reference; mut@k = % of the problem's mutants killed by those correct
//   tests; Mul = pass@k × mut@k / 100.
// - white-box mutation score (`mutationScore`, the lab's own): the Tester is shown each mutant, as during training;
//   the mutant is killed when a test it wrote for it, valid on the ground truth, fails on it.
// - CodeT selection: candidates are scored by dual agreement over the tester's (unvalidated) tests: |tests passed| ×
//   |candidates with the same pass signature|; the top one's hidden-test result is the selected pass@1.
import type { Mutant, Problem, Split } from '../tasks/types';
import type { TrainSubset } from '../tasks/split';
import type { Sandbox } from '../sandbox/types';
import type { TrainConfig } from '../rl/config';
import type { Generation, GenerateOptions, Policy } from '../rl/policy';
import { candidateProgram, solutionBody } from '../rl/prompts';
import { RAW_FORMAT } from '../rl/prompts-chat';
import { attackForm, countTests, judgeHidden, MAX_TESTS_PER_ROLLOUT, passedAll } from '../rl/judging';
import { codetSelect } from './eval-metrics';
import { bootstrapCI, problemRecord, summarize, type CiMetric, type ProblemEval } from './eval-ci';
import { Rng, deriveSeed } from '../rl/rng';

export {
  DEFAULT_SPLITS,
  migrateSplit,
  parseEvalSplits,
  parseHeldOutSplits,
  type EvalSplit,
  type HeldOutSplit,
} from './eval-splits';

export interface EvalOptions {
  samples: number;
  temperature: number;
  topP: number;
  maxNewTokens: number;
  maxTestTokens: number;
  k: number;
  seed: number;
  timeoutMs: number;
  /** Cap on mutants judged per problem. */
  mutantsPerProblem: number;
  /** Tester outputs per mutant for the white-box mutation score (k when absent, as for the reference). */
  mutantGroups?: number;
  /** Run CodeT selection (one Tester output per Coder sample: the costliest part at n = 8); default true. */
  selection?: boolean;
  /** Prompts per generate call (default 128). */
  maxBatch?: number;
  /** Keep the greedy program of the first this-many problems in the report (what the Coder writes; default 0). */
  showGreedy?: number;
  onProgress?: (what: string, done: number, total: number) => void;
}

/**
 * The evaluation protocol of docs/results.md: 8 samples per problem, the Tester's k groups on the reference (pass@k,
 * mut@k) and one group on each of 3 mutants (white-box mutation score). One group per mutant instead of k costs a
 * quarter of the Tester generation the white-box score used to take.
 */
export const DEFAULT_EVAL: EvalOptions = {
  samples: 8,
  temperature: 0.7,
  topP: 0.95,
  maxNewTokens: 128,
  maxTestTokens: 96,
  k: 4,
  seed: 1234,
  timeoutMs: 1000,
  mutantsPerProblem: 3,
  mutantGroups: 1,
  maxBatch: 128,
};

/**
 * The sampling seed of a run's evaluation after `step` steps: its own for every run seed and step, so no two
 * evaluations (the step-0 ones of two seeds included) share a draw. The problems evaluated stay fixed (evalSubset).
 */
export const evalSeed = (runSeed: number, step: number): number => deriveSeed(DEFAULT_EVAL.seed, 'run', runSeed, step);

/** The protocol for a run: DEFAULT_EVAL with the run's completion lengths and tests per group, then `o`. */
export function runEvalOptions(config: TrainConfig, o: Partial<EvalOptions> = {}): EvalOptions {
  const r = config.rollout;
  return {
    ...DEFAULT_EVAL,
    k: r.tests_per_group,
    maxNewTokens: r.max_completion_length,
    maxTestTokens: r.max_test_completion_length,
    ...o,
  };
}

export interface SplitReport {
  split: Split;
  /** Set on records whose split names are the current ones (eval-splits.ts migrateSplit reads older ones). */
  splitsByTask?: true;
  /** On the training split: which warm-start part was evaluated (absent: the whole split, or a held-out one). */
  part?: TrainSubset;
  problems: number;
  coderPass1: number;
  coderPass1Greedy: number;
  selectedPass1: number;
  testerValidity: number;
  /** White-box mutation score (the Tester sees each mutant): the lab's own metric, not the paper's mut@k. */
  mutationScore: number;
  passAtK: number;
  mutAtK: number;
  mul: number;
  /** Coder samples per problem. */
  samples?: number;
  /** 95% bootstrap confidence interval of each metric over problems (eval-ci.ts); absent in old records. */
  ci?: Record<CiMetric, [number, number]>;
  /** The counts every metric above is computed from, one per problem. */
  perProblem?: ProblemEval[];
  /** Wall-clock seconds per phase (coder generation, tester judging, …): where the evaluation's time goes. */
  seconds?: Record<string, number>;
  /** The greedy program of the first problems and whether it passed the hidden tests (EvalOptions.showGreedy). */
  greedy?: { id: string; code: string; passed: boolean }[];
}

/** A report's split as `npm run eval --splits` names it: `train-sft` for the training split's SFT part. */
export const splitLabel = (r: Pick<SplitReport, 'split' | 'part'>): string =>
  r.part ? `${r.split}-${r.part}` : r.split;

/**
 * n problems spread evenly over families (round-robin, each family's order shuffled by the seed), so a small
 * evaluation set never consists of one family just because the list is grouped by family.
 */
export function evalSubset(problems: readonly Problem[], n: number, seed: number): Problem[] {
  if (problems.length <= n) return [...problems];
  const byFamily = new Map<string, Problem[]>();
  for (const p of problems) {
    const list = byFamily.get(p.family);
    if (list) list.push(p);
    else byFamily.set(p.family, [p]);
  }
  const queues = [...byFamily.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([fam, ps]) => new Rng(deriveSeed(seed, 'eval', fam)).sample(ps.length, ps.length).map((i) => ps[i]));
  const out: Problem[] = [];
  for (let i = 0; out.length < n; i++) {
    for (const q of queues) if (i < q.length && out.length < n) out.push(q[i]);
  }
  return out.sort((a, b) => a.id.localeCompare(b.id));
}

async function hiddenPass(sandbox: Sandbox, p: Problem, code: string, timeoutMs: number): Promise<boolean> {
  return passedAll(await judgeHidden(sandbox, p, code, timeoutMs, true));
}

/** One generate call per `maxBatch` prompts: bounds the KV cache, and short rows do not wait for a huge batch. */
async function generateChunked(
  policy: Policy,
  prompts: string[],
  o: GenerateOptions,
  maxBatch: number,
): Promise<Generation[]> {
  const out: Generation[] = [];
  for (let i = 0; i < prompts.length; i += maxBatch) {
    const part = await policy.generate(prompts.slice(i, i + maxBatch), {
      ...o,
      // The first chunk keeps the caller's seed, so an evaluation that fits one chunk draws what it always drew.
      seed: i === 0 ? o.seed : deriveSeed(o.seed, 'chunk', i),
      onProgress: o.onProgress ? (d) => o.onProgress?.(i + d, prompts.length) : undefined,
    });
    out.push(...part);
  }
  return out;
}

/** Evaluates coder and tester on one split's problems. */
export async function evaluateSplit(
  split: Split,
  problems: Problem[],
  mutants: Map<string, Mutant[]>,
  coder: Policy,
  tester: Policy,
  sandbox: Sandbox,
  o: EvalOptions,
): Promise<SplitReport> {
  const n = o.samples;
  for (const [k, v] of [
    ['samples', n],
    ['k', o.k],
    ['mutantGroups', o.mutantGroups ?? o.k],
    ['maxBatch', o.maxBatch ?? 1],
  ] as const) {
    if (!(Number.isInteger(v) && v >= 1)) throw new Error(`evaluateSplit: ${k} must be an integer >= 1, got ${v}`);
  }
  const show = o.showGreedy ?? 0;
  if (!(Number.isInteger(show) && show >= 0))
    throw new Error(`evaluateSplit: showGreedy (--show) must be an integer >= 0, got ${show}`);
  const maxBatch = o.maxBatch ?? DEFAULT_EVAL.maxBatch ?? 128;
  const seconds: Record<string, number> = {};
  let t0 = performance.now();
  const lap = (what: string) => {
    const t = performance.now();
    seconds[what] = (seconds[what] ?? 0) + (t - t0) / 1000;
    t0 = t;
  };
  const progress = (what: string, d: number, t: number) => o.onProgress?.(`${split} ${what}`, d, t);
  // Each model's prompt format: the lab's raw one, or the release's chat prompts for a Hugging Face instruct model.
  const cf = coder.promptFormat ?? RAW_FORMAT;
  const tf = tester.promptFormat ?? RAW_FORMAT;
  // One batched generation by the coder or the tester, reported as `what`: sampled as configured, or greedy.
  const generate = (role: 'coder' | 'tester', prompts: string[], what: string, seed: number, greedy = false) =>
    generateChunked(
      role === 'coder' ? coder : tester,
      prompts,
      {
        maxNewTokens: role === 'coder' ? o.maxNewTokens : o.maxTestTokens,
        temperature: greedy ? 0 : o.temperature,
        topP: greedy ? 1 : o.topP,
        seed,
        stop: (role === 'coder' ? cf : tf).stop,
        onProgress: (d, t) => progress(what, d, t),
      },
      maxBatch,
    );
  const sampled = await generate(
    'coder',
    problems.flatMap((p) => Array<string>(n).fill(cf.coderPrompt(p))),
    'coder samples',
    o.seed,
  );
  const greedy = await generate(
    'coder',
    problems.map((p) => cf.coderPrompt(p)),
    'coder greedy',
    o.seed,
    true,
  );
  lap('coder generation');
  const codes = sampled.map((g, i) => cf.candidate(problems[Math.floor(i / n)], g.text));
  const passSampled = await Promise.all(
    codes.map((c, i) => hiddenPass(sandbox, problems[Math.floor(i / n)], c, o.timeoutMs)),
  );
  const passGreedy = await Promise.all(
    greedy.map((g, i) => hiddenPass(sandbox, problems[i], cf.candidate(problems[i], g.text), o.timeoutMs)),
  );
  lap('coder judging');

  // Tester on the reference solution, k groups (pass@k, mut@k), and on each mutant, `mutantGroups` groups each
  // (white-box mutation score).
  const groupsPerMutant = o.mutantGroups ?? o.k;
  const targets: { pi: number; code: string; groups: number; mutant?: Mutant }[] = [];
  problems.forEach((p, pi) => {
    // The Tester sees programs in the shape the Coder produces: the problem prompt plus a body.
    targets.push({ pi, code: candidateProgram(p.prompt, solutionBody(p.solution)), groups: o.k });
    for (const m of (mutants.get(p.id) ?? []).slice(0, o.mutantsPerProblem)) {
      targets.push({ pi, code: candidateProgram(p.prompt, solutionBody(m.code)), groups: groupsPerMutant, mutant: m });
    }
  });
  const testGens = await generate(
    'tester',
    targets.flatMap((t) => Array<string>(t.groups).fill(tf.testerPrompt(problems[t.pi], t.code, o.k))),
    'tester',
    o.seed + 1,
  );
  lap('tester generation');
  // Each target's tests, counted as in training; a test is correct when its call ran, its expected value matched and
  // it is no repeat.
  let offset = 0;
  const spans = targets.map((t) => [offset, (offset += t.groups)] as const);
  const counted = await Promise.all(
    targets.map(async (t, ti) => {
      const p = problems[t.pi];
      const groups = testGens.slice(...spans[ti]).map((g) => tf.testerText(g.text));
      const rollouts = await Promise.all(
        groups.map(async (raw) => {
          const ex = await sandbox.extract(raw, p.entryPoint, MAX_TESTS_PER_ROLLOUT);
          const tests = ex.tests.length
            ? await sandbox.validate(p.solution, p.entryPoint, ex.tests, o.timeoutMs, p.setupCode)
            : [];
          return countTests(raw, tests, ex.rejected);
        }),
      );
      const correct = rollouts.flatMap((r) => r.tests.filter((x) => x.valid && !x.repeat));
      return { lines: rollouts.reduce((a, r) => a + r.tests.length + r.malformed, 0), correct };
    }),
  );
  const killedBy = async (code: string, p: Problem, tests: string[]) => {
    if (!tests.length) return false;
    const r = await sandbox.judge({
      code,
      entryPoint: p.entryPoint,
      tests,
      timeoutMs: o.timeoutMs,
      setupCode: p.setupCode,
      stopAtTimeout: true,
    });
    return !passedAll(r);
  };
  const records = problems.map((p, pi) =>
    problemRecord(p.id, n, passSampled.slice(pi * n, (pi + 1) * n).filter(Boolean).length, passGreedy[pi]),
  );
  const refTests = new Map<number, string[]>();
  targets.forEach((t, ti) => {
    const r = records[t.pi];
    r.lines += counted[ti].lines;
    r.correct += counted[ti].correct.length;
    if (t.mutant) return;
    r.refCorrect += counted[ti].correct.length;
    r.refLines += counted[ti].lines;
    refTests.set(
      t.pi,
      counted[ti].correct.map((x) => x.text),
    );
  });
  let done = 0;
  const mutantTargets = targets.length - problems.length;
  for (let ti = 0; ti < targets.length; ti++) {
    const t = targets[ti];
    if (!t.mutant) continue;
    const p = problems[t.pi];
    const r = records[t.pi];
    r.mutants++;
    // mut@k: the tests written for the reference, run on this mutant.
    if (await killedBy(t.code, p, refTests.get(t.pi) ?? [])) r.mutKilledByRef++;
    // White-box: the tests written for this mutant, valid on the ground truth, in their ground-truth form.
    if (
      await killedBy(
        t.code,
        p,
        counted[ti].correct.map(attackForm).filter((a): a is string => !!a),
      )
    )
      r.mutKilledWhiteBox++;
    progress('mutants', ++done, mutantTargets);
  }
  lap('tester judging');

  // CodeT-style selection among the n coder samples, with the tester's tests written for those samples (one batched
  // generation for all problems).
  if (o.selection !== false) {
    const gens = await generate(
      'tester',
      codes.map((c, ci) => tf.testerPrompt(problems[Math.floor(ci / n)], c, o.k)),
      'selection tests',
      o.seed + 2,
    );
    lap('selection generation');
    for (let pi = 0; pi < problems.length; pi++) {
      const p = problems[pi];
      const cands = codes.slice(pi * n, (pi + 1) * n);
      const mine = gens.slice(pi * n, (pi + 1) * n);
      const tests = [
        ...new Set(
          (await Promise.all(mine.map((g) => sandbox.extract(tf.testerText(g.text), p.entryPoint, o.k)))).flatMap((e) =>
            e.tests.map((t) => t.text),
          ),
        ),
      ];
      const sigs = await Promise.all(
        cands.map(async (c) => {
          if (!tests.length) return '';
          const r = await sandbox.judge({
            code: c,
            entryPoint: p.entryPoint,
            tests,
            timeoutMs: o.timeoutMs,
            setupCode: p.setupCode,
          });
          return r.verdicts.map((v) => (r.compileError === undefined && v.status === 'passed' ? '1' : '0')).join('');
        }),
      );
      records[pi].selected = passSampled[pi * n + codetSelect(sigs)];
      progress('selection', pi + 1, problems.length);
    }
    lap('selection judging');
  }

  return {
    split,
    splitsByTask: true,
    problems: problems.length,
    samples: n,
    ...summarize(records),
    ci: bootstrapCI(records, { seed: o.seed }),
    perProblem: records,
    seconds,
    ...(o.showGreedy
      ? {
          greedy: greedy.slice(0, o.showGreedy).map((g, i) => ({
            id: problems[i].id,
            code: cf.candidate(problems[i], g.text),
            passed: passGreedy[i],
          })),
        }
      : {}),
  };
}
