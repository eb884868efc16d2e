// GPU backward pass: from dL/dlogits [T, V] through every layer into the flat gradient buffer (accumulating).
import { matmul } from '../gpu/kernels/matmul';
import { linearMatmul } from '../gpu/kernels/linear-quad';
import { rmsnormBackward } from '../gpu/kernels/rmsnorm';
import { ropeBackward } from '../gpu/kernels/rope';
import { swigluBackward } from '../gpu/kernels/swiglu';
import { embeddingBackward } from '../gpu/kernels/embedding';
import { elementwise } from '../gpu/kernels/elementwise';
import { scatterRows } from '../gpu/kernels/rows';
import { zeroBuffer } from '../gpu/kernels/adamw';
import type { GpuBatch } from './forward-batch';
import { layerForward, passWidths, releaseLayer, type ForwardResult } from './forward';
import { attnBackward } from './forward-attention';
import type { GpuModel } from './model';
import type { TensorSpec } from './layout';

/**
 * Linear backward for y[T, N] = x[T, K]·Wᵀ + b: dW[N, K] += dyᵀ·x and db[N] += onesᵀ·dy (into the flat grads);
 * dx[T, K] = dy·W is written, or added when `accumulateDx` (several projections share one input). A frozen-base
 * model hands the whole step to its FrozenLinears (adapter gradients and dx only).
 */
export function linearBackward(
  model: GpuModel,
  dx: GPUBuffer | null,
  dy: GPUBuffer,
  x: GPUBuffer,
  w: TensorSpec,
  bias: TensorSpec | undefined,
  T: number,
  accumulateDx = false,
): void {
  if (model.frozen) {
    model.frozen.backward(dx, dy, x, w, T, accumulateDx);
    return;
  }
  const [N, K] = w.shape;
  const gpu = model.gpu;
  linearMatmul(gpu, { a: dy, b: x, c: model.g(w), M: N, N: K, K: T, transA: true, accumulate: true });
  if (bias) matmul(gpu, { a: model.ones(T), b: dy, c: model.g(bias), M: 1, N, K: T, accumulate: true });
  if (dx) linearMatmul(gpu, { a: dy, b: model.p(w), c: dx, M: T, N: K, K: N, accumulate: accumulateDx });
}

/**
 * Records the backward of `forward(model, batch, keep = true)` given dLogits ([T, V], or [n, V] for a forward on
 * head rows). Parameter gradients ACCUMULATE into
 * model.grads (zero them first for a fresh step; leave them to sum micro-batches). Releases nothing of `fwd`.
 */
