// A run's eval.jsonl (written by RunSession.evaluate, in the CLI and in the Worker alike) as the lab's eval reports
// (kept tiny so the page can import it cheaply).
import { parseEvalPoints, RUN_FILES, type EvalPoint } from '../../run/run-layout';
import type { EvalReport } from '../store/types';

export function toEvalReports(p: EvalPoint): EvalReport[] {
  return p.rows.map((r) => ({
    step: p.step,
    split: r.split,
    problems: r.problems,
    passAt1: r.coderPass1,
    passAt1Greedy: r.coderPass1Greedy,
    testerValidity: r.testerValidity,
    mutationScore: r.mutationScore,
    codetPassAt1: r.selectedPass1,
    ...(r.ci ? { passAt1CI: r.ci.coderPass1 } : {}),
    seconds: p.seconds,
  }));
}

/** eval.jsonl as reports; a repeated or out-of-order step is an error naming `file` and the line (RecordError). */
export function parseEvalJsonl(text: string, file: string = RUN_FILES.evals): EvalReport[] {
  return parseEvalPoints(text, file).flatMap(toEvalReports);
}
