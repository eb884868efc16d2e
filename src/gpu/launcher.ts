// Typed kernel launcher: one WGSL entry point, shapes in a uniform struct (binding 0), storage buffers at 1..n,
// workgroup sizes as `override`s so one pipeline serves every shape.
import type { Gpu } from './runtime';
import type { Overrides } from './pipelines';

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

export class Kernel<U extends string = string> {
  constructor(readonly spec: KernelSpec<U>) {}

  /** Packs uniform values in declaration order, padded to 16 bytes as WGSL requires. */
  packUniforms(values: Record<U, number>): ArrayBuffer {
    const fields = this.spec.uniforms;
    const buf = new ArrayBuffer(Math.max(16, Math.ceil((fields.length * 4) / 16) * 16));
    const view = new DataView(buf);
    fields.forEach(([name, type], i) => {
      const v = values[name];
      if (v === undefined || Number.isNaN(v)) throw new Error(`${this.spec.family}: uniform '${name}' missing`);
      if (type === 'f32') view.setFloat32(i * 4, v, true);
      else if (type === 'i32') view.setInt32(i * 4, v, true);
      else {
        if (v < 0 || !Number.isInteger(v)) throw new Error(`${this.spec.family}: uniform '${name}'=${v} is not a u32`);
        view.setUint32(i * 4, v, true);
      }
    });
    return buf;
  }

  dispatch(gpu: Gpu, args: DispatchArgs<U>): void {
    const [x, y = 1, z = 1] = args.workgroups;
    const maxWg = gpu.device.limits.maxComputeWorkgroupsPerDimension;
    if (x > maxWg || y > maxWg || z > maxWg) {
      throw new Error(`${this.spec.family}: ${x}x${y}x${z} workgroups exceeds the device limit ${maxWg}`);
    }
    if (x === 0 || y === 0 || z === 0) return;
    const pipeline = gpu.pipelines.get(this.spec.family, this.spec.source, this.spec.entryPoint ?? 'main', args.overrides);
    const hasUniforms = this.spec.uniforms.length > 0;
    const entries: GPUBindGroupEntry[] = [];
    if (hasUniforms) entries.push({ binding: 0, resource: gpu.uniform(this.packUniforms(args.uniforms)) });
    args.buffers.forEach((buffer, i) => entries.push({ binding: i + 1, resource: { buffer } }));
    const bindGroup = gpu.device.createBindGroup({
      label: `${this.spec.family}.bind`,
      layout: pipeline.getBindGroupLayout(0),
      entries,
    });
    gpu.recordDispatch(this.spec.family, pipeline, bindGroup, x, y, z);
  }
}

export function ceilDiv(a: number, b: number): number {
  return Math.floor((a + b - 1) / b);
}
