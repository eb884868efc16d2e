// The GPU runtime: device, buffer pool, pipeline cache, batched command recording, uniform ring, timing, readback.
import { BufferPool, STORAGE, Usage } from './buffers';
import { PipelineCache } from './pipelines';
import { GpuTimer, type FamilyTime } from './timer';
import { acquireDevice, type AcquireOptions, type AdapterSummary } from './device';
import { defaultTuning, type GpuTuning } from './tuning';

const UNIFORM_SLOT = 256; // minUniformBufferOffsetAlignment
const UNIFORM_CHUNK = 256 * UNIFORM_SLOT;

type DeviceLostListener = (info: { reason: string; message: string }) => void;

export class Gpu {
  readonly pool: BufferPool;
  readonly pipelines: PipelineCache;
  readonly timer?: GpuTimer;
  /** When true (and timestamps exist), each dispatch runs in its own timed pass; slower, for profiling only. */
  profile = false;
  /** Kernel variants this context runs with; benches and tests pin one here. */
  readonly tuning: GpuTuning;
  /**
   * A dry-run view (see dryRunView): its dispatches run nothing and only start compiling the pipelines they would
   * use, in the parent's cache.
   */
  readonly collecting: boolean;
  private encoder?: GPUCommandEncoder;
  private pass?: GPUComputePassEncoder;
  private uniformChunks: {
    buf: GPUBuffer;
    data: Uint8Array<ArrayBuffer>;
    view: DataView<ArrayBuffer>;
    used: number;
  }[] = [];
  private readonly uniformSlot = {
    buffer: undefined as unknown as GPUBuffer,
    view: new DataView(new ArrayBuffer(0)) as DataView<ArrayBuffer>,
    offset: 0,
  };
  private lostListeners: DeviceLostListener[] = [];
  lost = false;
  dispatches = 0;
  submits = 0;

  private constructor(
    readonly device: GPUDevice,
    readonly summary: AdapterSummary,
    readonly hasTimestamps: boolean,
    readonly hasSubgroups: boolean,
    /** Created with 'shader-f16' (the f16 kernels' `enable f16` compiles). */
    readonly hasF16 = false,
    parent?: Gpu,
  ) {
    this.pool = new BufferPool(device);
    this.pipelines = parent?.pipelines ?? new PipelineCache(device);
    this.tuning = parent?.tuning ?? defaultTuning();
    this.collecting = !!parent;
    if (hasTimestamps && !parent) this.timer = new GpuTimer(device);
  }

  /**
   * A view of this device for a dry run: same device, pipeline cache and tuning, its own buffers; its kernels
   * dispatch nothing (Kernel.dispatch only prefetches their pipelines). Running a model's code paths on it lists
   * exactly the pipelines they need without running them. Free it with releaseView(), never destroy().
   */
  dryRunView(): Gpu {
    return new Gpu(this.device, this.summary, this.hasTimestamps, this.hasSubgroups, this.hasF16, this);
  }

  /** Frees a dry-run view's buffers (the device stays). */
  releaseView(): void {
    if (!this.collecting) throw new Error('releaseView: not a dry-run view');
    this.endPass();
    this.encoder = undefined;
    this.pool.destroy();
  }

  /**
   * Waits for warm-up compiles in flight (PipelineCache.ready): model entry points call this before recording so a
   * first dispatch finds its pipeline. Immediate on a dry-run view, which is itself part of a warm-up.
   */
  async ready(scope: 'all' | 'generate' = 'all'): Promise<void> {
    if (!this.collecting) await this.pipelines.ready(scope);
  }

  static async create(gpu: GPU, opts: AcquireOptions = {}): Promise<Gpu> {
    const holder: { gpu?: Gpu } = {};
    const acquired = await acquireDevice(gpu, {
      ...opts,
      onLost: (info) => {
        opts.onLost?.(info);
        const self = holder.gpu;
        if (!self) return;
        self.lost = true;
        for (const l of self.lostListeners) l({ reason: String(info.reason), message: info.message });
      },
    });
    holder.gpu = new Gpu(
      acquired.device,
      acquired.summary,
      acquired.hasTimestamps,
      acquired.hasSubgroups,
      acquired.hasF16,
    );
    return holder.gpu;
  }

  onDeviceLost(listener: DeviceLostListener): () => void {
    this.lostListeners.push(listener);
    return () => (this.lostListeners = this.lostListeners.filter((l) => l !== listener));
  }

  // ---- buffers -------------------------------------------------------------------------------------------

  /** A storage buffer (STORAGE|COPY_SRC|COPY_DST), optionally filled. Not pooled: the caller owns it. */
  buffer(label: string, sizeOrData: number | ArrayBufferView): GPUBuffer {
    const bytes = typeof sizeOrData === 'number' ? sizeOrData : sizeOrData.byteLength;
    const buf = this.device.createBuffer({ label, size: Math.max(16, Math.ceil(bytes / 4) * 4), usage: STORAGE });
    if (typeof sizeOrData !== 'number') this.write(buf, sizeOrData);
    return buf;
  }

  /** A pooled storage buffer; give it back with `release` once the work recorded so far no longer needs it. */
  temp(label: string, bytes: number): GPUBuffer {
    return this.pool.acquire(bytes, STORAGE, label);
  }

  release(buf: GPUBuffer): void {
    this.pool.release(buf);
  }

  write(buf: GPUBuffer, data: ArrayBufferView, byteOffset = 0): void {
    // writeBuffer is ordered before the next submit; flush recorded work first so ordering matches program order.
    if (this.encoder) this.submit();
    const padded = data.byteLength % 4 === 0 ? data : padTo4(data);
    this.device.queue.writeBuffer(buf, byteOffset, padded.buffer, padded.byteOffset, padded.byteLength);
  }

