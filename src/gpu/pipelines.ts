// Compute pipeline cache. Each kernel registers its WGSL source and entry point once (a small integer id, so no
// dispatch hashes source text); a pipeline is then found by that id and its override constants (everything baked in).
export type Overrides = Record<string, number>;

const sourceIds = new Map<string, number>();

/** A process-wide id for a (source, entry point) pair; call once per kernel, not per dispatch. */
export function programId(source: string, entryPoint: string): number {
  const key = `${entryPoint}\u0000${source}`;
  let id = sourceIds.get(key);
  if (id === undefined) sourceIds.set(key, (id = sourceIds.size));
  return id;
}

/** Cache key of an override set in its canonical (sorted) order. */
function overridesKey(constants: Overrides): string {
  return Object.keys(constants)
    .sort()
    .map((k) => `${k}=${constants[k]}`)
    .join(',');
}

export interface PipelineRequest {
  label: string;
  source: string;
  entryPoint: string;
  constants: Overrides;
}

export interface PipelineVerdict {
  label: string;
  /** The stack's message when it refused the pipeline; absent when the pipeline is valid. */
  error?: string;
}

export class PipelineCache {
  private modules = new Map<number, GPUShaderModule>();
  /** Per program id: override key → pipeline. */
  private pipelines = new Map<number, Map<string, GPUComputePipeline>>();
  /** Per program id: override key → an async compile in flight (see prefetch). */
  private inFlight = new Map<number, Map<string, Promise<void>>>();
  /**
   * Warm-up tasks (e.g. a dry run that prefetches what a model will dispatch) that first use waits for, each with the
   * part of it that sampling needs (settled when the sampling kernels' compiles have; see ready('generate')).
   */
  private tasks = new Map<Promise<unknown>, Promise<unknown>>();
  /** Every pipeline asked for (compiled, in flight or failed), by program id and override key: see requests(). */
  private asked = new Map<number, Map<string, PipelineRequest>>();
  /** Pipeline label → the stack's message, for async compiles that failed (see verdicts()). */
  private failed = new Map<string, string>();
  hits = 0;
  /** Pipelines compiled synchronously, on the calling thread, at first dispatch. */
  misses = 0;
  /** Async compiles started by prefetch, and those finished. */
  requested = 0;
  prefetched = 0;
  /** Synchronous compiles of a pipeline whose async compile was still in flight (first use did not wait). */
  raced = 0;
  /** Milliseconds the calling thread spent inside synchronous pipeline creation. */
  compileMs = 0;

  constructor(private readonly device: GPUDevice) {}

  private module(id: number, label: string, source: string): GPUShaderModule {
    let m = this.modules.get(id);
    if (!m) {
      m = this.device.createShaderModule({ label: `${label}.wgsl`, code: source });
      this.modules.set(id, m);
    }
    return m;
  }

  private table<T>(all: Map<number, Map<string, T>>, id: number): Map<string, T> {
    let t = all.get(id);
    if (!t) all.set(id, (t = new Map()));
    return t;
  }

  private descriptor(id: number, r: PipelineRequest, ov: string): GPUComputePipelineDescriptor {
    this.table(this.asked, id).set(ov, r);
    return {
      label: `${r.label}:${r.entryPoint}${ov ? `[${ov}]` : ''}`,
      layout: 'auto',
      compute: { module: this.module(id, r.label, r.source), entryPoint: r.entryPoint, constants: r.constants },
    };
  }

  /** The pipeline for a registered program (see programId) and override set, compiled on first use. */
  byId(id: number, r: PipelineRequest, ovKey = overridesKey(r.constants)): GPUComputePipeline {
    const t = this.table(this.pipelines, id);
    const hit = t.get(ovKey);
    if (hit) {
      this.hits++;
      return hit;
    }
    this.misses++;
    if (this.inFlight.get(id)?.has(ovKey)) this.raced++;
    const t0 = performance.now();
    const pipeline = this.device.createComputePipeline(this.descriptor(id, r, ovKey));
    this.compileMs += performance.now() - t0;
    t.set(ovKey, pipeline);
    return pipeline;
  }

  /** Source-keyed lookup for callers without a kernel id (registers the program on first use). */
  get(label: string, source: string, entryPoint = 'main', constants: Overrides = {}): GPUComputePipeline {
    return this.byId(programId(source, entryPoint), { label, source, entryPoint, constants });
  }

  has(id: number, constants: Overrides): boolean {
    return this.table(this.pipelines, id).has(overridesKey(constants));
  }

