// The prompt templates for the Coder and the Tester: used verbatim by the trainer, evaluation and warm-start corpora.
//
// HumanEval style: the Coder's prompt is the problem (signature + docstring) and its completion is the function
// body, so a candidate program is `problem prompt + completion` and the model never has to copy the signature.
// The Tester sees that whole candidate program (white-box), which already contains the problem.
import { SPECIAL_TOKENS as S } from '../model/special-tokens';

/** Coder input: the HumanEval-style prompt; the completion is the function body, then `<|end|>`. */
export function coderPrompt(problemPrompt: string): string {
  return `${S.coder}${problemPrompt.trimEnd()}\n`;
}

/** The candidate program built from the problem prompt and a Coder completion (a function body). */
export function candidateProgram(problemPrompt: string, body: string): string {
  return `${problemPrompt.trimEnd()}\n${body.replace(/^\n+/, '').trimEnd()}\n`;
}

/**
 * The body of a complete solution (everything after its first top-level `def` line), for corpora built from
 * reference styles and mutants. Lines before the def (imports) are kept in front of the body, indented, so they
 * still run inside the function.
 */
export function solutionBody(code: string): string {
  const lines = code.replace(/\s+$/, '').split('\n');
  const def = lines.findIndex((l) => /^def\s/.test(l));
  if (def < 0) return code;
  let end = def;
  // A multi-line signature ends at the line whose last non-space character is ':'.
  while (end < lines.length - 1 && !/:\s*$/.test(lines[end])) end++;
  const pre = lines
    .slice(0, def)
    .filter((l) => l.trim())
    .map((l) => `    ${l.trim()}`);
  return [...pre, ...lines.slice(end + 1)].join('\n');
}

/** Tester input (white-box): the candidate program (problem included); the completion is K assert lines + `<|end|>`. */
export function testerPrompt(candidate: string, k: number): string {
  return `${S.tester}${candidate.trimEnd()}\n${S.tests}# ${k} tests\n`;
}

/** A warm-start / SFT completion: the target text followed by the end marker. */
export function completionTarget(text: string): string {
  return `${text.trimEnd()}\n${S.end}`;
}

/** Strips the end marker and anything after it from a sampled completion. */
export function cleanCompletion(text: string): string {
  const i = text.indexOf(S.end);
  return (i >= 0 ? text.slice(0, i) : text).trimEnd();
}
