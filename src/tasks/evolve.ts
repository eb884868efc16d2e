// Test-suite evolution (after EvolveCoder): a problem's tests are refined round by round from the execution of a
// fixed pool of candidate solutions. Each round proposes new tests by mutating the literals of the current tests'
// calls (plus any inputs the caller supplies), fills in the reference output, runs every candidate on every test, and
// keeps a greedy cover: tests that separate candidates from the reference, most new separations first, dropping
// tests whose separations others already make. docs/method.md lists the choices.
import type { Sandbox } from '../sandbox/types';
import type { Instance } from './family';
import { Rng } from './rng';
import type { Problem } from './types';

export interface PoolCandidate {
  id: string;
  code: string;
}

export interface EvolvedTest {
  text: string;
  /** Round the test was proposed in (0: the problem's own test). */
  round: number;
  /** Ids of the pool candidates this test fails (separates from the reference) when it was kept. */
  separated: string[];
  /** The test whose call was mutated into this one. */
  parent?: string;
}

export interface EvolveRound {
  round: number;
  proposed: number;
  kept: number;
  passRate: number;
}

export interface EvolveResult {
  problemId: string;
  tests: EvolvedTest[];
  rounds: EvolveRound[];
  /** Share of the pool (reference excluded) passing the whole suite, before and after. */
  passBefore: number;
  passAfter: number;
  sizeBefore: number;
  sizeAfter: number;
  /** Share of tests whose separations the other tests of the suite already make. */
  redundancyBefore: number;
  redundancyAfter: number;
}

const NUM = /(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])/g;
const STR = /'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"/g;
const LIST = /\[[^[\]]*\]/g;

/** Variants of a call with one literal changed: numbers ±1, 0 and negated; strings emptied or doubled; lists emptied
 * or cut to their first element. Deterministic, so a round is reproducible. */
export function mutateCall(call: string): string[] {
  const out = new Set<string>();
  const at = (m: RegExpMatchArray, rep: string) =>
    call.slice(0, m.index) + rep + call.slice((m.index ?? 0) + m[0].length);
  for (const m of call.matchAll(NUM)) {
    const v = Number(m[0]);
    const ints = Number.isInteger(v);
    for (const r of ints ? [v + 1, v - 1, 0, -v] : [v * 2, 0, -v]) out.add(at(m, String(r)));
  }
  for (const m of call.matchAll(STR)) {
    const q = m[0][0];
    out.add(at(m, q + q));
    out.add(at(m, m[0].slice(0, -1) + m[0].slice(1)));
  }
  for (const m of call.matchAll(LIST)) {
    out.add(at(m, '[]'));
    const first = m[0].slice(1, -1).split(',')[0]?.trim();
    if (first) out.add(at(m, `[${first}]`));
  }
  out.delete(call);
  return [...out];
}

function callOf(test: string): string | undefined {
  const m = /^\s*assert\s+(.+?)\s*==\s*(.+)$/.exec(test);
  return m?.[1];
}

/** kills[t] = ids of the candidates failing test t (the reference must pass it, else it is dropped by the caller). */
async function killMatrix(
  sandbox: Sandbox,
  p: Problem,
  pool: PoolCandidate[],
  tests: string[],
  timeoutMs: number,
): Promise<string[][]> {
  const kills: string[][] = tests.map(() => []);
  const runs = await Promise.all(
    pool.map((c) =>
      sandbox.judge({ code: c.code, entryPoint: p.entryPoint, tests, timeoutMs, setupCode: p.setupCode }),
    ),
  );
  runs.forEach((r, ci) =>
    r.verdicts.forEach((v, t) => {
      if (r.compileError !== undefined || v.status !== 'passed') kills[t].push(pool[ci].id);
    }),
  );
  return kills;
}

