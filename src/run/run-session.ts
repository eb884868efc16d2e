// One training run in progress, the same for the CLI and the browser Worker: step → commit (checkpoint, metrics,
// rollouts, pruning) → evaluate, run for N steps with pause and step-through. The CLI and the Worker only open the
// platform pieces (GPU, sandbox, storage) and forward its events to a terminal or to the page.
import type { Sandbox } from '../sandbox/types';
import type { TrainConfig } from '../rl/config';
import type { Phase, StepOutput } from '../rl/records';
import type { Policy, PolicyFiles } from '../rl/policy';
import { DEFAULT_EVAL, evalSeed, evalSubset, evaluateSplit, runEvalOptions, type HeldOutSplit } from './eval';
import { modeRules } from '../rl/modes';
import type { RunProblems } from './lab-setup';
import type { RunDir } from './run-store';
import type { EvalPoint } from './run-layout';
import { Trainer } from '../rl/trainer';
import type { StepHooks, TrainerState } from '../rl/trainer-types';

/** What a session trains and evaluates: the run directory, the policies, the sandbox and the problems. */
export interface RunParts extends RunProblems {
  config: TrainConfig;
  dir: RunDir;
  sandbox: Sandbox;
  coder: Policy;
  /** The Tester (the coder itself in self-play). */
  tester: Policy;
}

export interface SessionOptions {
  /**
   * Per-step checkpoint copies kept under checkpoints/, the oldest removed first (latest/ always stays). Default: all
   * of them; the browser keeps a few, its storage being small.
   */
  keepCopies?: number;
}

export interface EvalRequest {
  splits: readonly HeldOutSplit[];
  /** Problems per split, spread over families and fixed by the eval seed (the same before and after training); 0 = all. */
  problems: number;
  /** Coder samples per problem. */
  samples: number;
  /** CodeT selection: one Tester output per Coder sample, which about doubles the cost. */
  selection: boolean;
  onProgress?: (what: string, done: number, total: number) => void;
}

export interface CommittedStep extends StepOutput {
  /** Steps committed so far (this step's metrics.step + 1). */
  step: number;
  /** Bytes of checkpoint files written for this step. */
  bytes: number;
  /** Whether a copy was kept under checkpoints/. */
  keptCopy: boolean;
}

/** What a transport hears from `run`, and when it evaluates. */
export interface RunEvents extends Omit<StepHooks, 'beforePhase' | 'atBoundary'> {
  /** A pause took hold at a phase or micro-batch boundary inside a step; `resume()` goes on from exactly there. */
  onHeld?: () => void;
  /** Step-through: the session waits before this phase until `nextPhase()`. */
  onWaiting?: (phase: Phase) => void;
  onCommitted?: (c: CommittedStep) => void | Promise<void>;
  /** Evaluate after every `evalEvery` steps (and at the start when that step has no evaluation yet); 0 = never. */
  evalEvery?: number;
  evalRequest?: EvalRequest;
  onEval?: (p: EvalPoint) => void | Promise<void>;
}

export class RunSession {
  readonly trainer: Trainer;
  readonly config: TrainConfig;
  private readonly keepCopies: number;
  /** Keep stepping (false after pause/stop: the step in progress finishes and is committed). */
  private wanted = false;
  private active = false;
  private stepThrough = false;
  private gate: (() => void) | null = null;
  private stopReason: Error | null = null;
  /** Paused mid-step: the next phase or micro-batch boundary waits on `holdGate` until resume or stop. */
  private holding = false;
  private holdGate: (() => void) | null = null;

  constructor(
    readonly parts: RunParts,
    state?: TrainerState,
    opts: SessionOptions = {},
  ) {
    const { config, sandbox, coder, tester, trainProblems } = parts;
    this.trainer = new Trainer(config, { sandbox, coder, tester, problems: trainProblems }, state);
    // The completed config (a stored run's missing fields filled in), as the Trainer uses it.
    this.config = this.trainer.config;
    this.keepCopies = opts.keepCopies ?? Infinity;
  }

  get dir(): RunDir {
    return this.parts.dir;
  }

  /** Steps taken so far (the committed step once `commit` returned). */
  get stepsDone(): number {
    return this.trainer.step;
  }

