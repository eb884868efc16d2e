// Prompt formats: the lab's raw format for its tiny models, and the published Code-A1 release's chat prompts for
// instruct models (rendered by the model's own chat template), with code and asserts extracted from the answers the
// way the release does (reward.py extract_code_from_response / extract_testcase_from_response).
import type { Problem } from '../tasks/types';
import { SPECIAL_TOKENS as S } from '../model/special-tokens';
import { candidateProgram, cleanCompletion, coderPrompt, testerPrompt } from './prompts';

// A type alias (not an interface), so a template renderer taking open-ended message objects accepts it.
export type ChatTurn = { role: string; content: string };

/** How one model's prompts are written and its answers read back. */
export interface PromptFormat {
  readonly kind: 'raw' | 'chat';
  /** The Coder's input text for a problem. */
  coderPrompt(p: Problem): string;
  /** The candidate program (what the sandbox runs) from the problem and a Coder completion. */
  candidate(p: Problem, completion: string): string;
  /** The Tester's input text (white-box: the problem and the candidate it should break). */
  testerPrompt(p: Problem, candidate: string, k: number): string;
  /** The text the assert extraction reads, from a Tester completion. */
  testerText(completion: string): string;
  /** Stop strings for sampling (tokens of the model's vocabulary are stop ids instead). */
  stop: string[];
}

/** The lab's own format: `<|coder|>` + problem → function body; `<|tester|>` + program + `<|tests|>` → assert lines. */
export const RAW_FORMAT: PromptFormat = {
  kind: 'raw',
  coderPrompt: (p) => coderPrompt(p.prompt),
  candidate: (p, completion) => candidateProgram(p.prompt, cleanCompletion(completion)),
  testerPrompt: (_p, candidate, k) => testerPrompt(candidate, k),
  testerText: (completion) => cleanCompletion(completion),
  stop: [S.end, S.eos],
};

/** The release's Coder turns (its validation parquet's system and user messages), the question appended. */
export const CODER_SYSTEM = 'You are a helpful code completion assistant.';
export const CODER_INSTRUCTION =
  "Given the following Question, complete the function. Output the complete function inside '```python ... ```' code block, and do not output anything else.\n\nQuestion:\n";
export const TESTER_SYSTEM = 'You are a helpful test case generation assistant.';

export function coderMessages(problemPrompt: string): ChatTurn[] {
  return [
    { role: 'system', content: CODER_SYSTEM },
    { role: 'user', content: CODER_INSTRUCTION + problemPrompt },
  ];
}

/**
 * The release's Tester turns (trainer_a1.py `_prepare_model_b_batch_phase2`, the prompt for a model not SFT-started):
 * the question is the problem prompt (its `clean_description`), the buggy code the Coder's extracted code. The
 * release writes "8" for K; we write K.
 */
export function testerMessages(question: string, code: string, k: number): ChatTurn[] {
  const user = `
# Role
You are specializing in finding specific inputs that cause \`Buggy Code\` to behave differently from the requirements (\`Question\`).

# Task
Generate ${k} assertion-based test cases to detect bugs for the function in \`Buggy Code\` according to the \`Question\`.

# Strategy
1. **Attack Logic Gaps**: Analyze where the \`Buggy Code\` logic might be "too simple" compared to the \`Question\`. Construct input \`parameters\` that hit these blind spots (e.g., missing constraints, misinterpreted rules, over-simplified logic).
2. **Prioritize Complexity**: Prefer complex input \`parameters\` (e.g., boundary values, nested loops, compound conditions, rare branches) over simple ones. Ensure every logical branch is stressed and every potential issue is covered.
3. **Zero Redundancy**: Do not brute-force generating trivial or repetitive tests. Only the first few generated tests will be evaluated, so quality and ordering matter more than quantity.

# Context
Question:
${question}

Buggy Code:
\`\`\`python
${code}
\`\`\`

# Output Format
Output ALL the assert statements inside ONE '\`\`\`python ... \`\`\`' code block.
Format: 'assert function_name(parameters) == answer'
`;
  return [
    { role: 'system', content: TESTER_SYSTEM },
    { role: 'user', content: user },
  ];
}

/**
 * reward.py extract_code_from_response: the first ```python block, else the whole answer, with leading / trailing
 * newlines stripped (an unclosed fence counts as no block). Its second branch, for a plain ``` block, tests whether
 * the text between the first two fences contains a fence, which it never does, so plain blocks fall through to the
 * whole answer there too.
 */
export function extractCode(response: string): string {
  const stripNl = (s: string) => s.replace(/^\n+|\n+$/g, '');
  const py = response.split('```python');
  if (py.length > 1 && py[1].includes('```')) return stripNl(py[1].split('```')[0]);
  return stripNl(response);
}

/**
 * reward.py extract_testcase_from_response: the contents of every ```python … ``` block joined by newlines (its
 * asserts are then parsed line by line, as the release's extract_asserts does in our sandbox); with no block the
 * whole answer, stripped, whose lines starting with `assert` the release keeps.
 */
export function extractTestText(response: string): string {
  const blocks = [...response.matchAll(/```python([\s\S]*?)```/g)].map((m) => m[1]);
  if (blocks.length) return blocks.join('\n');
  return response
    .trim()
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.startsWith('assert'))
    .join('\n');
}

/** The release's format for an instruct model; `render` is the model's chat template (add_generation_prompt on). */
export function chatFormat(render: (messages: ChatTurn[]) => string): PromptFormat {
  return {
    kind: 'chat',
    coderPrompt: (p) => render(coderMessages(p.prompt)),
    candidate: (_p, completion) => `${extractCode(completion)}\n`,
    testerPrompt: (p, candidate, k) => render(testerMessages(p.prompt, candidate.trimEnd(), k)),
    testerText: extractTestText,
    stop: [],
  };
}
