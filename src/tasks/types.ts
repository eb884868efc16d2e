// The Problem type shared by the curriculum, the importers, the sandbox verify command, the trainer and evaluation.
/**
 * heldout: instances whose task (what the function computes, generate.ts taskOf) no training instance poses;
 * renamed: instances held out by instance, most of which pose a training task under another function name;
 * heldout-family: the families never trained on.
 */
export type Split = 'train' | 'heldout' | 'renamed' | 'heldout-family';
export type ProblemSource = 'generated' | 'humaneval' | 'mbpp';

export interface Problem {
  /** Stable id, e.g. "three_sum/0042" or "HumanEval/3". */
  id: string;
  family: string;
  /** HumanEval shape: imports, signature and docstring (with one or two examples); the model continues after it. */
  prompt: string;
  entryPoint: string;
  /** Full ground-truth source (imports + def); used for validation and as the reference solution. */
  solution: string;
  /** EvalPlus-style hidden tests, each one `assert entry(args) == expected` statement. */
  hiddenTests: string[];
  /** The problem's own public tests (the docstring examples), used by the `golden` baseline. */
  publicTests: string[];
  split: Split;
  source: ProblemSource;
  /** Code run before tests (MBPP's test_setup_code). */
  setupCode?: string;
}

export type BugKind =
  'off-by-one' | 'wrong-comparison' | 'missed-edge-case' | 'duplicates' | 'wrong-initial-value' | 'other';

export interface Mutant {
  id: string;
  problemId: string;
  kind: BugKind;
  code: string;
}
