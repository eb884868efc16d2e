// `npm run tasks -- evolve FILE.jsonl|--preset P --rounds R [--problems N] [--out FILE] [--timeout MS]`: evolves each
// problem's test suite from the execution of a candidate pool (src/tasks/evolve.ts) and writes the evolved problems
// as HumanEval/MBPP JSONL with lineage. Pools: a preset's curriculum mutants and alternative correct styles; for a
// FILE, single-edit mutants of each reference solution.
import { readFileSync, writeFileSync } from 'node:fs';
import { parseCli } from './cli-spec';
import { TASKS_EVOLVE_SPEC } from './help/tasks-specs';
import { createNodeSandbox } from '../sandbox/node';
import { importJsonl } from '../tasks/importers';
import {
  curriculumPool,
  curriculumProposals,
  evolveTests,
  evolvedRecord,
  sourceMutants,
  type EvolveResult,
  type PoolCandidate,
} from '../tasks/evolve';
import { loadCurriculum } from '../run/lab-setup';
import { PRESET_NAMES, PRESETS, type PresetName } from '../rl/config';
import { didYouMean } from '../rl/nearest';
import { intArg, UsageError } from './args';
import type { Problem } from '../tasks/types';

interface Job {
  problem: Problem;
  pool: PoolCandidate[];
  extra?: (round: number) => string[];
}

/** `--from public`: start each suite from the problem's public tests (its docstring example) instead of its hidden tests. */
function startingSuite(p: Problem, from: string): Problem {
  if (from === 'hidden') return p;
  if (from === 'public') return { ...p, hiddenTests: p.publicTests };
  throw new UsageError(`--from must be hidden or public, got '${from}'`);
}

function presetJobs(name: string, n: number): Job[] {
  const preset = PRESETS[name as PresetName];
  if (!preset)
    throw new UsageError(
      `unknown preset '${name}'${didYouMean(name, PRESET_NAMES)}; expected one of ${PRESET_NAMES.join(', ')}`,
    );
  const insts = loadCurriculum(preset.tasks.families)
    .instances.filter((i) => i.problem.split === 'train')
    .slice(0, n);
  return insts.map((inst) => ({ problem: inst.problem, pool: curriculumPool(inst), extra: curriculumProposals(inst) }));
}

export async function evolveCommand(argv: string[]): Promise<number> {
  const parsed = parseCli(TASKS_EVOLVE_SPEC, argv);
  if (!parsed) return 0;
  const { args, positional } = parsed;
  const flag = (name: string) => (typeof args[name] === 'string' ? args[name] : undefined);
  const [file] = positional;
  const preset = flag('preset');
  if (!file === !preset || positional.length > 1)
    throw new UsageError(`give one FILE.jsonl or --preset, not both (${TASKS_EVOLVE_SPEC.usage[0]})`);
  const rounds = intArg(args, 'rounds', 2, { min: 1 });
  const nProblems = intArg(args, 'problems', 4, { min: 1 });
  const timeoutMs = intArg(args, 'timeout', 2000, { min: 1 });
  let jobs: Job[];
  if (file) {
    const { items, errors } = importJsonl(readFileSync(file, 'utf8'));
    for (const e of errors) console.log(`skip ${e.message}`);
    jobs = items.slice(0, nProblems).map((it) => ({ problem: it.problem, pool: sourceMutants(it.problem.solution) }));
  } else jobs = presetJobs(preset as string, nProblems);
  const from = flag('from') ?? 'hidden';
  jobs = jobs.map((j) => ({ ...j, problem: startingSuite(j.problem, from) }));
  if (!jobs.length) throw new Error('evolve: no problems to evolve');
  const out = flag('out') ?? `evolved-${preset ?? 'file'}.jsonl`;
  const sandbox = createNodeSandbox();
  const results: EvolveResult[] = [];
  try {
    for (const [i, job] of jobs.entries()) {
      const r = await evolveTests(sandbox, job.problem, job.pool, {
        rounds,
        timeoutMs,
        extraProposals: job.extra,
        onRound: (x) =>
          console.log(
            `[${i + 1}/${jobs.length}] ${job.problem.id} round ${x.round}/${rounds}: ${x.proposed} proposed, ${x.kept} kept, pool pass ${x.passRate.toFixed(2)}`,
          ),
      });
      console.log(
        `${job.problem.id}: pool of ${job.pool.length}, pass ${r.passBefore.toFixed(2)} → ${r.passAfter.toFixed(2)}, ` +
          `suite ${r.sizeBefore} → ${r.sizeAfter}, redundancy ${r.redundancyBefore.toFixed(2)} → ${r.redundancyAfter.toFixed(2)}`,
      );
      results.push(r);
    }
  } finally {
    await sandbox.close();
  }
  writeFileSync(out, jobs.map((j, i) => JSON.stringify(evolvedRecord(j.problem, results[i]))).join('\n') + '\n');
  const mean = (f: (r: EvolveResult) => number) => results.reduce((a, r) => a + f(r), 0) / results.length;
  console.log(
    `${results.length} problems → ${out}: mean pool pass ${mean((r) => r.passBefore).toFixed(3)} → ${mean((r) => r.passAfter).toFixed(3)}, ` +
      `suite ${mean((r) => r.sizeBefore).toFixed(1)} → ${mean((r) => r.sizeAfter).toFixed(1)}, redundancy ${mean((r) => r.redundancyBefore).toFixed(2)} → ${mean((r) => r.redundancyAfter).toFixed(2)}`,
  );
  return 0;
}
