// Typed kernel launcher: one WGSL entry point, shapes in a uniform struct (binding 0), storage buffers at 1..n,
// workgroup sizes as `override`s so one pipeline serves every shape. The recording path allocates nothing of its own
// on a pipeline hit: the program id is fixed at construction, override sets are matched by value against the ones
// seen before, uniforms are written straight into the ring, and the bind-group descriptor is reused (WebGPU copies it).
import type { Gpu } from './runtime';
import { programId, type Overrides, type PipelineRequest } from './pipelines';

export type ScalarType = 'u32' | 'i32' | 'f32';

export interface KernelSpec<U extends string> {
  /** Family name: used for labels and the per-family GPU time table. */
  family: string;
  source: string;
  entryPoint?: string;
  /** Uniform fields in declaration order; each is a 4-byte scalar in the WGSL struct. */
  uniforms: ReadonlyArray<readonly [U, ScalarType]>;
}

export interface DispatchArgs<U extends string> {
  buffers: GPUBuffer[];
  uniforms: Record<U, number>;
  workgroups: [number, number?, number?];
  overrides?: Overrides;
}

interface Compiled {
  gpu: Gpu;
  overrides: Overrides;
  pipeline: GPUComputePipeline;
  layout: GPUBindGroupLayout;
}

const NO_OVERRIDES: Overrides = {};

function sameOverrides(a: Overrides, b: Overrides): boolean {
  let n = 0;
  for (const k in a) {
    if (a[k] !== b[k]) return false;
    n++;
  }
  for (const k in b) if (--n < 0 || !(k in a)) return false;
  return n === 0;
}

export class Kernel<U extends string = string> {
  readonly id: number;
  readonly uniformBytes: number;
  private compiled: Compiled[] = [];
  private readonly entries: GPUBindGroupEntry[] = [];
  private readonly uniformBinding = { buffer: undefined as unknown as GPUBuffer, offset: 0, size: 0 };
  private readonly descriptor: GPUBindGroupDescriptor;

  constructor(readonly spec: KernelSpec<U>) {
    this.id = programId(spec.source, spec.entryPoint ?? 'main');
    this.uniformBytes = Math.max(16, Math.ceil((spec.uniforms.length * 4) / 16) * 16);
    this.descriptor = {
      label: `${spec.family}.bind`,
      layout: undefined as unknown as GPUBindGroupLayout,
      entries: this.entries,
    };
  }

  /** Packs uniform values in declaration order, padded to 16 bytes as WGSL requires. */
  packUniforms(values: Record<U, number>): ArrayBuffer {
    const buf = new ArrayBuffer(this.uniformBytes);
    this.writeUniforms(new DataView(buf), 0, values);
    return buf;
  }

  private writeUniforms(view: DataView, at: number, values: Record<U, number>): void {
    const fields = this.spec.uniforms;
    for (let i = 0; i < fields.length; i++) {
      const [name, type] = fields[i];
      const v = values[name];
      if (v === undefined || Number.isNaN(v)) throw new Error(`${this.spec.family}: uniform '${name}' missing`);
      if (type === 'f32') view.setFloat32(at + i * 4, v, true);
      else if (type === 'i32') view.setInt32(at + i * 4, v, true);
      else {
        if (v < 0 || !Number.isInteger(v)) throw new Error(`${this.spec.family}: uniform '${name}'=${v} is not a u32`);
        view.setUint32(at + i * 4, v, true);
      }
    }
  }

  private request(constants: Overrides): PipelineRequest {
    return { label: this.spec.family, source: this.spec.source, entryPoint: this.spec.entryPoint ?? 'main', constants };
  }

  private pipelineFor(gpu: Gpu, overrides: Overrides): Compiled {
    for (const c of this.compiled) if (c.gpu === gpu && sameOverrides(c.overrides, overrides)) return c;
    const pipeline = gpu.pipelines.byId(this.id, this.request(overrides));
    const c = { gpu, overrides: { ...overrides }, pipeline, layout: pipeline.getBindGroupLayout(0) };
    this.compiled.push(c);
    return c;
  }

  /** Compiles (asynchronously, ahead of first use) the pipelines for these override sets. */
  warm(gpu: Gpu, overrideSets: Overrides[]): Promise<number> {
    return gpu.pipelines.warm(overrideSets.map((constants) => this.request(constants)));
  }

  dispatch(gpu: Gpu, args: DispatchArgs<U>): void {
    const wg = args.workgroups;
    const x = wg[0];
    const y = wg[1] ?? 1;
    const z = wg[2] ?? 1;
    const maxWg = gpu.device.limits.maxComputeWorkgroupsPerDimension;
    if (x > maxWg || y > maxWg || z > maxWg) {
      throw new Error(`${this.spec.family}: ${x}x${y}x${z} workgroups exceeds the device limit ${maxWg}`);
    }
    if (x === 0 || y === 0 || z === 0) return;
    if (gpu.collecting) {
      // A dry run: only note (and start compiling) the pipeline this dispatch needs.
      const constants = args.overrides ?? NO_OVERRIDES;
      gpu.pipelines.prefetch(this.id, this.request(constants));
      return;
    }
    const c = this.pipelineFor(gpu, args.overrides ?? NO_OVERRIDES);
    const entries = this.entries;
    let n = 0;
    if (this.spec.uniforms.length > 0) {
      const slot = gpu.reserveUniform(this.uniformBytes);
      this.writeUniforms(slot.view, slot.offset, args.uniforms);
      this.uniformBinding.buffer = slot.buffer;
      this.uniformBinding.offset = slot.offset;
      this.uniformBinding.size = this.uniformBytes;
      entries[n] ??= { binding: 0, resource: this.uniformBinding };
      n++;
    }
    const bufs = args.buffers;
    for (let i = 0; i < bufs.length; i++, n++) {
      const e = entries[n] as { binding: number; resource: { buffer: GPUBuffer } } | undefined;
      if (e) {
        e.binding = i + 1;
        e.resource.buffer = bufs[i];
      } else entries[n] = { binding: i + 1, resource: { buffer: bufs[i] } };
    }
    entries.length = n;
    this.descriptor.layout = c.layout;
    const bindGroup = gpu.device.createBindGroup(this.descriptor);
    gpu.recordDispatch(this.spec.family, c.pipeline, bindGroup, x, y, z);
  }
}

export function ceilDiv(a: number, b: number): number {
  return Math.floor((a + b - 1) / b);
}
