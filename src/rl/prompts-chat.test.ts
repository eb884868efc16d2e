// Chat prompts for instruct models: the release's messages rendered by a real chat template (the fixture's Qwen
// template), and code / assert extraction matching reward.py's rules on hand-made answers.
import { describe, expect, it } from 'vitest';
import { loadHfTokenizer } from '../model/hf/tokenizer';
import { dirSource } from '../model/hf/source-node';
import { FIXTURE_ROOT } from '../model/hf/fixtures-node';
import type { Problem } from '../tasks/types';
import { chatFormat, coderMessages, extractCode, extractTestText, RAW_FORMAT, testerMessages } from './prompts-chat';

const problem: Problem = {
  id: 'p/0',
  family: 'p',
  prompt: 'def add(a: int, b: int) -> int:\n    """Sum.\n    >>> add(1, 2)\n    3\n    """\n',
  entryPoint: 'add',
  solution: 'def add(a, b):\n    return a + b\n',
  hiddenTests: [],
  publicTests: [],
  split: 'train',
  source: 'generated',
};

describe('chat prompt format', () => {
  it("extracts code as reward.py's extract_code_from_response", () => {
    expect(extractCode('Sure:\n```python\ndef f():\n    return 1\n```\nDone ```python\nx\n```')).toBe(
      'def f():\n    return 1',
    );
    // A plain fence is not looked into (the release's second branch never fires): the whole answer.
    expect(extractCode('```\n\ndef g(): pass\n\n```')).toBe('```\n\ndef g(): pass\n\n```');
    // An unclosed fence is no block: the whole answer with newlines stripped.
    expect(extractCode('\ndef h():\n    pass\n```python\n')).toBe('def h():\n    pass\n```python');
  });

  it("collects asserts as reward.py's extract_testcase_from_response", () => {
    const two = 'Tests:\n```python\nassert add(1, 2) == 3\n```\ntext\n```python\nx = 4\nassert add(x, 1) == 5\n```';
    expect(extractTestText(two)).toBe('\nassert add(1, 2) == 3\n\n\nx = 4\nassert add(x, 1) == 5\n');
    expect(extractTestText('  assert add(0, 0) == 0\nprint(1)\n assert add(1, 1) == 2 ')).toBe(
      'assert add(0, 0) == 0\nassert add(1, 1) == 2',
    );
  });

  it('renders the release prompts through the model chat template; raw format unchanged', async () => {
    const tok = await loadHfTokenizer(dirSource(`${FIXTURE_ROOT}tokenizer`));
    const fmt = chatFormat((m) => tok.applyChatTemplate(m, { addGenerationPrompt: true }));
    const coder = fmt.coderPrompt(problem);
    expect(coder).toBe(
      `<|im_start|>system\n${coderMessages(problem.prompt)[0].content}<|im_end|>\n<|im_start|>user\n${coderMessages(problem.prompt)[1].content}<|im_end|>\n<|im_start|>assistant\n`,
    );
    expect(coder).toContain("complete function inside '```python ... ```' code block");
    const cand = fmt.candidate(problem, 'Here it is\n```python\ndef add(a, b):\n    return a - b\n```');
    expect(cand).toBe('def add(a, b):\n    return a - b\n');
    const tester = fmt.testerPrompt(problem, cand, 5);
    expect(tester).toContain('Generate 5 assertion-based test cases');
    expect(tester).toContain(
      `Question:\n${problem.prompt}\n\nBuggy Code:\n\`\`\`python\ndef add(a, b):\n    return a - b\n\`\`\``,
    );
    expect(tester.endsWith('<|im_start|>assistant\n')).toBe(true);
    expect(testerMessages('q', 'c', 8)[0].content).toBe('You are a helpful test case generation assistant.');
    expect(RAW_FORMAT.coderPrompt(problem)).toBe(`<|coder|>${problem.prompt.trimEnd()}\n`);
    expect(RAW_FORMAT.candidate(problem, '    return a + b\n<|end|>junk')).toBe(`${problem.prompt}    return a + b\n`);
  });
});
