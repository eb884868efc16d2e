// The warm-start's extra families: known, new to the preset, never its held-out family.
import { describe, expect, it } from 'vitest';
import { extraFamilies } from './pretrain-families';
import { loadCurriculum } from '../rl/lab-setup';
import { presetConfig } from '../rl/config';

const tiny = loadCurriculum(presetConfig('tiny').tasks.families);

describe('extraFamilies', () => {
  it('is empty without the flag and keeps the order of the named families', () => {
    expect(extraFamilies(undefined, tiny)).toEqual([]);
    expect(extraFamilies('digit_sum, is_palindrome,digit_sum', tiny)).toEqual(['digit_sum', 'is_palindrome']);
  });

  it("refuses the preset's held-out family, its training families and unknown names, each with the reason", () => {
    expect(() => extraFamilies('digit_sum,reverse_integer', tiny)).toThrow(/reverse_integer: that family is held out/);
    expect(() => extraFamilies('caesar_shift', tiny)).toThrow(/caesar_shift: that family is held out/);
    expect(() => extraFamilies('acronym', tiny)).toThrow(/acronym: the preset already trains on it/);
    expect(() => extraFamilies('digit_summ', tiny)).toThrow(/unknown family "digit_summ"/);
    expect(() => extraFamilies(true, tiny)).toThrow(/needs a comma-separated family list/);
    expect(() => extraFamilies(' ', tiny)).toThrow(/needs a comma-separated family list/);
  });

  it('adds only training instances of the extra families, none of them held out', () => {
    const extra = loadCurriculum(extraFamilies('digit_sum', tiny)).instances.filter((i) => i.problem.split === 'train');
    expect(extra.length).toBeGreaterThan(10);
    expect(new Set(extra.map((i) => i.problem.family))).toEqual(new Set(['digit_sum']));
  });
});
