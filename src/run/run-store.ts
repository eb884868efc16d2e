// A run's persistent files (config, metrics.jsonl, Mistake Book, trainer state, checkpoints) behind a small store
// interface: the Node adapter writes a directory, the browser adapter IndexedDB/OPFS.
//
// Crash safety: a step is committed by writing its checkpoint + state under `pending/`, appending its metrics line,
// then promoting `pending/` to `latest/`. On resume, metrics lines at or past the committed step (and a line torn by a
// killed append) are dropped, so a process killed mid-step loses at most that step.
//
// A run directory is an append-only record: `init` refuses a store that already holds anything (the CLI offers
// --resume and --force; the browser names every new run afresh), and marks the run incomplete until its first step
// is committed. Reading checks the records: a repeated or missing step is a RecordError naming the file and line.
import type { TrainConfig } from '../rl/config';
import type { TrainerState } from '../rl/trainer';
import type { StepMetrics } from '../rl/metrics';
import type { PolicyFiles } from '../rl/policy';
import type { RolloutRecord } from '../rl/records';
import { checkSteps, parseMetricsJsonl, RecordError } from '../rl/metrics';
import { RUN_FILES as F, checkpointDir, parseEvalPoints, rolloutsPath, type EvalPoint } from './run-layout';

export interface RunStore {
  read(path: string): Promise<Uint8Array | undefined>;
  write(path: string, data: Uint8Array): Promise<void>;
  append(path: string, data: Uint8Array): Promise<void>;
  list(prefix: string): Promise<string[]>;
  remove(prefix: string): Promise<void>;
  /** Atomically replace everything under `to` by what is under `from`. */
  promote(from: string, to: string): Promise<void>;
}

export interface Committed {
  config: TrainConfig;
  state: TrainerState;
  metrics: StepMetrics[];
  coder: PolicyFiles;
  tester?: PolicyFiles;
}

const enc = new TextEncoder();
const dec = new TextDecoder();

/** A run store that already holds files where a new run was to start. */
export class RunDirError extends Error {
  override name = 'RunDirError';
  constructor(
    message: string,
    /** What is there: committed steps (0 for a run that never committed one) or undefined when it is not a run. */
    readonly steps?: number,
  ) {
    super(message);
  }
}

export class RunDir {
  constructor(readonly store: RunStore) {}

  /** Starts a new run: refuses a store holding anything, writes the incomplete marker, then the config. */
  async init(config: TrainConfig): Promise<void> {
    const there = await this.store.list('');
    if (there.length) {
      const held = await this.describe();
      throw new RunDirError(`already holds ${held.what}`, held.steps);
    }
    await this.store.write(
      F.incomplete,
      enc.encode('This run has not committed its first step yet (or failed before it); it holds no result.\n'),
    );
    await this.store.write(F.config, enc.encode(JSON.stringify(config, null, 2) + '\n'));
  }

  /** What the store holds, in words, and its committed steps (undefined: not a run). */
  async describe(): Promise<{ what: string; steps?: number }> {
    const names = await this.store.list('');
    if (!names.length) return { what: 'nothing', steps: undefined };
    if (!names.includes(F.config))
      return {
        what: `${names.length === 1 ? '1 file that is' : `${names.length} files that are`} not a run (${names.slice(0, 3).join(', ')}${names.length > 3 ? ', …' : ''})`,
      };
    const state = (await this.store.read(F.latest + F.state)) ?? (await this.store.read(F.latestOld + F.state));
    const steps = state ? (JSON.parse(dec.decode(state)) as TrainerState).step : 0;
    return {
      what: steps ? `a run of ${steps} committed step${steps > 1 ? 's' : ''}` : 'a run with no committed step',
      steps,
    };
  }

  /** Whether the run is marked incomplete (started, no step committed yet). */
  async incomplete(): Promise<boolean> {
    return (await this.store.read(F.incomplete)) !== undefined;
  }

  /** Removes every file of the run (a run that failed before its first step leaves nothing behind). */
  async discard(): Promise<void> {
    await this.store.remove('');
  }

  async readConfig(): Promise<TrainConfig | undefined> {
    const b = await this.store.read(F.config);
    return b ? (JSON.parse(dec.decode(b)) as TrainConfig) : undefined;
  }