/** Greedy cover: repeatedly keep the test with the most not-yet-separated candidates (ties: earlier first). */
export function greedyCover(kills: string[][]): number[] {
  const covered = new Set<string>();
  const kept: number[] = [];
  for (;;) {
    let best = -1;
    let gain = 0;
    kills.forEach((k, t) => {
      const g = k.filter((id) => !covered.has(id)).length;
      if (g > gain) [best, gain] = [t, g];
    });
    if (best < 0) return kept.sort((a, b) => a - b);
    kept.push(best);
    kills[best].forEach((id) => covered.add(id));
  }
}

/** Share of tests whose separated candidates are all separated by some other test of the suite. */
export function redundancy(kills: string[][]): number {
  if (!kills.length) return 0;
  const n = kills.filter((k, t) => k.every((id) => kills.some((o, u) => u !== t && o.includes(id)))).length;
  return n / kills.length;
}

function passRate(kills: string[][], pool: PoolCandidate[]): number {
  const dead = new Set(kills.flat());
  return pool.length ? pool.filter((c) => !dead.has(c.id)).length / pool.length : 0;
}

export interface EvolveOptions {
  rounds: number;
  timeoutMs?: number;
  /** Extra proposals per round (e.g. a curriculum family's random inputs), as full `assert` statements. */
  extraProposals?: (round: number) => string[];
  /** Cap on proposals per round (keeps a round bounded). */
  maxProposals?: number;
  onRound?: (r: EvolveRound) => void;
}

/** Evolves `problem.hiddenTests` against `pool` (candidate solutions other than the reference). */
export async function evolveTests(
  sandbox: Sandbox,
  problem: Problem,
  pool: PoolCandidate[],
  o: EvolveOptions,
): Promise<EvolveResult> {
  if (!(Number.isInteger(o.rounds) && o.rounds >= 1))
    throw new Error(`evolve: --rounds must be a positive integer, got ${o.rounds}`);
  const timeoutMs = o.timeoutMs ?? 2000;
  let suite: EvolvedTest[] = problem.hiddenTests.map((text) => ({ text, round: 0, separated: [] }));
  const first = await killMatrix(
    sandbox,
    problem,
    pool,
    suite.map((t) => t.text),
    timeoutMs,
  );
  const before = { pass: passRate(first, pool), size: suite.length, red: redundancy(first) };
  const rounds: EvolveRound[] = [];
  for (let round = 1; round <= o.rounds; round++) {
    const seen = new Set(suite.map((t) => t.text));
    const proposals: EvolvedTest[] = [];
    const calls = suite.flatMap((t) => {
      const c = callOf(t.text);
      return c ? mutateCall(c).map((m) => ({ call: m, parent: t.text })) : [];
    });
    const extra = (o.extraProposals?.(round) ?? []).map((text) => ({ call: callOf(text) ?? '', parent: undefined }));
    const max = o.maxProposals ?? 64;
    const picked = [...extra, ...calls].filter((x) => x.call).slice(0, max);
    // The expected value is always the reference output: a proposal whose call raises on the reference is dropped.
    const validated = await sandbox.validate(
      problem.solution,
      problem.entryPoint,
      picked.map((x) => ({ text: `assert ${x.call} == None`, call: x.call, expected: 'None' })),
      timeoutMs,
      problem.setupCode,
    );
    validated.forEach((v, i) => {
      if (!v.callOk || v.gtOutput === undefined) return;
      const text = `assert ${v.callLiteral ?? v.call} == ${v.gtOutput}`;
      if (seen.has(text)) return;
      seen.add(text);
      proposals.push({ text, round, separated: [], parent: picked[i].parent });
    });
    const all = [...suite, ...proposals];
    const kills = await killMatrix(
      sandbox,
      problem,
      pool,
      all.map((t) => t.text),
      timeoutMs,
    );
    let keep = greedyCover(kills);
    // A suite that separates nothing keeps its first test, so it never ends empty.
    if (!keep.length) keep = [0];
    suite = keep.map((t) => ({ ...all[t], separated: kills[t] }));
    const r = {
      round,
      proposed: proposals.length,
      kept: suite.length,
      passRate: passRate(
        keep.map((t) => kills[t]),
        pool,
      ),
    };
    rounds.push(r);
    o.onRound?.(r);
  }
  const final = suite.map((t) => t.separated);
  return {
    problemId: problem.id,
    tests: suite,
    rounds,
    passBefore: before.pass,
    passAfter: passRate(final, pool),
    sizeBefore: before.size,
    sizeAfter: suite.length,
    redundancyBefore: before.red,
    redundancyAfter: redundancy(final),
  };
}

