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

export class PipelineCache {
  private modules = new Map<number, GPUShaderModule>();
  /** Per program id: override key → pipeline. */
  private pipelines = new Map<number, Map<string, GPUComputePipeline>>();
  hits = 0;
  misses = 0;
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

  private table(id: number): Map<string, GPUComputePipeline> {
    let t = this.pipelines.get(id);
    if (!t) this.pipelines.set(id, (t = new Map()));
    return t;
  }

  private descriptor(id: number, r: PipelineRequest, ov: string): GPUComputePipelineDescriptor {
    return {
      label: `${r.label}:${r.entryPoint}${ov ? `[${ov}]` : ''}`,
      layout: 'auto',
      compute: { module: this.module(id, r.label, r.source), entryPoint: r.entryPoint, constants: r.constants },
    };
  }

  /** The pipeline for a registered program (see programId) and override set, compiled on first use. */
  byId(id: number, r: PipelineRequest, ovKey = overridesKey(r.constants)): GPUComputePipeline {
    const t = this.table(id);
    const hit = t.get(ovKey);
    if (hit) {
      this.hits++;
      return hit;
    }
    this.misses++;
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
    return this.table(id).has(overridesKey(constants));
  }

  /**
   * Compiles the requested pipelines with createComputePipelineAsync, all in flight at once, and caches them; on
   * browsers the GPU process compiles them off the calling thread. (Node's Dawn compiles async pipelines on the main
   * thread as it polls, so there this only batches the work.)
   */
  async warm(requests: PipelineRequest[]): Promise<number> {
    const todo = new Map<string, { id: number; r: PipelineRequest; ov: string }>();
    for (const r of requests) {
      const id = programId(r.source, r.entryPoint);
      const ov = overridesKey(r.constants);
      if (!this.table(id).has(ov)) todo.set(`${id}|${ov}`, { id, r, ov });
    }
    const made = await Promise.all(
      [...todo.values()].map(async ({ id, r, ov }) => ({
        id,
        ov,
        p: await this.device.createComputePipelineAsync(this.descriptor(id, r, ov)),
      })),
    );
    for (const { id, ov, p } of made) this.table(id).set(ov, p);
    this.misses += made.length;
    return made.length;
  }

  get size(): number {
    let n = 0;
    for (const t of this.pipelines.values()) n += t.size;
    return n;
  }
}
