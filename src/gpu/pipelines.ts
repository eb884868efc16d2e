// Compute pipeline cache keyed by WGSL source, entry point and override constants (everything that is baked in).
export type Overrides = Record<string, number>;

function hashString(s: string): string {
  // FNV-1a 32-bit, enough to keep map keys short; the full source is compared on hit.
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16);
}

interface Entry {
  source: string;
  pipeline: GPUComputePipeline;
}

export class PipelineCache {
  private modules = new Map<string, GPUShaderModule>();
  private pipelines = new Map<string, Entry>();
  hits = 0;
  misses = 0;

  constructor(private readonly device: GPUDevice) {}

  private module(label: string, source: string): GPUShaderModule {
    const key = hashString(source) + ':' + source.length;
    let m = this.modules.get(key);
    if (!m) {
      m = this.device.createShaderModule({ label: `${label}.wgsl`, code: source });
      this.modules.set(key, m);
    }
    return m;
  }

  get(label: string, source: string, entryPoint = 'main', constants: Overrides = {}): GPUComputePipeline {
    const ov = Object.keys(constants)
      .sort()
      .map((k) => `${k}=${constants[k]}`)
      .join(',');
    const key = `${hashString(source)}:${source.length}:${entryPoint}:${ov}`;
    const hit = this.pipelines.get(key);
    if (hit && hit.source === source) {
      this.hits++;
      return hit.pipeline;
    }
    this.misses++;
    const pipeline = this.device.createComputePipeline({
      label: `${label}:${entryPoint}${ov ? `[${ov}]` : ''}`,
      layout: 'auto',
      compute: { module: this.module(label, source), entryPoint, constants },
    });
    this.pipelines.set(key, { source, pipeline });
    return pipeline;
  }

  get size(): number {
    return this.pipelines.size;
  }
}