  /** Commit one finished step: checkpoint + state, then the metrics line, then promote. */
  async commitStep(
    state: TrainerState,
    metrics: StepMetrics,
    coder: PolicyFiles,
    tester: PolicyFiles | undefined,
    keepCopy: boolean,
  ): Promise<void> {
    await this.store.remove(F.pending);
    await this.writeFiles(F.pending + 'coder/', coder);
    if (tester) await this.writeFiles(F.pending + 'tester/', tester);
    await this.store.write(F.pending + F.state, enc.encode(JSON.stringify(state)));
    await this.store.write(F.mistakeBook, enc.encode(JSON.stringify(state.book, null, 1)));
    await this.store.append(F.metrics, enc.encode(JSON.stringify(metrics) + '\n'));
    await this.store.promote(F.pending, F.latest);
    await this.store.remove(F.incomplete);
    if (keepCopy) {
      await this.writeFiles(checkpointDir(state.step) + 'coder/', coder);
      if (tester) await this.writeFiles(checkpointDir(state.step) + 'tester/', tester);
    }
  }

  async writeRollouts(step: number, rollouts: RolloutRecord[]): Promise<void> {
    await this.store.write(rolloutsPath(step), enc.encode(JSON.stringify(rollouts)));
  }

  /** Every saved step's rollout records, in step order (empty when the run saved none). */
  async readRollouts(): Promise<RolloutRecord[][]> {
    const out: RolloutRecord[][] = [];
    for (const name of (await this.store.list(F.rollouts)).sort()) {
      const b = await this.store.read(F.rollouts + name);
      if (b) out.push(JSON.parse(dec.decode(b)) as RolloutRecord[]);
    }
    return out;
  }

  async appendEval(point: EvalPoint): Promise<void> {
    await this.store.append(F.evals, enc.encode(JSON.stringify(point) + '\n'));
  }

  /**
   * The run's evaluations; a line cut short by a crash (no newline yet) is dropped, as in metrics.jsonl; a repeated
   * step is a RecordError.
   */
  async readEvals(): Promise<EvalPoint[]> {
    const b = await this.store.read(F.evals);
    return b ? parseEvalPoints(dec.decode(b), F.evals, 'drop') : [];
  }

  /** The per-step checkpoint copies (folder names under checkpoints/), oldest first. */
  async checkpointCopies(): Promise<string[]> {
    return [...new Set((await this.store.list(F.checkpoints)).map((n) => n.split('/')[0]))].sort();
  }

  async removeCheckpointCopy(name: string): Promise<void> {
    await this.store.remove(`${F.checkpoints}${name}/`);
  }

  private async writeFiles(prefix: string, files: PolicyFiles): Promise<void> {
    for (const [name, data] of Object.entries(files)) await this.store.write(prefix + name, data);
  }

  private async readFiles(prefix: string): Promise<PolicyFiles | undefined> {
    const names = await this.store.list(prefix);
    if (!names.length) return undefined;
    const out: PolicyFiles = {};
    for (const n of names) {
      const b = await this.store.read(prefix + n);
      if (b) out[n] = b;
    }
    return out;
  }

  async readMetrics(): Promise<StepMetrics[]> {
    return (await this.readMetricsFile()).metrics;
  }

  /** Every line is appended with its newline, so an unterminated tail is an append cut short by a crash: dropped. */
  private async readMetricsFile(): Promise<{ metrics: StepMetrics[]; torn: boolean }> {
    const b = await this.store.read(F.metrics);
    if (!b) return { metrics: [], torn: false };
    const text = dec.decode(b);
    const end = text.lastIndexOf('\n') + 1;
    return { metrics: parseMetricsJsonl(text.slice(0, end)), torn: end < text.length };
  }

  /** The last committed step, with metrics trimmed to it (rewriting metrics.jsonl if a crash left extra lines). */
  async loadCommitted(): Promise<Committed | undefined> {
    const config = await this.readConfig();
    // A crash inside promote() can leave only latest.old/: it holds the last committed step.
    const base = (await this.store.read(F.latest + F.state)) ? F.latest : F.latestOld;
    const s = await this.store.read(base + F.state);
    if (!config || !s) return undefined;
    const state = JSON.parse(dec.decode(s)) as TrainerState;
    checkSteps(
      state.book.history.map((h) => h.step),
      (i) => `${base}${F.state}: Mistake Book history[${i}]`,
      true,
    );
    const { metrics: all, torn } = await this.readMetricsFile();
    const metrics = all.filter((m) => m.step < state.step);
    // Each commit appends its line before promoting, so fewer lines than committed steps means lines were lost.
    if (metrics.length < state.step)
      throw new RecordError(
        `${F.metrics}: ${metrics.length} step${metrics.length === 1 ? '' : 's'} for the ${state.step} committed in ${base}${F.state} (steps ${metrics.length}-${state.step - 1} are missing)`,
      );
    if (torn || metrics.length !== all.length) {
      await this.store.write(F.metrics, enc.encode(metrics.map((m) => JSON.stringify(m) + '\n').join('')));
    }
    const coder = await this.readFiles(base + 'coder/');
    if (!coder) throw new Error(`run is missing ${base}coder/ checkpoint files`);
    return { config, state, metrics, coder, tester: await this.readFiles(base + 'tester/') };
  }
}
