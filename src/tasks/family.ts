// A problem family: a parameterised Python task with a TS mirror of its reference logic, solution styles and mutants.
import type { BugKind, Mutant, Problem, Split } from './types';
import { type Py, pyAssert, pyCall, pyRepr } from './pyrepr';
import { Rng } from './rng';

export type Category = 'lists' | 'strings' | 'numbers' | 'dicts' | 'sorting';

/** A bug mutant: a realistic small edit of a correct solution; `body` gets (params, function name). */
export interface MutantSpec<P> {
  kind: BugKind;
  body: (p: P, fn: string) => string;
}

/**
 * A family's definition. `A` is the argument tuple of the entry point, `P` the instance parameters
 * (constants, thresholds, variants). `ref` mirrors the reference solution in TS so expected values are
 * computed without Python; the sandbox test checks the mirror against the Python styles on every hidden test.
 */
export interface FamilySpec<P, A extends Py[]> {
  name: string;
  category: Category;
  /** Function names an instance may use (the entry point). */
  names: readonly string[];
  params: (r: Rng) => P;
  /**
   * Task variants: parameters outside what `params` draws (so no curriculum instance poses them), drawn only for the
   * held-out split once `params` has no new task to spare (generate.ts). Same styles, tests and mutants.
   */
  variants?: (r: Rng) => P;
  /** Everything after `def name`: `(nums: list[int]) -> int`. */
  sig: (p: P) => string;
  /** One or two docstring sentences (no examples). */
  doc: (p: P) => string;
  /** One or two docstring examples. */
  examples: (p: P) => A[];
  /** Edge-case inputs (empty, duplicates, negatives, boundaries): always among the hidden tests. */
  edge: (p: P) => A[];
  random: (p: P, r: Rng) => A;
  ref: (p: P, ...args: A) => Py;
  /** Correct bodies (indented or not: they are re-indented to 4 spaces). */
  styles: ((p: P, fn: string) => string)[];
  mutants: MutantSpec<P>[];
}

/** One concrete problem plus what the tests and corpora need to go with it. */
export interface Instance {
  problem: Problem;
  /** Complete correct programs (the reference is styles[0]). */
  styles: string[];
  mutants: Mutant[];
  /** Inputs the family considers edge cases for this instance. */
  edgeArgs: Py[][];
  /** The argument tuples of the hidden tests, in their order. */
  hiddenArgs: Py[][];
  /** A fresh random argument tuple. */
  randomArgs: (r: Rng) => Py[];
  /** `assert fn(args) == reference(args)`. */
  assertFor: (args: Py[]) => string;
  /** repr of the reference output. */
  expectedRepr: (args: Py[]) => string;
}

/** What `instantiate` returns: the instance's identity before it is built. */
export interface InstanceSeed {
  key: string;
  task: string;
  make: (id: string, split: Split) => Instance;
}

export interface Family {
  name: string;
  category: Category;
  styleCount: number;
  mutantCount: number;
  /**
   * A parameter key identifying the instance (function name + params), the task it poses (family + params: instances
   * that differ only in the function name pose the same task) and the instance itself.
   */
  instantiate: (seed: number, index: number) => InstanceSeed;
  /** A task variant's instance (FamilySpec.variants), when the family defines variants. */
  instantiateVariant?: (seed: number, index: number) => InstanceSeed;
}

/** Remove the common indentation of a template-literal body and indent it by four spaces. */
export function indentBody(body: string): string {
  const lines = body
    .replace(/^\s*\n/, '')
    .replace(/\s+$/, '')
    .split('\n');
  const ind = Math.min(...lines.filter((l) => l.trim()).map((l) => l.length - l.trimStart().length));
  return lines.map((l) => (l.trim() ? '    ' + l.slice(ind) : '')).join('\n');
}

type Edit<P> = [from: string, to: string] | ((p: P) => [from: string, to: string]);

/**
 * A mutant body written as edits of a correct style (each `from` replaced by its `to`, first occurrence; an edit may
 * depend on the parameters), so the bug reads as a diff and the style's text is not written twice. Throws when an
 * edit's anchor is not in the style.
 */
export function edited<P>(style: (p: P, fn: string) => string, ...edits: Edit<P>[]): (p: P, fn: string) => string {
  return (p, fn) =>
    edits.reduce(
      (body, edit) => {
        const [from, to] = typeof edit === 'function' ? edit(p) : edit;
        if (!body.includes(from)) throw new Error(`mutant edit: ${JSON.stringify(from)} is not in the style it edits`);
        return body.replace(from, to);
      },
      style(p, fn),
    );
}

