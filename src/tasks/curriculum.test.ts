// The generated curriculum's shape: families, counts, determinism, HumanEval-style prompts, tests, splits.
import { describe, expect, it } from 'vitest';
import { FAMILIES } from './families/index';
import { HELDOUT_FAMILIES, generateCurriculum, generateProblems, instanceFor } from './generate';
import { dict, pyRepr, tuple } from './pyrepr';
import type { BugKind } from './types';

const insts = generateCurriculum();
const problems = insts.map((i) => i.problem);

describe('curriculum', () => {
  it('has >= 40 families over all five categories, including ThreeSum', () => {
    console.log(`${FAMILIES.length} families, ${problems.length} problems`);
    expect(FAMILIES.length).toBeGreaterThanOrEqual(40);
    expect(new Set(FAMILIES.map((f) => f.category))).toEqual(
      new Set(['lists', 'strings', 'numbers', 'dicts', 'sorting']),
    );
    expect(FAMILIES.map((f) => f.name)).toContain('three_sum');
    expect(new Set(FAMILIES.map((f) => f.name)).size).toBe(FAMILIES.length);
    for (const f of FAMILIES) {
      expect(f.styleCount, f.name).toBeGreaterThanOrEqual(2);
      expect(f.mutantCount, f.name).toBeGreaterThanOrEqual(3);
    }
  });

  it('yields >= 2000 distinct problems with unique ids', () => {
    expect(problems.length).toBeGreaterThanOrEqual(2000);
    expect(new Set(problems.map((p) => p.id)).size).toBe(problems.length);
    expect(new Set(problems.map((p) => p.prompt)).size).toBe(problems.length);
  });

  it('is deterministic from the seed, and another seed gives other problems', () => {
    const again = generateProblems({ families: ['caesar_shift', 'three_sum'] });
    expect(again).toEqual(problems.filter((p) => p.family === 'three_sum' || p.family === 'caesar_shift'));
    expect(instanceFor('three_sum/0005').mutants).toEqual(
      insts.find((i) => i.problem.id === 'three_sum/0005')?.mutants,
    );
    expect(() => instanceFor('three_sum/9999')).toThrow(/no generated problem/);
    const other = generateProblems({ seed: 7, families: ['three_sum'] });
    expect(other.map((p) => p.hiddenTests)).not.toEqual(
      again.filter((p) => p.family === 'three_sum').map((p) => p.hiddenTests),
    );
  });

  it('problems have the HumanEval shape: def + docstring with examples, >= 20 hidden asserts, public tests', () => {
    for (const p of problems) {
      const e = p.entryPoint;
      expect(p.prompt.startsWith(`def ${e}(`), p.id).toBe(true);
      expect(p.prompt.trimEnd().endsWith('"""'), p.id).toBe(true);
      const examples = p.prompt.split('\n').filter((l) => l.trim().startsWith(`>>> ${e}(`));
      expect(examples.length, p.id).toBeGreaterThanOrEqual(1);
      expect(examples.length, p.id).toBeLessThanOrEqual(2);
      expect(p.publicTests.length, p.id).toBe(examples.length);
      expect(p.hiddenTests.length, p.id).toBeGreaterThanOrEqual(20);
      expect(new Set(p.hiddenTests).size, p.id).toBe(p.hiddenTests.length);
      for (const t of [...p.hiddenTests, ...p.publicTests])
        expect(t.startsWith(`assert ${e}(`) && t.includes(') == '), t).toBe(true);
      expect(p.solution.startsWith(p.prompt.split('\n')[0]), p.id).toBe(true);
      expect(p.source).toBe('generated');
      // Short enough for tiny models: a few prompt lines, a reference of at most ~10 lines.
      expect(p.prompt.split('\n').length, p.id).toBeLessThanOrEqual(10);
      expect(p.solution.trimEnd().split('\n').length, p.id).toBeLessThanOrEqual(11);
    }
  });

  it('hidden tests include edge cases: an empty input wherever the family takes a list or string', () => {
    for (const p of problems) {
      const takesSeq = /\((nums|items|changes|words|s|a): (list|str)/.test(p.prompt);
      if (takesSeq)
        expect(
          p.hiddenTests.some(
            (t) =>
              t.includes(`${p.entryPoint}([])`) ||
              t.includes(`${p.entryPoint}('')`) ||
              t.includes(`${p.entryPoint}([], `) ||
              t.includes(`${p.entryPoint}('', `),
          ),
          p.id,
        ).toBe(true);
    }
  });

  it('mutants are instantiated per problem, differ from every style, and cover the five bug kinds', () => {
    const kinds = new Set<BugKind>();
    for (const i of insts) {
      for (const m of i.mutants) {
        expect(m.problemId).toBe(i.problem.id);
        expect(i.styles, m.id).not.toContain(m.code);
        kinds.add(m.kind);
      }
      expect(i.problem.solution).toBe(i.styles[0]);
    }
    for (const k of [
      'off-by-one',
      'wrong-comparison',
      'missed-edge-case',
      'duplicates',
      'wrong-initial-value',
    ] as const)
      expect(kinds).toContain(k);
  });

  it('splits: train, held-out by instance, and >= 5 families held out whole', () => {
    const by = (s: string) => problems.filter((p) => p.split === s);
    const heldFamilies = new Set(by('heldout-family').map((p) => p.family));
    console.log(
      `train ${by('train').length}, renamed ${by('renamed').length}, heldout-family ${by('heldout-family').length} (${[...heldFamilies].join(', ')})`,
    );
    expect(heldFamilies.size).toBeGreaterThanOrEqual(5);
    expect([...heldFamilies].sort()).toEqual([...HELDOUT_FAMILIES].sort());
    for (const p of by('train').concat(by('renamed'))) expect(heldFamilies.has(p.family)).toBe(false);
    const share = by('renamed').length / (by('train').length + by('renamed').length);
    expect(share).toBeGreaterThan(0.15);
    expect(share).toBeLessThan(0.25);
    // Every training family also has held-out instances.
    for (const f of FAMILIES.filter((x) => !heldFamilies.has(x.name)))
      expect(
        by('renamed').some((p) => p.family === f.name),
        f.name,
      ).toBe(true);
  });
});

describe('python repr', () => {
  it('writes Python literals', () => {
    expect(pyRepr([1, -2, [3]])).toBe('[1, -2, [3]]');
    expect(pyRepr("it's")).toBe('"it\'s"');
    expect(pyRepr('a\'b"c\\')).toBe("'a\\'b\"c\\\\'");
    expect(pyRepr(tuple(1))).toBe('(1,)');
    expect(pyRepr(tuple(1, 'x'))).toBe("(1, 'x')");
    expect(
      pyRepr(
        dict([
          ['a', null],
          [2, true],
        ]),
      ),
    ).toBe("{'a': None, 2: True}");
    expect(() => pyRepr(0.5)).toThrow(/non-integer/);
  });
});
