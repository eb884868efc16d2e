// GPU time per kernel family through timestamp-query; each profiled dispatch gets its own pass with timestampWrites.
import { Usage } from './buffers';

const CAPACITY = 1024; // timestamps per submit (2 per dispatch)

export interface FamilyTime {
  family: string;
  ms: number;
  dispatches: number;
}

export class GpuTimer {
  private querySet: GPUQuerySet;
  private resolveBuf: GPUBuffer;
  private labels: string[] = [];
  private totals = new Map<string, { ms: number; n: number }>();
  private inflight: Promise<void>[] = [];

  constructor(private readonly device: GPUDevice) {
    this.querySet = device.createQuerySet({ label: 'gpu-timer.queries', type: 'timestamp', count: CAPACITY });
    this.resolveBuf = device.createBuffer({
      label: 'gpu-timer.resolve',
      size: CAPACITY * 8,
      usage: Usage.QUERY_RESOLVE | Usage.COPY_SRC,
    });
  }

  /** Returns timestampWrites for a pass running `family`, or undefined when this submit's slots are used up. */
  slot(family: string): GPUComputePassTimestampWrites | undefined {
    const i = this.labels.length;
    if (2 * i + 2 > CAPACITY) return undefined;
    this.labels.push(family);
    return { querySet: this.querySet, beginningOfPassWriteIndex: 2 * i, endOfPassWriteIndex: 2 * i + 1 };
  }

  /** Appends the resolve + readback to the encoder; the totals update once the submit completes. */
  beforeSubmit(encoder: GPUCommandEncoder): (() => void) | undefined {
    const n = this.labels.length;
    if (n === 0) return undefined;
    const labels = this.labels;
    this.labels = [];
    const read = this.device.createBuffer({
      label: 'gpu-timer.read',
      size: n * 16,
      usage: Usage.MAP_READ | Usage.COPY_DST,
    });
    encoder.resolveQuerySet(this.querySet, 0, 2 * n, this.resolveBuf, 0);
    encoder.copyBufferToBuffer(this.resolveBuf, 0, read, 0, n * 16);
    return () => {
      const p = read.mapAsync(1 /* GPUMapMode.READ */).then(() => {
        const t = new BigInt64Array(read.getMappedRange().slice(0));
        read.unmap();
        read.destroy();
        labels.forEach((family, i) => {
          const dt = Number(t[2 * i + 1] - t[2 * i]) / 1e6;
          const acc = this.totals.get(family) ?? { ms: 0, n: 0 };
          acc.ms += Math.max(0, dt);
          acc.n += 1;
          this.totals.set(family, acc);
        });
      });
      this.inflight.push(p);
    };
  }

  async report(): Promise<FamilyTime[]> {
    await Promise.all(this.inflight);
    this.inflight = [];
    return [...this.totals.entries()]
      .map(([family, v]) => ({ family, ms: v.ms, dispatches: v.n }))
      .sort((a, b) => b.ms - a.ms);
  }

  reset(): void {
    this.totals.clear();
  }
}
