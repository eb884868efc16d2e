// Checks a family's instances through a real Sandbox: correct styles pass every test, each mutant fails some and passes some.
import type { Sandbox } from '../sandbox/types';
import type { Instance } from './family';

export interface InstanceCheck {
  problemId: string;
  /** Human-readable problems found; empty when the instance is sound. */
  failures: string[];
  judged: number;
  /**
   * Mutants that pass every public test (the docstring example) yet fail a hidden one: bugs the example alone cannot
   * see, which only other tests (a Tester's, the hidden ones) can. A family with none gives a Tester little to add.
   */
  exampleEscapes: number;
  mutants: number;
}

export interface CheckOptions {
  timeoutMs?: number;
}

/** Judge every style and every mutant against hidden + public tests (a mutant must fail some hidden test). */
export async function checkInstance(sandbox: Sandbox, inst: Instance, opts: CheckOptions = {}): Promise<InstanceCheck> {
  const p = inst.problem;
  const failures: string[] = [];
  const allTests = [...p.hiddenTests, ...p.publicTests];
  const judge = (code: string, tests: string[]) =>
    sandbox.judge({ code, entryPoint: p.entryPoint, tests, timeoutMs: opts.timeoutMs ?? 2000, setupCode: p.setupCode });
  const [styleResults, mutantResults] = await Promise.all([
    Promise.all(inst.styles.map((code) => judge(code, allTests))),
    Promise.all(inst.mutants.map((m) => judge(m.code, allTests))),
  ]);
  styleResults.forEach((r, i) => {
    if (r.compileError) failures.push(`style ${i}: compile error ${r.compileError}`);
    r.verdicts.forEach((v, j) => {
      if (v.status !== 'passed')
        failures.push(`style ${i}: ${v.status} on ${allTests[j]}${v.message ? ` (${v.message})` : ''}`);
    });
  });
  let exampleEscapes = 0;
  mutantResults.forEach((r, i) => {
    const m = inst.mutants[i];
    if (r.compileError) failures.push(`mutant ${m.id} (${m.kind}): compile error ${r.compileError}`);
    const ok = r.verdicts.map((v) => v.status === 'passed');
    const passed = ok.slice(0, p.hiddenTests.length).filter(Boolean).length;
    if (passed === p.hiddenTests.length) failures.push(`mutant ${m.id} (${m.kind}) passes every hidden test`);
    if (passed === 0) failures.push(`mutant ${m.id} (${m.kind}) fails every hidden test`);
    if (!r.compileError && passed < p.hiddenTests.length && ok.slice(p.hiddenTests.length).every(Boolean))
      exampleEscapes++;
  });
  return {
    problemId: p.id,
    failures,
    judged: inst.styles.length + inst.mutants.length,
    exampleEscapes,
    mutants: inst.mutants.length,
  };
}

/** Check many instances (concurrently: the pool pipelines jobs across its workers). */
export async function checkInstances(
  sandbox: Sandbox,
  insts: readonly Instance[],
  opts: CheckOptions = {},
): Promise<InstanceCheck[]> {
  return Promise.all(insts.map((i) => checkInstance(sandbox, i, opts)));
}

/** Pick `perFamily` instances of each family, spread over its index range (first, last, evenly between). */
export function sampleByFamily(insts: readonly Instance[], perFamily: number): Instance[] {
  const byFamily = new Map<string, Instance[]>();
  for (const i of insts) byFamily.set(i.problem.family, [...(byFamily.get(i.problem.family) ?? []), i]);
  const out: Instance[] = [];
  for (const list of byFamily.values()) {
    const n = Math.min(perFamily, list.length);
    for (let k = 0; k < n; k++) out.push(list[n === 1 ? 0 : Math.round((k * (list.length - 1)) / (n - 1))]);
  }
  return out;
}
