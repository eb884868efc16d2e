// Behaviourally, too, no held-out task is a training task: through the real Pyodide sandbox, no training instance's
// reference solution (one per training task, of every family with held-out tasks) passes every hidden test of a
// held-out instance of its family. Only the task identity (generate.ts taskOf) says they differ; this says the hidden
// tests see the difference, so a model that memorised a training task cannot pass a held-out one with it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeSandbox } from '../sandbox/node';
import type { SandboxPool } from '../sandbox/pool';
import { splitAssert } from '../sandbox/split';
import { generateCurriculum, generateHeldoutTasks, taskOf } from './generate';
import type { Problem } from './types';
import { sampleByFamily } from './verify';

// Every held-out instance of count_chars_in (where parameters that differ can agree on every hidden test: the
// generator skips those) and PER_FAMILY of every other family keep this near a minute here;
// HELDOUT_CHECK_PER_FAMILY=99 checks all 152 (about 3 minutes).
const PER_FAMILY = Number(process.env.HELDOUT_CHECK_PER_FAMILY ?? 2);

/** The program defining every reference as `_r<i>` and the entry point dispatching on `_which`. */
function dispatcher(entry: string, refs: readonly Problem[]): string {
  const defs = refs.map((p, i) => p.solution.replace(new RegExp(`\\b${p.entryPoint}\\b`, 'g'), `_r${i}`));
  return `${defs.join('\n')}\n_REFS = [${refs.map((_, i) => `_r${i}`).join(', ')}]\n\ndef ${entry}(*args, _which):\n    return _REFS[_which](*args)\n`;
}

/** Each hidden test once per reference: `assert f(args) == x` becomes `assert f(args, _which=i) == x`. */
function perReference(tests: readonly string[], refs: number): string[][] {
  return Array.from({ length: refs }, (_, i) =>
    tests.map((t) => {
      const [call, expected] = splitAssert(t)!;
      const args = call.slice(call.indexOf('(') + 1, -1).trim();
      return `assert ${call.slice(0, call.indexOf('('))}(${args ? `${args}, ` : ''}_which=${i}) == ${expected}`;
    }),
  );
}

/** Which references (indices) pass every hidden test of `held`: one job per CHUNK references (a job has a wall limit). */
const CHUNK = 8;
async function passingAll(sandbox: SandboxPool, held: Problem, refs: readonly Problem[]): Promise<number[]> {
  const n = held.hiddenTests.length;
  const out: number[] = [];
  for (let at = 0; at < refs.length; at += CHUNK) {
    const part = refs.slice(at, at + CHUNK);
    const r = await sandbox.judge({
      code: dispatcher(held.entryPoint, part),
      entryPoint: held.entryPoint,
      tests: perReference(held.hiddenTests, part.length).flat(),
      // Generous: on a loaded machine defining eight references can outlast the default second.
      timeoutMs: 5000,
    });
    expect(r.compileError, held.id).toBeUndefined();
    part.forEach((_, i) => {
      if (r.verdicts.slice(i * n, (i + 1) * n).every((v) => v.status === 'passed')) out.push(at + i);
    });
  }
  return out;
}

describe('held-out tasks against the training references, in the sandbox', () => {
  let sandbox: SandboxPool;
  beforeAll(async () => {
    sandbox = createNodeSandbox({ size: 2 });
    await sandbox.warm();
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('no training reference passes every hidden test of a held-out instance (every family with held-out tasks)', async () => {
    const all = generateHeldoutTasks();
    const held = [
      ...all.filter((i) => i.problem.family === 'count_chars_in'),
      ...sampleByFamily(
        all.filter((i) => i.problem.family !== 'count_chars_in'),
        PER_FAMILY,
      ),
    ].map((i) => i.problem);
    const families = [...new Set(held.map((p) => p.family))];
    const train = generateCurriculum({ families }).filter((i) => i.problem.split === 'train');
    // One reference per training task (instances of a task differ only in the function name).
    const refsOf = new Map<string, Problem[]>();
    const seen = new Set<string>();
    for (const { problem: p } of train) {
      if (seen.has(taskOf(p.id))) continue;
      seen.add(taskOf(p.id));
      refsOf.set(p.family, [...(refsOf.get(p.family) ?? []), p]);
    }
    const t0 = performance.now();
    const found = await Promise.all(
      held.map(async (h) => (await passingAll(sandbox, h, refsOf.get(h.family)!)).map((i) => refsOf.get(h.family)![i])),
    );
    const pairs = held.reduce((a, h) => a + refsOf.get(h.family)!.length, 0);
    console.log(
      `${held.length} held-out instances × their family's training tasks: ${pairs} pairs in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    const same = held.flatMap((h, k) =>
      found[k].map((p) => `${h.id} (${taskOf(h.id)}) passed by ${p.id} (${taskOf(p.id)})`),
    );
    expect(same).toEqual([]);
    // The check can see a shared task: a held-out instance's own reference under another name passes its tests.
    const h = held[0];
    const twin = {
      ...h,
      id: 'twin',
      entryPoint: 'twin',
      solution: h.solution.replace(new RegExp(`\\b${h.entryPoint}\\b`, 'g'), 'twin'),
    };
    expect(await passingAll(sandbox, h, [...refsOf.get(h.family)!.slice(0, 2), twin])).toEqual([2]);
  }, 240_000);
});
