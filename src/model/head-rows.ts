// Loss rows of a batch (its mask's non-zero positions): the heads of SFT, GRPO and reference log-probs run on these
// rows only, since prompt and pad rows never reach a loss.
import { scatterRows } from '../gpu/kernels/rows';
import { zeroBuffer } from '../gpu/kernels/adamw';
import type { HeadRows } from './forward';
import type { GpuBatch } from './forward-batch';
import type { GpuModel } from './model';

/** The batch's loss-mask rows with their targets and mask, as pooled temps (null when not worth it). */
export function lossRows(
  gpu: GpuModel['gpu'],
  batch: GpuBatch,
): { head: HeadRows; targets: GPUBuffer; mask: GPUBuffer } | null {
  const { mask, targets } = batch.host;
  if (!gpu.tuning.headRows || !mask || !targets) return null;
  const rows: number[] = [];
  for (let t = 0; t < batch.T; t++) if (mask[t] !== 0) rows.push(t);
  if (rows.length === 0 || rows.length > 0.9 * batch.T) return null;
  const n = rows.length;
  const upload = (label: string, data: Uint32Array | Float32Array) => {
    const b = gpu.temp(label, n * 4);
    gpu.write(b, data);
    return b;
  };
  return {
    head: { rows: upload('sft.rows', Uint32Array.from(rows)), n },
    targets: upload(
      'sft.targets',
      Uint32Array.from(rows, (t) => targets[t]),
    ),
    mask: upload(
      'sft.mask',
      Float32Array.from(rows, (t) => mask[t]),
    ),
  };
}

/** A pooled f32 [T] that is 0 except at the head rows, which get `rowsBuf` [n]. */
export function scatterToT(gpu: GpuModel['gpu'], rowsBuf: GPUBuffer, head: HeadRows, T: number): GPUBuffer {
  const out = gpu.temp('rows.scatterT', T * 4);
  zeroBuffer(gpu, out, T);
  scatterRows(gpu, out, rowsBuf, head.rows, head.n, T, 1);
  return out;
}