  // ---- recording -----------------------------------------------------------------------------------------

  commandEncoder(): GPUCommandEncoder {
    if (!this.encoder) this.encoder = this.device.createCommandEncoder({ label: 'code-a1.encoder' });
    return this.encoder;
  }

  private endPass(): void {
    this.pass?.end();
    this.pass = undefined;
  }

  /**
   * Reserves a uniform slice in the per-submit ring (uploaded at submit time) and returns where to write it. The
   * returned object is reused by the next call: copy what you need before reserving again.
   */
  reserveUniform(bytes: number): { buffer: GPUBuffer; view: DataView<ArrayBuffer>; offset: number } {
    if (bytes > UNIFORM_SLOT) throw new Error(`uniform block of ${bytes} bytes exceeds ${UNIFORM_SLOT}`);
    let chunk = this.uniformChunks[this.uniformChunks.length - 1];
    if (!chunk || chunk.used + UNIFORM_SLOT > UNIFORM_CHUNK) {
      const data = new Uint8Array(UNIFORM_CHUNK);
      chunk = {
        buf: this.pool.acquire(UNIFORM_CHUNK, Usage.UNIFORM | Usage.COPY_DST, 'uniform-ring'),
        data,
        view: new DataView(data.buffer),
        used: 0,
      };
      this.uniformChunks.push(chunk);
    }
    const slot = this.uniformSlot;
    slot.buffer = chunk.buf;
    slot.view = chunk.view;
    slot.offset = chunk.used;
    chunk.used += UNIFORM_SLOT;
    return slot;
  }

  /** Bind a uniform slice from the per-submit ring; contents are uploaded at submit time. */
  uniform(data: ArrayBuffer): GPUBufferBinding {
    const slot = this.reserveUniform(data.byteLength);
    new Uint8Array(slot.view.buffer).set(new Uint8Array(data), slot.offset);
    return { buffer: slot.buffer, offset: slot.offset, size: data.byteLength };
  }

  recordDispatch(
    family: string,
    pipeline: GPUComputePipeline,
    bindGroup: GPUBindGroup,
    x: number,
    y: number,
    z: number,
  ): void {
    this.dispatches++;
    const timed = this.profile && this.timer ? this.timer.slot(family) : undefined;
    if (timed) this.endPass();
    if (!this.pass) {
      this.pass = this.commandEncoder().beginComputePass({ label: `${family}.pass`, timestampWrites: timed });
    }
    this.pass.setPipeline(pipeline);
    this.pass.setBindGroup(0, bindGroup);
    this.pass.dispatchWorkgroups(x, y, z);
    if (timed) this.endPass();
  }

  copy(src: GPUBuffer, srcOffset: number, dst: GPUBuffer, dstOffset: number, bytes: number): void {
    this.endPass();
    this.commandEncoder().copyBufferToBuffer(src, srcOffset, dst, dstOffset, bytes);
  }

  /** Submits everything recorded; pooled buffers released before this call are recycled once the GPU is done. */
  submit(): void {
    this.endPass();
    const encoder = this.encoder;
    const chunks = this.uniformChunks;
    this.encoder = undefined;
    this.uniformChunks = [];
    for (const c of chunks) this.device.queue.writeBuffer(c.buf, 0, c.data.buffer, 0, c.used);
    const afterTimer = encoder && this.timer ? this.timer.beforeSubmit(encoder) : undefined;
    if (encoder) this.device.queue.submit([encoder.finish()]);
    this.submits++;
    afterTimer?.();
    for (const c of chunks) this.pool.release(c.buf);
    const released = this.pool.takePending();
    if (released.length) void this.device.queue.onSubmittedWorkDone().then(() => this.pool.recycle(released));
  }

  /** Waits for all submitted work. */
  async sync(): Promise<void> {
    if (this.encoder) this.submit();
    await this.device.queue.onSubmittedWorkDone();
  }

  /** Reads `bytes` from `buf` (submitting pending work first). */
  async readBytes(buf: GPUBuffer, bytes = buf.size, byteOffset = 0): Promise<ArrayBuffer> {
    const size = Math.ceil(bytes / 4) * 4;
    const staging = this.device.createBuffer({
      label: `${buf.label}.readback`,
      size,
      usage: Usage.MAP_READ | Usage.COPY_DST,
    });
    this.copy(buf, byteOffset, staging, 0, size);
    this.submit();
    await staging.mapAsync(1 /* GPUMapMode.READ */);
    const out = staging.getMappedRange().slice(0, bytes);
    staging.unmap();
    staging.destroy();
    return out;
  }

  async readF32(buf: GPUBuffer, count?: number, offset = 0): Promise<Float32Array> {
    const n = count ?? (buf.size - offset * 4) / 4;
    return new Float32Array(await this.readBytes(buf, n * 4, offset * 4));
  }

  async readU32(buf: GPUBuffer, count?: number, offset = 0): Promise<Uint32Array> {
    const n = count ?? (buf.size - offset * 4) / 4;
    return new Uint32Array(await this.readBytes(buf, n * 4, offset * 4));
  }

  async kernelTimes(): Promise<FamilyTime[]> {
    return this.timer ? this.timer.report() : [];
  }

  destroy(): void {
    if (this.collecting) throw new Error('destroy: a dry-run view shares its device; use releaseView()');
    this.endPass();
    this.encoder = undefined;
    this.pool.destroy();
    this.device.destroy();
  }
}

function padTo4(data: ArrayBufferView): Uint8Array {
  const out = new Uint8Array(Math.ceil(data.byteLength / 4) * 4);
  out.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  return out;
}
