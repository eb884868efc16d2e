// Replacing a curriculum's hidden tests for training with those of a HumanEval/MBPP JSONL file (e.g. the suites
// `npm run tasks -- evolve` writes): each record's task id names a training problem; its asserts become that
// problem's hidden tests, which golden mode rewards against (and TCS measures its buffer with). Held-out problems keep
// their own tests, so evaluations stay comparable across runs.
import { importJsonl } from './importers';
import type { Problem } from './types';

export interface HiddenTestsOverride {
  /** Training problems in their original order, those named by the file with its tests. */
  problems: Problem[];
  /** Ids of the problems whose hidden tests were replaced, in file order. */
  replaced: string[];
}

const MAX_LISTED = 5;

function listed(xs: string[]): string {
  return xs.length > MAX_LISTED ? `${xs.slice(0, MAX_LISTED).join('; ')}; … (${xs.length} in all)` : xs.join('; ');
}

/**
 * Replaces the hidden tests of the training problems that `text` (JSONL) names. Throws one error listing every bad
 * line: malformed records, ids that are not training problems (held-out ones named as such), repeated ids, a
 * different entry point, no assert line. `heldout` holds the held-out problems, only to say why their ids are refused.
 */
export function replaceHiddenTests(
  train: readonly Problem[],
  text: string,
  heldout: readonly Problem[] = [],
): HiddenTestsOverride {
  const { items, errors } = importJsonl(text);
  const problems: string[] = errors.map((e) => e.message);
  const byId = new Map(train.map((p) => [p.id, p]));
  const heldoutIds = new Set(heldout.map((p) => p.id));
  const tests = new Map<string, string[]>();
  for (const it of items) {
    // MBPP records get an "MBPP/" prefix from the importer; the curriculum's ids are the task ids as written.
    const bare = it.problem.id.replace(/^MBPP\//, '');
    const id = it.format === 'mbpp' && !byId.has(it.problem.id) ? bare : it.problem.id;
    const where = `line ${it.line}`;
    const p = byId.get(id);
    if (!p) {
      if (heldoutIds.has(id))
        problems.push(`${where}: '${id}' is a held-out problem (evaluation keeps its own hidden tests)`);
      else
        problems.push(
          `${where}: unknown task id '${id}' (not a training problem of this curriculum${train.length ? `, e.g. '${train[0].id}'` : ''})`,
        );
      continue;
    }
    if (tests.has(id)) {
      problems.push(`${where}: task id '${id}' appears twice`);
      continue;
    }
    if (it.problem.entryPoint !== p.entryPoint) {
      problems.push(`${where}: '${id}' calls ${it.problem.entryPoint}, the curriculum's problem is ${p.entryPoint}`);
      continue;
    }
    if (!it.problem.hiddenTests.length) {
      problems.push(`${where}: '${id}' has no \`assert ${p.entryPoint}(...) == ...\` test`);
      continue;
    }
    tests.set(id, it.problem.hiddenTests);
  }
  if (!items.length && !errors.length) problems.push('no records (an empty file)');
  if (problems.length) throw new Error(`hidden tests: ${problems.length} bad line(s): ${listed(problems)}`);
  return {
    problems: train.map((p) => {
      const t = tests.get(p.id);
      return t ? { ...p, hiddenTests: [...t] } : p;
    }),
    replaced: [...tests.keys()],
  };
}
