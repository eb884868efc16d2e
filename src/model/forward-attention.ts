// The model's one seam to the attention kernels: causal GQA forward (saving lse) and its backward.
import { attentionBackward, attentionForward, type AttentionShape } from '../gpu/kernels/attention';
import type { GpuBatch } from './forward-batch';
import type { GpuModel } from './model';

/** What the attention backward needs besides q, k, v and the output: the per-(row, head) logsumexp. */
export interface AttnSaved {
  lse: GPUBuffer;
  /** Every pooled buffer in here, for release. */
  buffers: GPUBuffer[];
}

function shape(model: GpuModel, batch: GpuBatch): AttentionShape {
  const c = model.config;
  // Pad rows (valid = 0) are never read by a loss (masks only cover real tokens), so attention skips them.
  return {
    B: batch.B,
    S: batch.S,
    Hq: c.heads,
    Hkv: c.kvHeads,
    Dh: c.headDim,
    maskQueries: model.gpu.tuning.attention.maskQueries,
  };
}

/** out [T, heads·hd] ← q, k (after RoPE), v; pad keys (batch.valid = 0) are hidden. */
export function attnForward(
  model: GpuModel,
  out: GPUBuffer,
  q: GPUBuffer,
  k: GPUBuffer,
  v: GPUBuffer,
  batch: GpuBatch,
): AttnSaved {
  const lse = model.gpu.temp('act.attn.lse', batch.T * model.config.heads * 4);
  attentionForward(model.gpu, out, lse, q, k, v, batch.valid, shape(model, batch));
  return { lse, buffers: [lse] };
}

/** dq, dk, dv (written) ← dOut and the forward's tensors. */
export function attnBackward(
  model: GpuModel,
  dq: GPUBuffer,
  dk: GPUBuffer,
  dv: GPUBuffer,
  dOut: GPUBuffer,
  q: GPUBuffer,
  k: GPUBuffer,
  v: GPUBuffer,
  out: GPUBuffer,
  saved: AttnSaved,
  batch: GpuBatch,
): void {
  attentionBackward(model.gpu, dq, dk, dv, dOut, q, k, v, batch.valid, out, saved.lse, shape(model, batch));
}
