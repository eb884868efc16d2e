// Warm-start corpora for the Coder and the Tester, built with exactly the trainer's prompt templates.
import type { BugKind } from '../tasks/types';
import type { Sandbox } from '../sandbox/types';
import { candidateProgram, coderPrompt, completionTarget, solutionBody, testerPrompt } from './prompts';
import type { Instance } from '../tasks/family';
import { Rng } from '../tasks/rng';

export interface CorpusExample {
  prompt: string;
  completion: string;
  meta: {
    problemId: string;
    /** The code shown or produced: a correct style or a bug mutant. */
    source: 'style' | 'mutant';
    kind?: BugKind;
    /** Tester only: how many of the K asserts fail the candidate (inputs where it differs from the reference). */
    aimed?: number;
  };
}

export interface CoderCorpusOptions {
  seed?: number;
  /** Share of targets that are bug mutants instead of correct solutions, so RL has room to improve. */
  bugRate?: number;
  samplesPerProblem?: number;
}

/** coderPrompt(problem) → completionTarget(body of a solution): a correct style, or a mutant with probability bugRate. */
export function buildCoderCorpus(insts: readonly Instance[], opts: CoderCorpusOptions = {}): CorpusExample[] {
  const seed = opts.seed ?? 1;
  const bugRate = opts.bugRate ?? 0.2;
  const out: CorpusExample[] = [];
  for (const inst of insts) {
    for (let s = 0; s < (opts.samplesPerProblem ?? 1); s++) {
      const r = Rng.from(seed, 'coder', inst.problem.id, s);
      const buggy = r.next() < bugRate;
      const mutant = buggy ? r.pick(inst.mutants) : undefined;
      const code = mutant ? mutant.code : r.pick(inst.styles);
      out.push({
        prompt: coderPrompt(inst.problem.prompt),
        completion: completionTarget(solutionBody(code)),
        meta: { problemId: inst.problem.id, source: mutant ? 'mutant' : 'style', kind: mutant?.kind },
      });
    }
  }
  return out;
}

export interface TesterCorpusOptions {
  seed?: number;
  /** Asserts per completion (the trainer's K). */
  k?: number;
  /** Share of candidates that are mutants (the rest are correct styles, answered with generic tests only). */
  candidateBugRate?: number;
  /** Share of the K asserts aimed at the candidate's bug, when it has one that the probe inputs reveal. */
  aimedFraction?: number;
  /** Probe inputs per problem (edge cases first, then random) from which the asserts are drawn. */
  poolSize?: number;
  samplesPerProblem?: number;
  timeoutMs?: number;
}

/** Edge-case inputs then fresh random inputs, as reference asserts, deduplicated. */
export function probeAsserts(inst: Instance, seed: number, poolSize: number): string[] {
  const out = new Set(inst.edgeArgs.map((a) => inst.assertFor(a)));
  const r = Rng.from(seed, 'probe', inst.problem.id);
  for (let tries = 0; out.size < poolSize && tries < poolSize * 10; tries++)
    out.add(inst.assertFor(inst.randomArgs(r)));
  return [...out];
}

/**
 * testerPrompt(candidate program, K) → K assert lines whose expected values come from the reference.
 * The candidate is judged on the probe asserts in the sandbox; the ones it fails are the inputs on which it differs
 * from the reference, and about aimedFraction·K of the lines are drawn from them, the rest from generic inputs.
 */
export async function buildTesterCorpus(
  sandbox: Sandbox,
  insts: readonly Instance[],
  opts: TesterCorpusOptions = {},
): Promise<CorpusExample[]> {
  const seed = opts.seed ?? 1;
  const k = opts.k ?? 8;
  const bugRate = opts.candidateBugRate ?? 0.75;
  const aimedFraction = opts.aimedFraction ?? 0.5;
  const poolSize = Math.max(opts.poolSize ?? 24, k);
  const jobs = insts.flatMap((inst) =>
    Array.from({ length: opts.samplesPerProblem ?? 1 }, async (_, s): Promise<CorpusExample> => {
      const r = Rng.from(seed, 'tester', inst.problem.id, s);
      const mutant = r.next() < bugRate ? r.pick(inst.mutants) : undefined;
      const code = mutant ? mutant.code : r.pick(inst.styles);
      const pool = probeAsserts(inst, seed, poolSize);
      const res = await sandbox.judge({
        code,
        entryPoint: inst.problem.entryPoint,
        tests: pool,
        timeoutMs: opts.timeoutMs ?? 2000,
      });
      const failing = pool.filter((_, i) => res.verdicts[i]?.status !== 'passed');
      const passing = pool.filter((_, i) => res.verdicts[i]?.status === 'passed');
      const nAim = failing.length ? Math.min(failing.length, Math.max(1, Math.round(k * aimedFraction))) : 0;
      const aimed = r.shuffle(failing).slice(0, nAim);
      const generic = r.shuffle(passing).slice(0, k - nAim);
      // Top up from the remaining failing inputs if the generic pool ran short.
      const rest = failing.filter((t) => !aimed.includes(t)).slice(0, k - aimed.length - generic.length);
      const lines = r.shuffle([...aimed, ...generic, ...rest]);
      return {
        prompt: testerPrompt(candidateProgram(inst.problem.prompt, solutionBody(code)), k),
        completion: completionTarget(lines.join('\n')),
        meta: {
          problemId: inst.problem.id,
          source: mutant ? 'mutant' : 'style',
          kind: mutant?.kind,
          aimed: lines.filter((l) => failing.includes(l)).length,
        },
      };
    }),
  );
  return Promise.all(jobs);
}

/** One JSON object per line. */
export function toJsonl(examples: readonly CorpusExample[]): string {
  return examples.map((e) => JSON.stringify(e)).join('\n') + (examples.length ? '\n' : '');
}
