// HumanEval and MBPP through the evaluation's own path (judgeHidden + passedAll, first timeout or crash ends a job):
// every canonical solution passes its converted hidden tests and every `return None` copy fails them; and no assert
// of a check() is lost in the conversion.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createNodeSandbox } from '../sandbox/node';
import type { SandboxPool } from '../sandbox/pool';
import { importJsonl } from '../tasks/importers';
import type { Problem } from '../tasks/types';
import { judgeHidden, passedAll } from './judging';

const fixture = (path: string) => new URL(`../${path}`, import.meta.url);
const humanEval = importJsonl(gunzipSync(readFileSync(fixture('tasks/fixtures/HumanEval.jsonl.gz'))).toString('utf8'));
const mbpp = importJsonl(readFileSync(fixture('sandbox/fixtures/mbpp-mini.jsonl'), 'utf8'));

/** The entry point redefined to return None after the solution (helpers it defines stay). */
const returnsNone = (p: Problem) => `${p.solution}\n\ndef ${p.entryPoint}(*args, **kwargs):\n    return None\n`;

async function judgeAll(sandbox: SandboxPool, problems: Problem[], code: (p: Problem) => string): Promise<string[]> {
  const ok = await Promise.all(
    problems.map(async (p) => passedAll(await judgeHidden(sandbox, p, code(p), 5000, true))),
  );
  return problems.filter((_, i) => ok[i]).map((p) => p.id);
}

describe('HumanEval and MBPP on the evaluation path', () => {
  it('every assert line of every check() is in the hidden tests (vacuous `assert True` aside)', () => {
    const asserts = (text: string) => text.split('\n').filter((l) => /^\s*assert\b(?!\s+True\b)/.test(l)).length;
    const lost = humanEval.items.filter(
      (i) => asserts(i.verify.tests[0]) !== i.problem.hiddenTests.reduce((n, t) => n + asserts(t), 0),
    );
    expect(lost.map((i) => i.problem.id)).toEqual([]);
  });

  it('all 164 canonical HumanEval solutions pass, their return-None copies all fail; MBPP likewise', async () => {
    expect(humanEval.errors).toEqual([]);
    expect(humanEval.items).toHaveLength(164);
    const he = humanEval.items.map((i) => i.problem);
    const mb = mbpp.items.map((i) => i.problem);
    expect(mb.length).toBeGreaterThan(0);
    const sandbox = createNodeSandbox({ size: 2 });
    try {
      const t0 = performance.now();
      const passed = await judgeAll(sandbox, [...he, ...mb], (p) => p.solution);
      const none = await judgeAll(sandbox, [...he, ...mb], returnsNone);
      console.log(
        `${2 * (he.length + mb.length)} programs judged in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
      );
      expect(passed).toHaveLength(he.length + mb.length);
      expect(none).toEqual([]);
    } finally {
      await sandbox.close();
    }
  }, 600_000);
});