  /**
   * Starts compiling this pipeline with createComputePipelineAsync unless it is compiled or in flight. Browsers
   * compile it in the GPU process; Node's Dawn on its worker threads. Either way the calling thread goes on.
   */
  prefetch(id: number, r: PipelineRequest, ov = overridesKey(r.constants)): void {
    if (this.table(this.pipelines, id).has(ov)) return;
    const flying = this.table(this.inFlight, id);
    if (flying.has(ov)) return;
    this.requested++;
    const descriptor = this.descriptor(id, r, ov);
    const done = this.device.createComputePipelineAsync(descriptor).then(
      (p) => {
        this.table(this.pipelines, id).set(ov, p);
        this.prefetched++;
      },
      // A pipeline that fails to compile asynchronously fails again, loudly, at its first synchronous use; the
      // message is kept for a validation walk (verdicts()).
      (e: unknown) => {
        this.failed.set(descriptor.label ?? r.label, e instanceof Error ? e.message : String(e));
      },
    );
    flying.set(
      ov,
      done.finally(() => flying.delete(ov)),
    );
  }

  /**
   * Registers a warm-up task; ready() waits for it (and whatever it prefetched). `sampling` settles when the part
   * sampling needs has (default: the whole task); ready('generate') waits for that part only, so a first rollout
   * starts while the update's shaders are still compiling.
   */
  track(task: Promise<unknown>, sampling: Promise<unknown> = task): void {
    const t = task.catch(() => {}).finally(() => this.tasks.delete(t));
    this.tasks.set(
      t,
      sampling.catch(() => {}),
    );
  }

  /** Resolves once the compiles in flight now have settled (not those started later). */
  async settleInFlight(): Promise<void> {
    await Promise.all([...this.inFlight.values()].flatMap((t) => [...t.values()]));
  }

  /**
   * Resolves once every tracked warm-up task and every prefetched pipeline has settled. Model entry points (generate,
   * training steps) await it before recording, so a first dispatch finds its pipeline instead of compiling it again
   * synchronously. (A dry run, itself a tracked task, runs on a Gpu view whose ready() does not wait.) With
   * 'generate' and a warm-up under way, only its sampling part is awaited (a pipeline still missing would be compiled
   * at first use, as without a warm-up).
   */
  async ready(scope: 'all' | 'generate' = 'all'): Promise<void> {
    if (scope === 'generate' && this.tasks.size > 0) {
      await Promise.all([...this.tasks.values()]);
      return;
    }
    while (this.tasks.size > 0 || this.flying() > 0) {
      await Promise.all([...this.tasks.keys(), ...[...this.inFlight.values()].flatMap((t) => [...t.values()])]);
    }
  }

  /** Warm-up progress: async compiles started and those settled, and whether a warm-up is still under way. */
  warmup(): { started: number; settled: number; busy: boolean } {
    const flying = this.flying();
    return { started: this.requested, settled: this.requested - flying, busy: flying > 0 || this.tasks.size > 0 };
  }

  private flying(): number {
    let n = 0;
    for (const t of this.inFlight.values()) n += t.size;
    return n;
  }

  /** Prefetches the requested pipelines and waits for them; returns how many compiles that started. */
  async warm(requests: PipelineRequest[]): Promise<number> {
    const before = this.requested;
    for (const r of requests) this.prefetch(programId(r.source, r.entryPoint), r);
    const n = this.requested - before;
    await this.ready();
    return n;
  }

  /** Every pipeline this cache was asked for, once each: what a validation walk re-creates (pipeline-check.ts). */
  requests(): PipelineRequest[] {
    return [...this.asked.values()].flatMap((t) => [...t.values()]);
  }

  /**
   * One verdict per pipeline asked for: its label and, when the stack refused it (shader or pipeline validation,
   * e.g. a limit), the stack's message. Call after ready(); a pipeline compiled only synchronously counts as valid.
   */
  verdicts(): PipelineVerdict[] {
    return [...this.asked.entries()].flatMap(([id, t]) =>
      [...t.entries()].map(([ov, r]) => {
        const label = `${r.label}:${r.entryPoint}${ov ? `[${ov}]` : ''}`;
        const error = this.failed.get(label);
        return error !== undefined
          ? { label, error }
          : this.has(id, r.constants)
            ? { label }
            : { label, error: 'not compiled' };
      }),
    );
  }

  get size(): number {
    let n = 0;
    for (const t of this.pipelines.values()) n += t.size;
    return n;
  }
}