export function backward(model: GpuModel, batch: GpuBatch, fwd: ForwardResult, dLogits: GPUBuffer): void {
  const acts = fwd.acts;
  if (!acts) throw new Error('backward: the forward pass was run without keeping activations');
  const gpu = model.gpu;
  const c = model.config;
  const layout = model.layout;
  const { T } = batch;
  const { H, qW, kW, I, f32 } = passWidths(model);

  const dhf = f32('grad.hf', T * H);
  if (fwd.head) {
    // The head ran on selected rows: dLogits is [n, V]; the other rows' dhf is 0.
    const { rows, n, hf } = fwd.head;
    const dRows = f32('grad.hfRows', n * H);
    linearBackward(model, dRows, dLogits, hf, layout.lmHead, undefined, n);
    zeroBuffer(gpu, dhf, T * H);
    scatterRows(gpu, dhf, dRows, rows, n, T, H);
    gpu.release(dRows);
  } else {
    linearBackward(model, dhf, dLogits, acts.hf, layout.lmHead, undefined, T);
  }
  let dx = f32('grad.xFinal', T * H);
  model.accumulateGrad(layout.finalNorm, (dw) =>
    rmsnormBackward(gpu, dx, dw, dhf, acts.xFinal, model.mirror(layout.finalNorm), acts.rstdF, T, H),
  );
  gpu.release(dhf);

  for (let l = layout.layers.length - 1; l >= 0; l--) {
    const L = layout.layers[l];
    // Recompute: re-run the layer's forward from its saved input (same kernels, same numbers), released below.
    const re = acts.inputs ? layerForward(model, l, acts.inputs[l], batch) : undefined;
    if (re) gpu.release(re.xOut);
    const a = re ? re.acts : acts.layers[l];
    // MLP: x_out = x_mid + down(silu(gate(h2)) · up(h2)).
    const da = f32(`grad.${l}.swiglu`, T * I);
    linearBackward(model, da, dx, a.a, L.down, undefined, T);
    const dg = f32(`grad.${l}.gate`, T * I);
    const du = f32(`grad.${l}.up`, T * I);
    swigluBackward(gpu, dg, du, da, a.g, a.u, T * I);
    gpu.release(da);
    const dh2 = f32(`grad.${l}.h2`, T * H);
    linearBackward(model, dh2, dg, a.h2, L.gate, undefined, T);
    linearBackward(model, dh2, du, a.h2, L.up, undefined, T, true);
    gpu.release(dg);
    gpu.release(du);
    const dxMidNorm = f32(`grad.${l}.xMidNorm`, T * H);
    model.accumulateGrad(L.postNorm, (dw) =>
      rmsnormBackward(gpu, dxMidNorm, dw, dh2, a.xMid, model.mirror(L.postNorm), a.rstd2, T, H),
    );
    gpu.release(dh2);
    const dxMid = f32(`grad.${l}.xMid`, T * H);
    elementwise(gpu, 'add', dxMid, dxMidNorm, dx, T * H);
    gpu.release(dxMidNorm);
    gpu.release(dx);
    // Attention: x_mid = x + o(attn(rope(q(h1)), rope(k(h1)), v(h1))).
    const dAttn = f32(`grad.${l}.attn`, T * qW);
    linearBackward(model, dAttn, dxMid, a.attn, L.o, undefined, T);
    const dq = f32(`grad.${l}.q`, T * qW);
    const dk = f32(`grad.${l}.k`, T * kW);
    const dv = f32(`grad.${l}.v`, T * kW);
    attnBackward(model, dq, dk, dv, dAttn, a.q, a.k, a.v, a.attn, a.attnSaved, batch);
    gpu.release(dAttn);
    const dqPre = f32(`grad.${l}.qPre`, T * qW);
    const dkPre = f32(`grad.${l}.kPre`, T * kW);
    ropeBackward(gpu, dqPre, dq, batch.positions, model.rope, T, c.heads);
    ropeBackward(gpu, dkPre, dk, batch.positions, model.rope, T, c.kvHeads);
    gpu.release(dq);
    gpu.release(dk);
    const dh1 = f32(`grad.${l}.h1`, T * H);
    linearBackward(model, dh1, dqPre, a.h1, L.q, L.qBias, T);
    linearBackward(model, dh1, dkPre, a.h1, L.k, L.kBias, T, true);
    linearBackward(model, dh1, dv, a.h1, L.v, L.vBias, T, true);
    [dqPre, dkPre, dv].forEach((b) => gpu.release(b));
    const dxInNorm = f32(`grad.${l}.xNorm`, T * H);
    model.accumulateGrad(L.inputNorm, (dw) =>
      rmsnormBackward(gpu, dxInNorm, dw, dh1, a.x, model.mirror(L.inputNorm), a.rstd1, T, H),
    );
    gpu.release(dh1);
    dx = f32(`grad.${l}.x`, T * H);
    elementwise(gpu, 'add', dx, dxInNorm, dxMid, T * H);
    gpu.release(dxInNorm);
    gpu.release(dxMid);
    if (re) releaseLayer(gpu, { ...re.acts, x: null });
  }
  // A frozen base's embedding gets no gradient (and a 152k-row table no scratch copy either).
  if (!model.frozen)
    model.accumulateGrad(layout.embed, (dTable) => embeddingBackward(gpu, dTable, dx, batch.tokens, T, H, c.vocabSize));
  gpu.release(dx);
}
