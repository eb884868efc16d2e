// Buffer pool keyed by (size bucket, usage). Released buffers return to the pool only after the GPU has finished
// the submit that used them, so a kernel never sees its inputs overwritten by a later allocation.
/** The spec's GPUBufferUsage bits, as constants so modules can use them before the Node adapter installs globals. */
export const Usage = {
  MAP_READ: 0x1,
  MAP_WRITE: 0x2,
  COPY_SRC: 0x4,
  COPY_DST: 0x8,
  UNIFORM: 0x40,
  STORAGE: 0x80,
  QUERY_RESOLVE: 0x200,
} as const;

export const STORAGE = Usage.STORAGE | Usage.COPY_SRC | Usage.COPY_DST;

/** Round up so near-equal requests share pooled buffers: powers of two below 1 MiB, 1 MiB steps above. */
export function sizeBucket(bytes: number): number {
  const n = Math.max(16, Math.ceil(bytes / 16) * 16);
  if (n <= 1 << 20) return 2 ** Math.ceil(Math.log2(n));
  return Math.ceil(n / (1 << 20)) * (1 << 20);
}

export interface PoolStats {
  live: number;
  free: number;
  pendingRelease: number;
  bytesLive: number;
  bytesFree: number;
  allocations: number;
  reuses: number;
}

export class BufferPool {
  private free = new Map<string, GPUBuffer[]>();
  private pending: GPUBuffer[] = [];
  private live = new Set<GPUBuffer>();
  private allocations = 0;
  private reuses = 0;

  constructor(private readonly device: GPUDevice) {}

  acquire(bytes: number, usage: number = STORAGE, label = 'pooled'): GPUBuffer {
    const size = sizeBucket(bytes);
    const key = `${size}:${usage}`;
    const list = this.free.get(key);
    const reused = list?.pop();
    if (reused) {
      this.reuses++;
      reused.label = label;
      this.live.add(reused);
      return reused;
    }
    this.allocations++;
    const buf = this.device.createBuffer({ size, usage, label });
    this.live.add(buf);
    return buf;
  }

  /** Mark for reuse; it becomes available after the next `flush()` (called by the runtime after a submit completes). */
  release(buf: GPUBuffer): void {
    if (!this.live.delete(buf)) throw new Error(`BufferPool.release: buffer '${buf.label}' is not live in this pool`);
    this.pending.push(buf);
  }

  /** Called once the queue work submitted before this point is done: pending releases become reusable. */
  recycle(batch: GPUBuffer[]): void {
    for (const buf of batch) {
      const key = `${buf.size}:${buf.usage}`;
      let list = this.free.get(key);
      if (!list) this.free.set(key, (list = []));
      list.push(buf);
    }
  }

  takePending(): GPUBuffer[] {
    const p = this.pending;
    this.pending = [];
    return p;
  }

  stats(): PoolStats {
    let free = 0;
    let bytesFree = 0;
    for (const l of this.free.values()) {
      for (const b of l) {
        free++;
        bytesFree += b.size;
      }
    }
    let bytesLive = 0;
    for (const b of this.live) bytesLive += b.size;
    return {
      live: this.live.size,
      free,
      pendingRelease: this.pending.length,
      bytesLive,
      bytesFree,
      allocations: this.allocations,
      reuses: this.reuses,
    };
  }

  destroy(): void {
    for (const l of this.free.values()) for (const b of l) b.destroy();
    for (const b of this.pending) b.destroy();
    this.free.clear();
    this.pending = [];
  }
}
