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
import type { Sandbox } from '../sandbox/types';
import type { Policy } from './policy';
import { candidateProgram, solutionBody } from './prompts';
import { RAW_FORMAT } from './prompts-chat';
import { attackForm, countTests, MAX_TESTS_PER_ROLLOUT } from './judging';
import { codetSelect, mul, mutAtK, passAtKEstimate, testPassAtK, whiteBoxMutationScore } from './eval-metrics';
import { Rng, deriveSeed } from './rng';

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
  onProgress?: (what: string, done: number, total: number) => void;
}

export const DEFAULT_EVAL: EvalOptions = {
  samples: 4,
  temperature: 0.7,
  topP: 0.95,
  maxNewTokens: 128,
  maxTestTokens: 96,
  k: 4,
  seed: 1234,
  timeoutMs: 1000,
  mutantsPerProblem: 3,
};

export interface SplitReport {
  split: Split;
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
}

export type HeldOutSplit = 'heldout' | 'heldout-family';

/** A comma-separated list of held-out splits (a CLI flag's value); undefined means both. */
export function parseHeldOutSplits(text: string | undefined, flag: string): Set<HeldOutSplit> {
  const out = new Set<HeldOutSplit>();
  for (const s of (text ?? 'heldout,heldout-family').split(',')) {
    if (s !== 'heldout' && s !== 'heldout-family') throw new Error(`${flag}: unknown split '${s}' (heldout, heldout-family)`);
    out.add(s);
  }
  return out;
}

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
  const r = await sandbox.judge({ code, entryPoint: p.entryPoint, tests: p.hiddenTests, timeoutMs, setupCode: p.setupCode });
  return r.compileError === undefined && r.verdicts.every((v) => v.status === 'passed');
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
  const progress = (what: string, d: number, t: number) => o.onProgress?.(`${split} ${what}`, d, t);
  // Each model's prompt format: the lab's raw one, or the release's chat prompts for a Hugging Face instruct model.
  const cf = coder.promptFormat ?? RAW_FORMAT;
  const tf = tester.promptFormat ?? RAW_FORMAT;
  const sampled = await coder.generate(
    problems.flatMap((p) => Array<string>(n).fill(cf.coderPrompt(p))),
    { maxNewTokens: o.maxNewTokens, temperature: o.temperature, topP: o.topP, seed: o.seed, stop: cf.stop, onProgress: (d, t) => progress('coder samples', d, t) },
  );
  const greedy = await coder.generate(problems.map((p) => cf.coderPrompt(p)), {
    maxNewTokens: o.maxNewTokens,
    temperature: 0,
    topP: 1,
    seed: o.seed,
    stop: cf.stop,
    onProgress: (d, t) => progress('coder greedy', d, t),
  });
  const codes = sampled.map((g, i) => cf.candidate(problems[Math.floor(i / n)], g.text));
  const passSampled = await Promise.all(codes.map((c, i) => hiddenPass(sandbox, problems[Math.floor(i / n)], c, o.timeoutMs)));
  const passGreedy = await Promise.all(greedy.map((g, i) => hiddenPass(sandbox, problems[i], cf.candidate(problems[i], g.text), o.timeoutMs)));

  // Tester on the reference solution (pass@k, mut@k) and on each mutant (white-box mutation score).
  const targets: { p: Problem; code: string; mutant?: Mutant }[] = [];
  for (const p of problems) {
    // The Tester sees programs in the shape the Coder produces: the problem prompt plus a body.
    targets.push({ p, code: candidateProgram(p.prompt, solutionBody(p.solution)) });
    for (const m of (mutants.get(p.id) ?? []).slice(0, o.mutantsPerProblem)) targets.push({ p, code: candidateProgram(p.prompt, solutionBody(m.code)), mutant: m });
  }
  const testGens = await tester.generate(
    targets.flatMap((t) => Array<string>(o.k).fill(tf.testerPrompt(t.p, t.code, o.k))),
    { maxNewTokens: o.maxTestTokens, temperature: o.temperature, topP: o.topP, seed: o.seed + 1, stop: tf.stop, onProgress: (d, t) => progress('tester', d, t) },
  );
  // Each target's tests, counted as in training; a test is correct when its call ran, its expected value matched and
  // it is no repeat.
  const counted = await Promise.all(
    targets.map(async (t, ti) => {
      const groups = testGens.slice(ti * o.k, (ti + 1) * o.k).map((g) => tf.testerText(g.text));
      const rollouts = await Promise.all(
        groups.map(async (raw) => {
          const ex = await sandbox.extract(raw, t.p.entryPoint, MAX_TESTS_PER_ROLLOUT);
          const tests = ex.tests.length ? await sandbox.validate(t.p.solution, t.p.entryPoint, ex.tests, o.timeoutMs, t.p.setupCode) : [];
          return countTests(raw, tests, ex.rejected);
        }),
      );
      const correct = rollouts.flatMap((r) => r.tests.filter((x) => x.valid && !x.repeat));
      return { lines: rollouts.reduce((a, r) => a + r.tests.length + r.malformed, 0), correct };
    }),
  );
  const killedBy = async (code: string, p: Problem, tests: string[]) => {
    if (!tests.length) return false;
    const r = await sandbox.judge({ code, entryPoint: p.entryPoint, tests, timeoutMs: o.timeoutMs, setupCode: p.setupCode });
    return r.compileError !== undefined || r.verdicts.some((v) => v.status !== 'passed');
  };
  let refCorrect = 0;
  let refLines = 0;
  const killedByRefTests: boolean[] = [];
  const killedWhiteBox: boolean[] = [];
  const refTests = new Map<string, string[]>();
  targets.forEach((t, ti) => {
    if (t.mutant) return;
    refCorrect += counted[ti].correct.length;
    refLines += counted[ti].lines;
    refTests.set(t.p.id, counted[ti].correct.map((x) => x.text));
  });
  let done = 0;
  for (let ti = 0; ti < targets.length; ti++) {
    const t = targets[ti];
    if (!t.mutant) continue;
    // mut@k: the tests written for the reference, run on this mutant.
    killedByRefTests.push(await killedBy(t.code, t.p, refTests.get(t.p.id) ?? []));
    // White-box: the tests written for this mutant, valid on the ground truth, in their ground-truth form.
    killedWhiteBox.push(await killedBy(t.code, t.p, counted[ti].correct.map(attackForm).filter((a): a is string => !!a)));
    progress('mutants', ++done, targets.length - problems.length);
  }

  // CodeT-style selection among the n coder samples, with the tester's tests written for those samples.
  let selected = 0;
  for (let pi = 0; pi < problems.length; pi++) {
    const p = problems[pi];
    const cands = codes.slice(pi * n, (pi + 1) * n);
    const gens = await tester.generate(cands.map((c) => tf.testerPrompt(p, c, o.k)), {
      maxNewTokens: o.maxTestTokens,
      temperature: o.temperature,
      topP: o.topP,
      seed: o.seed + 2 + pi,
      stop: tf.stop,
    });
    const tests = [...new Set((await Promise.all(gens.map((g) => sandbox.extract(tf.testerText(g.text), p.entryPoint, o.k)))).flatMap((e) => e.tests.map((t) => t.text)))];
    const sigs = await Promise.all(
      cands.map(async (c) => {
        if (!tests.length) return '';
        const r = await sandbox.judge({ code: c, entryPoint: p.entryPoint, tests, timeoutMs: o.timeoutMs, setupCode: p.setupCode });
        return r.verdicts.map((v) => (r.compileError === undefined && v.status === 'passed' ? '1' : '0')).join('');
      }),
    );
    if (passSampled[pi * n + codetSelect(sigs)]) selected++;
    progress('selection', pi + 1, problems.length);
  }

  const P = Math.max(1, problems.length);
  const passAtK = testPassAtK(refCorrect, refLines);
  const allLines = counted.reduce((a, c) => a + c.lines, 0);
  const allCorrect = counted.reduce((a, c) => a + c.correct.length, 0);
  const mutK = mutAtK(killedByRefTests);
  const pass1 = problems.map((_, pi) => passAtKEstimate(n, passSampled.slice(pi * n, (pi + 1) * n).filter(Boolean).length, 1));
  return {
    split,
    problems: problems.length,
    coderPass1: pass1.length ? pass1.reduce((a, b) => a + b, 0) / pass1.length : 0,
    coderPass1Greedy: passGreedy.filter(Boolean).length / P,
    selectedPass1: selected / P,
    testerValidity: allLines ? allCorrect / allLines : 0,
    mutationScore: whiteBoxMutationScore(killedWhiteBox),
    passAtK,
    mutAtK: mutK,
    mul: mul(passAtK, mutK),
  };
}
