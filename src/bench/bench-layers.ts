// Node-only timing of the non-matmul transformer kernels (embedding, RMSNorm, RoPE, SwiGLU, grad-norm, AdamW) at a
// tiny-model training shape. Run: npx tsx --import ./scripts/raw-loader.mjs src/bench/bench-layers.ts
import { sharedNodeGpu } from '../gpu/node';
import { embeddingBackward, embeddingForward } from '../gpu/kernels/embedding';
import { rmsnormBackward, rmsnormForward, type RowImpl } from '../gpu/kernels/rmsnorm';
import { createRopeTable, ropeBackward, ropeForward } from '../gpu/kernels/rope';
import { swigluBackwardFused, swigluForwardFused } from '../gpu/kernels/swiglu';
import { GRADNORM_OUT_BYTES, gradNorm } from '../gpu/kernels/gradnorm';
import { adamwStep } from '../gpu/kernels/adamw';
import { mulberry32, randomF32 } from '../testing/random';
import { runMain } from '../cli/args';

async function main(): Promise<void> {
  const gpu = await sharedNodeGpu();
  const rng = mulberry32(1);
  const [T, D, V, H, Dh, F, P] = [2048, 256, 1024, 8, 32, 688, 5_000_000];
  const buf = (label: string, n: number) => gpu.buffer(label, randomF32(n, rng));
  const ids = gpu.buffer(
    'ids',
    Uint32Array.from({ length: T }, () => Math.floor(rng() * V)),
  );
  const pos = gpu.buffer(
    'pos',
    Uint32Array.from({ length: T }, (_, i) => i % 512),
  );
  const [table, dTable, x, y, dy, w, dw, rstd] = [
    buf('table', V * D),
    buf('dTable', V * D),
    buf('x', T * D),
    buf('y', T * D),
    buf('dy', T * D),
    buf('w', D),
    buf('dw', D),
    buf('rstd', T),
  ];
  const rope = createRopeTable(gpu, Dh, 1e6, 1024);
  const [gu, dgu, h] = [buf('gu', 2 * T * F), buf('dgu', 2 * T * F), buf('h', T * F)];
  const [p, g, m, v] = [buf('p', P), buf('g', P), buf('m', P), buf('v', P)];
  const out = gpu.buffer('gradnorm.out', GRADNORM_OUT_BYTES);
  gpu.write(v, new Float32Array(P).fill(1));

  const time = async (name: string, f: () => void) => {
    f();
    await gpu.sync();
    const reps = 5;
    const t0 = performance.now();
    for (let i = 0; i < reps; i++) f();
    await gpu.sync();
    console.log(`${name.padEnd(44)} ${((performance.now() - t0) / reps).toFixed(2).padStart(9)} ms`);
  };
  console.log(`adapter: ${gpu.summary.description}`);
  await time(`embedding forward T=${T} D=${D}`, () => embeddingForward(gpu, y, table, ids, T, D, V));
  await time(`embedding backward T=${T} D=${D} V=${V}`, () => embeddingBackward(gpu, dTable, dy, ids, T, D, V));
  for (const impl of ['rows', 'workgroup'] as RowImpl[]) {
    await time(`rmsnorm forward (${impl}) T=${T} D=${D}`, () => rmsnormForward(gpu, y, rstd, x, w, T, D, 1e-6, impl));
    await time(`rmsnorm backward (${impl}) T=${T} D=${D}`, () =>
      rmsnormBackward(gpu, dy, dw, y, x, w, rstd, T, D, impl),
    );
  }
  await time(`rope forward T=${T} H=${H} Dh=${Dh}`, () => ropeForward(gpu, y, x, pos, rope, T, H));
  await time(`rope backward T=${T} H=${H} Dh=${Dh}`, () => ropeBackward(gpu, y, x, pos, rope, T, H));
  await time(`swiglu forward (fused) T=${T} F=${F}`, () => swigluForwardFused(gpu, h, gu, T, F));
  await time(`swiglu backward (fused) T=${T} F=${F}`, () => swigluBackwardFused(gpu, dgu, h, gu, T, F));
  await time(`gradnorm n=${P}`, () => gradNorm(gpu, out, g, P, 1));
  const cfg = { lr: 1e-3, beta1: 0.9, beta2: 0.95, eps: 1e-8, weightDecay: 0.1 };
  await time(`adamw n=${P}`, () => adamwStep(gpu, p, m, v, g, out, P, cfg, 1));
}

runMain(main);