  /** A `run` is in progress (it may be finishing its last step after a pause). */
  get busy(): boolean {
    return this.active;
  }

  /** One training step (not yet committed). Throws TrainingHalted after too many non-finite updates. */
  step(hooks: StepHooks = {}): Promise<StepOutput> {
    return this.trainer.runStep(hooks);
  }

  /** The files of the models this mode saves: the tester only when it is a separate, trained model. */
  async checkpoint(): Promise<{ coder: PolicyFiles; tester?: PolicyFiles }> {
    const coder = await this.parts.coder.save();
    const tester = modeRules(this.config.mode).savesTester ? await this.parts.tester.save() : undefined;
    return { coder, tester };
  }

  /** Whether the step just taken keeps a checkpoint copy: every `checkpoint_every` steps and the last one of a run. */
  keepsCopy(last: boolean): boolean {
    return last || this.trainer.step % this.config.run.checkpoint_every === 0;
  }

  /**
   * Commits the step just taken, so that a crash after this loses nothing: checkpoint + state + metrics line
   * (RunDir.commitStep), then its rollouts; a kept copy prunes the oldest ones. `last`: no further step follows.
   */
  async commit(out: StepOutput, last: boolean): Promise<CommittedStep> {
    const files = await this.checkpoint();
    const keptCopy = this.keepsCopy(last);
    await this.dir.commitStep(this.trainer.state(), out.metrics, files.coder, files.tester, keptCopy);
    await this.dir.writeRollouts(out.metrics.step, out.rollouts);
    if (keptCopy) await this.prune();
    const bytes = [files.coder, files.tester ?? {}].reduce(
      (n, f) => n + Object.values(f).reduce((a, b) => a + b.byteLength, 0),
      0,
    );
    return { ...out, step: this.trainer.step, bytes, keptCopy };
  }

  /** Removes the oldest checkpoint copies beyond `keepCopies`. */
  async prune(): Promise<void> {
    const copies = await this.dir.checkpointCopies();
    for (const d of copies.slice(0, Math.max(0, copies.length - this.keepCopies)))
      await this.dir.removeCheckpointCopy(d);
  }

  /** Evaluates the current models on held-out problems and appends the result to eval.jsonl. */
  async evaluate(r: EvalRequest): Promise<EvalPoint> {
    const t0 = performance.now();
    // Always in this order, whatever order the request names them in.
    const { heldout, renamed, heldoutFamily } = this.parts;
    const pools = (
      [
        ['heldout', heldout],
        ['heldout-family', heldoutFamily],
        ['renamed', renamed],
      ] as const
    )
      .filter(([split]) => r.splits.includes(split))
      .map(([split, pool]) => ({ split, pool }));
    if (pools.every((p) => !p.pool.length))
      throw new Error(`this run's curriculum has no ${r.splits.join(' or ')} problems`);
    const n = r.problems > 0 ? r.problems : Number.MAX_SAFE_INTEGER;
    const { coder, tester, sandbox, mutants } = this.parts;
    const rows = [];
    // Every evaluation draws its own samples (seeded by the run's seed and the step): a start evaluation shared by
    // every run and seed would carry one draw's error into every Δ against the start.
    const seed = evalSeed(this.config.seed, this.trainer.step);
    for (const { split, pool } of pools) {
      if (!pool.length) continue;
      const tests = modeRules(this.config.mode).testerIsCoder ? coder : tester;
      rows.push(
        await evaluateSplit(
          split,
          evalSubset(pool, n, DEFAULT_EVAL.seed),
          mutants,
          coder,
          tests,
          sandbox,
          runEvalOptions(this.config, { samples: r.samples, selection: r.selection, onProgress: r.onProgress, seed }),
        ),
      );
    }
    const step = this.trainer.step;
    const point: EvalPoint = {
      step,
      trainPassRate: await this.trainPassRate(step),
      rows,
      seconds: (performance.now() - t0) / 1000,
    };
    await this.dir.appendEval(point);
    return point;
  }

