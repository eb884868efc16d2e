// A run's persistent files (config, metrics.jsonl, Mistake Book, trainer state, checkpoints) behind a small store
// interface: the Node adapter writes a directory, the browser adapter IndexedDB/OPFS.
//
// Crash safety: a step is committed by writing its checkpoint + state under `pending/`, appending its metrics line,
// then promoting `pending/` to `latest/`. On resume, metrics lines at or past the committed step (and a line torn by a
// killed append) are dropped, so a process killed mid-step loses at most that step.
import type { TrainConfig } from './config';
import type { TrainerState } from './trainer';
import type { StepMetrics } from './metrics';
import type { PolicyFiles } from './policy';
import { parseMetricsJsonl } from './metrics';

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

export class RunDir {
  constructor(readonly store: RunStore) {}

  async init(config: TrainConfig): Promise<void> {
    await this.store.write('config.json', enc.encode(JSON.stringify(config, null, 2) + '\n'));
  }

  async readConfig(): Promise<TrainConfig | undefined> {
    const b = await this.store.read('config.json');
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
    await this.store.remove('pending/');
    await this.writeFiles('pending/coder/', coder);
    if (tester) await this.writeFiles('pending/tester/', tester);
    await this.store.write('pending/state.json', enc.encode(JSON.stringify(state)));
    await this.store.write('mistake-book.json', enc.encode(JSON.stringify(state.book, null, 1)));
    await this.store.append('metrics.jsonl', enc.encode(JSON.stringify(metrics) + '\n'));
    await this.store.promote('pending/', 'latest/');
    if (keepCopy) {
      await this.writeFiles(`checkpoints/step-${String(state.step).padStart(5, '0')}/coder/`, coder);
      if (tester) await this.writeFiles(`checkpoints/step-${String(state.step).padStart(5, '0')}/tester/`, tester);
    }
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
    const b = await this.store.read('metrics.jsonl');
    if (!b) return { metrics: [], torn: false };
    const text = dec.decode(b);
    const end = text.lastIndexOf('\n') + 1;
    return { metrics: parseMetricsJsonl(text.slice(0, end)), torn: end < text.length };
  }

  /** The last committed step, with metrics trimmed to it (rewriting metrics.jsonl if a crash left extra lines). */
  async loadCommitted(): Promise<Committed | undefined> {
    const config = await this.readConfig();
    // A crash inside promote() can leave only latest.old/: it holds the last committed step.
    const base = (await this.store.read('latest/state.json')) ? 'latest/' : 'latest.old/';
    const s = await this.store.read(base + 'state.json');
    if (!config || !s) return undefined;
    const state = JSON.parse(dec.decode(s)) as TrainerState;
    const { metrics: all, torn } = await this.readMetricsFile();
    const metrics = all.filter((m) => m.step < state.step);
    if (torn || metrics.length !== all.length) {
      await this.store.write('metrics.jsonl', enc.encode(metrics.map((m) => JSON.stringify(m) + '\n').join('')));
    }
    const coder = await this.readFiles(base + 'coder/');
    if (!coder) throw new Error(`run is missing ${base}coder/ checkpoint files`);
    return { config, state, metrics, coder, tester: await this.readFiles(base + 'tester/') };
  }
}