/** One JSONL record the importers read (HumanEval when the solution extends the prompt, else MBPP), with lineage. */
export function evolvedRecord(p: Problem, r: EvolveResult): Record<string, unknown> {
  const lineage = r.tests.map((t) => ({
    test: t.text,
    round: t.round,
    separated: t.separated,
    ...(t.parent ? { parent: t.parent } : {}),
  }));
  const evolution = {
    rounds: r.rounds,
    pass_before: r.passBefore,
    pass_after: r.passAfter,
    size_before: r.sizeBefore,
    size_after: r.sizeAfter,
    redundancy_before: r.redundancyBefore,
    redundancy_after: r.redundancyAfter,
  };
  if (p.solution.startsWith(p.prompt)) {
    const body = r.tests
      .map((t) => `    ${t.text.replace(new RegExp(`\\b${p.entryPoint}\\s*\\(`, 'g'), 'candidate(')}`)
      .join('\n');
    return {
      task_id: p.id,
      prompt: p.prompt,
      entry_point: p.entryPoint,
      canonical_solution: p.solution.slice(p.prompt.length),
      test: `def check(candidate):\n${body}\n`,
      lineage,
      evolution,
    };
  }
  const text = /"""([\s\S]*?)"""/.exec(p.prompt)?.[1].trim() ?? p.prompt;
  return {
    task_id: p.id,
    text,
    code: p.solution,
    test_list: r.tests.map((t) => t.text),
    test_setup_code: p.setupCode ?? '',
    challenge_test_list: [],
    lineage,
    evolution,
  };
}

const SOURCE_SWAPS: [RegExp, string][] = [
  [/<=/g, '<'],
  [/>=/g, '>'],
  [/(?<![<>=!])<(?![<=])/g, '<='],
  [/(?<![<>=!-])>(?![>=])/g, '>='],
  [/==/g, '!='],
  [/!=/g, '=='],
  [/ \+ 1\b/g, ''],
  [/ - 1\b/g, ''],
  [/\band\b/g, 'or'],
  [/\bor\b/g, 'and'],
  [/\bTrue\b/g, 'False'],
  [/\b0\b/g, '1'],
];

/** A candidate pool for a problem that ships none: single-edit mutants of the reference (one operator or constant
 * changed at one place), at most `max`, in source order. */
export function sourceMutants(solution: string, max = 12): PoolCandidate[] {
  const out: PoolCandidate[] = [];
  for (const [re, rep] of SOURCE_SWAPS) {
    for (const m of solution.matchAll(re)) {
      if (out.length >= max) return out;
      const code = solution.slice(0, m.index) + rep + solution.slice((m.index ?? 0) + m[0].length);
      if (code !== solution && !out.some((c) => c.code === code)) out.push({ id: `edit-${out.length + 1}`, code });
    }
  }
  return out;
}

/** A curriculum instance's pool: its bug mutants and its alternative correct styles (the reference is styles[0]). */
export function curriculumPool(inst: Instance): PoolCandidate[] {
  const styles = inst.styles.slice(1).map((code, i) => ({ id: `${inst.problem.id}/style-${i + 1}`, code }));
  return [...inst.mutants.map((m) => ({ id: m.id, code: m.code })), ...styles];
}

/** Eight fresh inputs per round from the family's own generator (seeded by problem and round: reproducible). */
export function curriculumProposals(inst: Instance): (round: number) => string[] {
  return (round) => {
    const rng = Rng.from(0, inst.problem.id, 'evolve', round);
    return Array.from({ length: 8 }, () => inst.assertFor(inst.randomArgs(rng)));
  };
}