export const HIDDEN_TESTS_TARGET = 24;

/**
 * Curried so the argument tuple is given explicitly and the parameters are inferred:
 * `defineFamily<[nums: number[]]>()({ ... })`.
 */
export function defineFamily<A extends Py[]>(): <P>(spec: FamilySpec<P, A>) => Family {
  return (spec) => buildFamily(spec);
}

/** Wrap single arguments as one-element argument tuples. */
export function one<T>(xs: readonly T[]): [T][] {
  return xs.map((x): [T] => [x]);
}

function buildFamily<P, A extends Py[]>(spec: FamilySpec<P, A>): Family {
  if (spec.styles.length < 2) throw new Error(`${spec.name}: needs at least 2 solution styles`);
  if (spec.mutants.length < 3) throw new Error(`${spec.name}: needs at least 3 mutants`);
  return {
    name: spec.name,
    category: spec.category,
    styleCount: spec.styles.length,
    mutantCount: spec.mutants.length,
    instantiate: (seed, index) => instantiate(spec.params, seed, index),
    instantiateVariant: spec.variants
      ? (seed, index) => instantiate(spec.variants!, seed, index, 'variant')
      : undefined,
  };

  function instantiate(params: (r: Rng) => P, seed: number, index: number, stream?: string): InstanceSeed {
    // The curriculum's draws keep their RNG stream (stream undefined): variants never shift an existing instance.
    const r = stream ? Rng.from(seed, spec.name, stream, index) : Rng.from(seed, spec.name, index);
    const fn = r.pick(spec.names);
    const p = params(r);
    const key = `${fn}|${JSON.stringify(p)}`;
    const task = `${spec.name}|${JSON.stringify(p)}`;
    const make = (id: string, split: Split): Instance => {
      const header = `def ${fn}${spec.sig(p)}:`;
      const program = (body: string): string => `${header}\n${indentBody(body)}\n`;
      const ref = (args: Py[]): Py => spec.ref(p, ...(args as A));
      const exampleArgs = spec.examples(p);
      const docLines = spec
        .doc(p)
        .split('\n')
        .map((l) => `    ${l}`);
      for (const a of exampleArgs) docLines.push(`    >>> ${pyCall(fn, a)}`, `    ${pyRepr(ref(a))}`);
      const prompt = `${header}\n    """${docLines.join('\n').trimStart()}\n    """\n`;
      // Hidden tests: every edge case, then random inputs until the target count (deduplicated by text).
      const tests = new Map<string, Py[]>();
      const edgeArgs = spec.edge(p);
      // Keyed by the assert's text (deduplicated as before), each with the arguments it calls with.
      for (const a of edgeArgs) {
        const t = pyAssert(fn, a, ref(a));
        if (!tests.has(t)) tests.set(t, a);
      }
      const tr = stream
        ? Rng.from(seed, spec.name, stream, index, 'hidden')
        : Rng.from(seed, spec.name, index, 'hidden');
      for (let tries = 0; tests.size < HIDDEN_TESTS_TARGET && tries < 400; tries++) {
        const a = spec.random(p, tr);
        const t = pyAssert(fn, a, ref(a));
        if (!tests.has(t)) tests.set(t, a);
      }
      const styles = spec.styles.map((s) => program(s(p, fn)));
      const mutants: Mutant[] = spec.mutants.map((m, j) => ({
        id: `${id}#m${j}`,
        problemId: id,
        kind: m.kind,
        code: program(m.body(p, fn)),
      }));
      return {
        problem: {
          id,
          family: spec.name,
          prompt,
          entryPoint: fn,
          solution: styles[0],
          hiddenTests: [...tests.keys()],
          publicTests: exampleArgs.map((a) => pyAssert(fn, a, ref(a))),
          split,
          source: 'generated',
        },
        styles,
        mutants,
        edgeArgs,
        hiddenArgs: [...tests.values()],
        randomArgs: (rr) => spec.random(p, rr),
        assertFor: (args) => pyAssert(fn, args, ref(args)),
        expectedRepr: (args) => pyRepr(ref(args)),
      };
    };
    return { key, task, make };
  }
}
