// Evaluation harness: coder pass@1 (sampled and greedy) on held-out problems, tester validity, mutation score,
// pass@k / mut@k / Mul, and CodeT-style selection with generated tests; split by in-distribution vs held-out family.
//
// Definitions (ours where the paper is terse):
// - coder pass@1: a sample passes when it passes every hidden test; averaged over n samples (T=0.7, top-p 0.95).
// - tester validity: fraction of extracted tests valid on the ground truth.
// - mutation score: fraction of shipped mutants killed by at least one valid test (white-box: the tester sees the
//   mutant's code, as during training).
// - pass@k: % of problems where all tests in the tester's first k groups (for the reference solution) are valid;
//   mut@k: % of mutants killed by the valid tests of k groups; Mul = pass@k × mut@k / 100.
// - CodeT selection: candidates are scored by dual agreement over the tester's (unvalidated) tests: |tests passed| ×
//   |candidates with the same pass signature|; the top one's hidden-test result is the selected pass@1.
import type { Mutant, Problem, Split } from '../tasks/types';
import type { Sandbox } from '../sandbox/types';
import type { Policy } from './policy';
import { candidateProgram, cleanCompletion, coderPrompt, solutionBody, testerPrompt } from './prompts';
import { SPECIAL_TOKENS } from '../model/special-tokens';
import { attackForm } from './judging';
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
  mutationScore: number;
  passAtK: number;
  mutAtK: number;
  mul: number;
}

const stop = [SPECIAL_TOKENS.end, SPECIAL_TOKENS.eos];

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
  const sampled = await coder.generate(
    problems.flatMap((p) => Array<string>(n).fill(coderPrompt(p.prompt))),
    { maxNewTokens: o.maxNewTokens, temperature: o.temperature, topP: o.topP, seed: o.seed, stop, onProgress: (d, t) => progress('coder samples', d, t) },
  );
  const greedy = await coder.generate(problems.map((p) => coderPrompt(p.prompt)), {
    maxNewTokens: o.maxNewTokens,
    temperature: 0,
    topP: 1,
    seed: o.seed,
    stop,
    onProgress: (d, t) => progress('coder greedy', d, t),
  });
  const codes = sampled.map((g, i) => candidateProgram(problems[Math.floor(i / n)].prompt, cleanCompletion(g.text)));
  const passSampled = await Promise.all(codes.map((c, i) => hiddenPass(sandbox, problems[Math.floor(i / n)], c, o.timeoutMs)));
  const passGreedy = await Promise.all(greedy.map((g, i) => hiddenPass(sandbox, problems[i], candidateProgram(problems[i].prompt, cleanCompletion(g.text)), o.timeoutMs)));

  // Tester on the reference solution (pass@k) and on each mutant (white-box mutation score).
  const targets: { p: Problem; code: string; mutant?: Mutant }[] = [];
  for (const p of problems) {
    // The Tester sees programs in the shape the Coder produces: the problem prompt plus a body.
    targets.push({ p, code: candidateProgram(p.prompt, solutionBody(p.solution)) });
    for (const m of (mutants.get(p.id) ?? []).slice(0, o.mutantsPerProblem)) targets.push({ p, code: candidateProgram(p.prompt, solutionBody(m.code)), mutant: m });
  }
  const testGens = await tester.generate(
    targets.flatMap((t) => Array<string>(o.k).fill(testerPrompt(t.code, o.k))),
    { maxNewTokens: o.maxTestTokens, temperature: o.temperature, topP: o.topP, seed: o.seed + 1, stop, onProgress: (d, t) => progress('tester', d, t) },
  );
  let valid = 0;
  let total = 0;
  let refAllValid = 0;
  let killed = 0;
  let numMutants = 0;
  for (let ti = 0; ti < targets.length; ti++) {
    const t = targets[ti];
    const groups = testGens.slice(ti * o.k, (ti + 1) * o.k).map((g) => cleanCompletion(g.text));
    const validated = (
      await Promise.all(
        groups.map(async (raw) => {
          const ex = await sandbox.extract(raw, t.p.entryPoint, o.k);
          return ex.tests.length ? sandbox.validate(t.p.solution, t.p.entryPoint, ex.tests, o.timeoutMs, t.p.setupCode) : [];
        }),
      )
    ).flat();
    valid += validated.filter((v) => v.valid).length;
    total += validated.length;
    if (!t.mutant) {
      if (validated.length > 0 && validated.every((v) => v.valid)) refAllValid++;
      continue;
    }
    numMutants++;
    const attacks = validated.filter((v) => v.valid).map(attackForm).filter((a): a is string => !!a);
    if (attacks.length) {
      const r = await sandbox.judge({ code: t.code, entryPoint: t.p.entryPoint, tests: attacks, timeoutMs: o.timeoutMs, setupCode: t.p.setupCode });
      const dead = r.compileError !== undefined || r.verdicts.some((v) => v.status !== 'passed');
      if (dead) killed++;
    }
    progress('mutants', numMutants, targets.length - problems.length);
  }

  // CodeT-style selection among the n coder samples, with the tester's tests written for those samples.
  let selected = 0;
  for (let pi = 0; pi < problems.length; pi++) {
    const p = problems[pi];
    const cands = codes.slice(pi * n, (pi + 1) * n);
    const gens = await tester.generate(cands.map((c) => testerPrompt(c, o.k)), {
      maxNewTokens: o.maxTestTokens,
      temperature: o.temperature,
      topP: o.topP,
      seed: o.seed + 2 + pi,
      stop,
    });
    const tests = [...new Set((await Promise.all(gens.map((g) => sandbox.extract(cleanCompletion(g.text), p.entryPoint, o.k)))).flatMap((e) => e.tests.map((t) => t.text)))];
    const sigs = await Promise.all(
      cands.map(async (c) => {
        if (!tests.length) return '';
        const r = await sandbox.judge({ code: c, entryPoint: p.entryPoint, tests, timeoutMs: o.timeoutMs, setupCode: p.setupCode });
        return r.verdicts.map((v) => (r.compileError === undefined && v.status === 'passed' ? '1' : '0')).join('');
      }),
    );
    let best = 0;
    let bestScore = -1;
    sigs.forEach((s, i) => {
      const score = (s.split('1').length - 1) * sigs.filter((x) => x === s).length;
      if (score > bestScore) {
        bestScore = score;
        best = i;
      }
    });
    if (passSampled[pi * n + best]) selected++;
    progress('selection', pi + 1, problems.length);
  }

  const P = Math.max(1, problems.length);
  const passAtK = (100 * refAllValid) / P;
  const mutAtK = numMutants ? (100 * killed) / numMutants : 0;
  return {
    split,
    problems: problems.length,
    coderPass1: passSampled.length ? passSampled.filter(Boolean).length / passSampled.length : 0,
    coderPass1Greedy: passGreedy.filter(Boolean).length / P,
    selectedPass1: selected / P,
    testerValidity: total ? valid / total : 0,
    mutationScore: numMutants ? killed / numMutants : 0,
    passAtK,
    mutAtK,
    mul: (passAtK * mutAtK) / 100,
  };
}
