// Prompt templates: body extraction from full solutions and the candidate program the Tester sees.
import { describe, expect, it } from 'vitest';
import { candidateProgram, coderPrompt, solutionBody, testerPrompt } from './prompts';

const prompt = 'def f(xs: list[int]) -> int:\n    """Sum.\n    >>> f([1])\n    1\n    """\n';

describe('prompts', () => {
  it('takes the body after the def line, also for multi-line signatures and imports', () => {
    expect(solutionBody('def f(xs):\n    return sum(xs)\n')).toBe('    return sum(xs)');
    expect(solutionBody('import math\n\ndef f(\n    xs,\n) -> int:\n    return math.prod(xs)')).toBe(
      '    import math\n    return math.prod(xs)',
    );
  });

  it('rebuilds a runnable candidate from the prompt and a body', () => {
    const code = candidateProgram(prompt, solutionBody('def f(xs):\n    return sum(xs)'));
    expect(code).toBe(prompt + '    return sum(xs)\n');
    expect(coderPrompt(prompt).endsWith('"""\n')).toBe(true);
    expect(testerPrompt(code, 4)).toContain('return sum(xs)\n<|tests|># 4 tests\n');
  });
});
