// The warm-start's families: a list in place of the preset's (known names, not only held-out ones), and extra
// families that are known, new to the preset and never its held-out family.
import { describe, expect, it } from 'vitest';
import { extraFamilies, presetFamilies } from './pretrain-families';
import { loadCurriculum } from '../run/lab-setup';
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

describe('presetFamilies', () => {
  const preset = presetConfig('tiny').tasks.families;

  it("is the preset's list without the flag, else the named families in order, each once", () => {
    expect(presetFamilies(undefined, preset)).toEqual(preset);
    expect(presetFamilies('fizz_label, is_power_of,fizz_label', preset)).toEqual(['fizz_label', 'is_power_of']);
  });

  it('refuses unknown names, an empty list and a list of held-out families only, each with the reason', () => {
    expect(() => presetFamilies('fizz_labl', preset)).toThrow(/unknown family "fizz_labl"/);
    expect(() => presetFamilies(true, preset)).toThrow(/needs a comma-separated family list/);
    expect(() => presetFamilies('reverse_integer,caesar_shift', preset)).toThrow(/only held-out families/);
    expect(presetFamilies('reverse_integer,digit_sum', preset)).toEqual(['reverse_integer', 'digit_sum']);
  });
});
