// The prompt templates for the Coder and the Tester: used verbatim by the trainer, evaluation and warm-start corpora.
import { SPECIAL_TOKENS as S } from '../model/special-tokens';

/** Coder input: the HumanEval-style prompt; the completion is the whole function, then `<|end|>`. */
export function coderPrompt(problemPrompt: string): string {
  return `${S.coder}${problemPrompt.trimEnd()}\n${S.code}`;
}

/** Tester input (white-box): the problem and the candidate; the completion is K assert lines, then `<|end|>`. */
export function testerPrompt(problemPrompt: string, candidateCode: string, k: number): string {
  return `${S.tester}${problemPrompt.trimEnd()}\n${S.code}${candidateCode.trimEnd()}\n${S.tests}# ${k} tests\n`;
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
