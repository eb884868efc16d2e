// Plot labels: a run keeps its directory name unless another run shares it, then its parent tells them apart.
import { describe, expect, it } from 'vitest';
import { runLabels } from './run-labels';

describe('runLabels', () => {
  it('uses the directory name when it is unique', () => {
    expect(runLabels(['docs/results-data/disjoint/golden-s1', 'runs/code-a1-s1/'])).toEqual([
      'golden-s1',
      'code-a1-s1',
    ]);
  });

  it('prefixes the parent for names that repeat, and only for those', () => {
    expect(
      runLabels([
        'docs/results-data/disjoint/golden-s1',
        'docs/results-data/disjoint-public/golden-s1',
        'docs/results-data/disjoint/self-play-s1',
      ]),
    ).toEqual(['disjoint/golden-s1', 'disjoint-public/golden-s1', 'self-play-s1']);
  });

  it('refuses the same run twice', () => {
    expect(() => runLabels(['a/golden-s1', 'a/golden-s1/'])).toThrow(/labelled "a\/golden-s1"/);
  });
});