  /**
   * The training batches' pass rate since the previous evaluation (metrics line s is the step that took the run
   * from s to s + 1), to set beside the held-out one: memorisation shows as a gap.
   */
  private async trainPassRate(step: number): Promise<number | undefined> {
    const since = Math.max(0, ...(await this.dir.readEvals()).map((e) => e.step).filter((s) => s < step));
    const recent = (await this.dir.readMetrics()).filter((m) => m.step >= since && m.step < step);
    return recent.length ? recent.reduce((a, m) => a + m['coder/pass_rate'], 0) / recent.length : undefined;
  }

  async evaluatedSteps(): Promise<Set<number>> {
    return new Set((await this.dir.readEvals()).map((e) => e.step));
  }

  /**
   * Runs up to `steps` steps (Infinity: until paused), committing each, evaluating every `evalEvery`. A stop or pause
   * lets the step in progress finish and commit; errors (TrainingHalted, a lost device) propagate.
   */
  async run(steps: number, ev: RunEvents = {}): Promise<void> {
    if (this.active) throw new Error('this run is already stepping');
    this.active = true;
    this.wanted = true;
    this.holding = false;
    this.stopReason = null;
    try {
      const target = this.trainer.step + steps;
      const every = ev.evalEvery ?? 0;
      const evalDue = () => every > 0 && this.trainer.step % every === 0;
      const evaluate = async () => {
        if (!ev.evalRequest) throw new Error('evalEvery needs an evalRequest');
        const p = await this.evaluate(ev.evalRequest);
        await ev.onEval?.(p);
      };
      // A run stopped during an evaluation (or before it) gets that evaluation on resume.
      if (evalDue() && !(await this.evaluatedSteps()).has(this.trainer.step)) await evaluate();
      const hooks: StepHooks = {
        onPhase: ev.onPhase,
        onProgress: ev.onProgress,
        onStream: ev.onStream,
        beforePhase: async (p) => {
          await this.boundary(ev);
          await this.beforePhase(p, ev);
        },
        atBoundary: () => this.boundary(ev),
      };
      while (this.wanted && this.trainer.step < target) {
        const out = await this.step(hooks);
        const c = await this.commit(out, this.trainer.step === target);
        await ev.onCommitted?.(c);
        if (evalDue()) await evaluate();
      }
    } finally {
      this.active = false;
      this.wanted = false;
    }
  }

  /**
   * Pause at the next boundary: a phase or a GRPO micro-batch inside the step in progress (it holds there, uncommitted,
   * until `resume()`), or the end of the step when none comes first.
   */
  pause(): void {
    this.wanted = false;
    this.holding = true;
  }

  /** Holding at a boundary inside a step (paused mid-step). */
  get held(): boolean {
    return this.holdGate !== null;
  }

  /** Goes on from the boundary a pause holds at, with the same numbers an unpaused step has; false if none holds. */
  resume(): boolean {
    if (!this.holdGate) return false;
    this.holding = false;
    this.wanted = true;
    this.holdGate();
    return true;
  }

  private async boundary(ev: RunEvents): Promise<void> {
    if (!this.holding) return;
    const wait = new Promise<void>((resolve) => (this.holdGate = resolve));
    ev.onHeld?.();
    await wait;
    this.holdGate = null;
    if (this.stopReason) throw this.stopReason;
  }

  /**
   * Stop after the step in progress and leave step-through (a waiting phase goes on). With a reason (e.g. the device
   * was lost), a waiting phase throws it instead.
   */
  stop(reason?: Error): void {
    this.wanted = false;
    this.holding = false;
    this.holdGate?.();
    if (reason) this.stopReason = reason;
    else this.stepThrough = false;
    this.nextPhase();
  }

  setStepThrough(on: boolean): void {
    this.stepThrough = on;
    if (!on) this.nextPhase();
  }

  /** Step-through: let the waiting phase run. */
  nextPhase(): void {
    this.gate?.();
  }

  private async beforePhase(phase: Phase, ev: RunEvents): Promise<void> {
    if (!this.stepThrough) return;
    // The gate exists before anyone hears of the wait, so a nextPhase or stop from onWaiting itself is not lost.
    const wait = new Promise<void>((resolve) => (this.gate = resolve));
    ev.onWaiting?.(phase);
    await wait;
    this.gate = null;
    if (this.stopReason) throw this.stopReason;
  }
}
