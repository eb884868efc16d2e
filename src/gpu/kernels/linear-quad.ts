// Quad-shared fp32 matmul (shaders/linear_quad.wgsl) for the model's linear layers, with the same arguments as
// matmul(); it falls back to matmul() where it does not apply (no 'subgroups', unaligned shapes, small M).
import linearQuadSource from '../../../shaders/linear_quad.wgsl?raw';
import matmulIoSource from '../../../shaders/common/matmul_io.wgsl?raw';
import matmulTileSource from '../../../shaders/common/matmul_tile.wgsl?raw';
import storeTileSource from '../../../shaders/common/store_tile.wgsl?raw';
import { ceilDiv, Kernel } from '../launcher';
import type { Gpu } from '../runtime';
import { fastMatmulFits, matmul, MATMUL_UNIFORMS, splitOperand, type MatmulArgs, type MatmulUniform } from './matmul';
import { softwareAdapter } from './logprobs';

const kernel = new Kernel<MatmulUniform>({
  family: 'matmul',
  source: linearQuadSource + matmulIoSource + matmulTileSource + storeTileSource,
  uniforms: MATMUL_UNIFORMS,
});

/** Whether linearMatmul would take the quad kernel for these arguments on this device. */
export function quadMatmulApplies(gpu: Gpu, args: MatmulArgs): boolean {
  const { quad, minRows } = gpu.tuning.linear;
  if (!quad || !gpu.hasSubgroups || args.impl) return false;
  const offsets = [args.a, args.b, args.c].map((o) => splitOperand(o).offset);
  // 8-row tiles: below ~32 rows (decode) most lanes would be clamped copies; matmul picks smaller tiles there.
  return args.M >= minRows && args.N >= 8 && args.K >= 4 && fastMatmulFits(args, offsets);
}

/** Records C = alpha·op(A)·op(B) (+ C when accumulate), like matmul(). */
export function linearMatmul(gpu: Gpu, args: MatmulArgs): void {
  if (!quadMatmulApplies(gpu, args)) {
    matmul(gpu, args);
    return;
  }
  const { M, N, K, transA = false, transB = false, accumulate = false, alpha = 1 } = args;
  const a = splitOperand(args.a);
  const b = splitOperand(args.b);
  const c = splitOperand(args.c);
  for (const [name, op, n] of [
    ['A', a, M * K],
    ['B', b, K * N],
    ['C', c, M * N],
  ] as const) {
    // Robustness is off in Dawn: an out-of-range shape must be caught here.
    if ((op.offset + n) * 4 > op.buffer.size)
      throw new Error(
        `linearMatmul: ${name} needs ${(op.offset + n) * 4} bytes but '${op.buffer.label}' has ${op.buffer.size}`,
      );
  }
  // x lanes: enough 8-column tiles to cover N (a multiple of 4, at most 16), so narrow outputs waste no lanes.
  const chunk = softwareAdapter(gpu) ? gpu.tuning.linear.kChunk : 0;
  if (transA && chunk > 0 && K > chunk && chunk % 4 === 0) {
    // Aᵀ·B over a long K (tokens): K-chunks accumulate one after another, each streaming slices that stay in cache.
    for (let k0 = 0; k0 < K; k0 += chunk) {
      const kc = Math.min(chunk, K - k0);
      linearMatmul(gpu, {
        ...args,
        a: { buffer: a.buffer, offset: a.offset + k0 * M },
        b: { buffer: b.buffer, offset: b.offset + k0 * N },
        K: kc,
        accumulate: accumulate || k0 > 0,
      });
    }
    return;
  }
  const [wx, wy] = args.wg ?? [Math.min(16, 4 * Math.ceil(N / 32)), 4];
  if (wx % 4 !== 0) throw new Error('linearMatmul: workgroup x must be a multiple of 4 (quads share rows)');
  kernel.dispatch(gpu, {
    buffers: [a.buffer, b.buffer, c.buffer],
    uniforms: { M, N, K, alpha, beta: accumulate ? 1 : 0, aOff: a.offset, bOff: b.offset, cOff: c.offset },
    workgroups: [ceilDiv(N, 8 * wx), ceilDiv(ceilDiv(M, 8), wy)],
    overrides: { TRANS_A: transA ? 1 : 0, TRANS_B: transB ? 1 : 0, WG_X: wx, WG_Y: wy },
  });
}
