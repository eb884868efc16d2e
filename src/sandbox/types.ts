// The sandbox's typed contract: judge requests and per-test verdicts, extraction and ground-truth validation.
export type TestStatus = 'passed' | 'failed' | 'error' | 'timeout';

export interface TestVerdict {
  status: TestStatus;
  /** For `error`: the Python exception type (e.g. "ZeroDivisionError", "MemoryError", "RecursionError"). */
  errorType?: string;
  message?: string;
}

export interface JudgeRequest {
  /** Candidate source: must define `entryPoint`. */
  code: string;
  entryPoint: string;
  /** Each an `assert <call> == <expected>` statement. */
  tests: string[];
  /** Per-test wall-clock budget; default 1000 ms. */
  timeoutMs?: number;
  setupCode?: string;
  /**
   * Stop at the first test that times out: the tests after it are not run (verdict `error`, errorType `NotRun`).
   * For callers that only ask whether every test passed (the evaluation): a wrong program that loops forever then
   * costs one time limit, not one per test, and the answer is the same.
   */
  stopAtTimeout?: boolean;
  /**
   * The tests come from a dataset (trusted text, never Tester output): their Python-evaluated arguments and expected
   * values may then be evaluated in one shared interpreter. Otherwise (the default) each such test gets a fresh
   * interpreter of its own, so no test's code runs where another test's values are made. Tests JS reads as literals
   * need no interpreter either way.
   */
  trustedTests?: boolean;
}

export interface JudgeResult {
  /** Set when the candidate does not compile or fails at import/definition time; then every verdict is `error`. */
  compileError?: string;
  verdicts: TestVerdict[];
  /** Captured output, capped. */
  stdout: string;
  stderr: string;
  durationMs: number;
}

export interface ExtractedTest {
  /** Normalised by ast.unparse: `assert f(1, 2) == 3`. */
  text: string;
  /** The call expression, `f(1, 2)`. */
  call: string;
  /** The expected expression, `3`. */
  expected: string;
}

export interface RejectedLine {
  line: string;
  reason: string;
}

export interface Extraction {
  tests: ExtractedTest[];
  rejected: RejectedLine[];
  /** Set when extraction did not finish (timeout, crash): then every line is in `rejected` with this reason. */
  failed?: string;
}

export interface ValidatedTest extends ExtractedTest {
  /** The call ran on the ground truth without raising (within the timeout). */
  callOk: boolean;
  /** callOk and `expected` equals the ground-truth output. */
  valid: boolean;
  /** repr() of the ground-truth output when callOk: a Python literal usable as an expected value. */
  gtOutput?: string;
  /**
   * When callOk: the call with the argument values the ground truth received written as literals (`f([1, 2], k=3)`).
   * Arguments are data: a test judged later runs this, never `call` again, so an argument that used time or
   * randomness is the same value for the ground truth and for every candidate.
   */
  callLiteral?: string;
  /** Why it is invalid. */
  reason?: string;
}

/**
 * Execution-only outcome of running a program on one input (no expected value, no ground truth): `ok` it returned,
 * `exception` it raised, `timeout` it ran past the budget, `crash` it took the worker down (memory, hard exit);
 * `bad-input` the input itself could not be evaluated (its arguments raised), which says nothing about the program.
 */
export type ExecStatus = 'ok' | 'exception' | 'timeout' | 'crash' | 'bad-input';

export interface ExecOutcome {
  status: ExecStatus;
  /** Python exception type for `exception` / `bad-input`, the worker's reason for `crash`. */
  errorType?: string;
}

export interface ExecResult {
  /** Set when the program does not compile or fails while being defined; then no input was run. */
  compileError?: string;
  outcomes: ExecOutcome[];
}

/** What the trainer needs from a sandbox; the Pyodide pool implements it in Node and the browser. */
export interface Sandbox {
  judge(req: JudgeRequest): Promise<JudgeResult>;
  /** Parse the tester's raw text with Python's `ast`, keep `assert <call to entryPoint> == <expr>`, dedupe, first K. */
  extract(raw: string, entryPoint: string, k: number): Promise<Extraction>;
  /** Run each test's call on the ground truth; record its output; mark valid/invalid. */
  validate(
    groundTruth: string,
    entryPoint: string,
    tests: ExtractedTest[],
    timeoutMs?: number,
    setupCode?: string,
  ): Promise<ValidatedTest[]>;
  /** Run `code`'s entry point on each call (`f(args...)`) and report how each ended; one judge job, same isolation. */
  execute(code: string, entryPoint: string, calls: string[], timeoutMs?: number): Promise<ExecResult>;
  close(): Promise<void>;
}
