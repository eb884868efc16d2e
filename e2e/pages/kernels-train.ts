// The kernel page's checks of the attention backward and the GRPO loss against their CPU references: on the page's
// device (8 storage buffers per stage, the lab's stated need) these run the 8-buffer variants (merge-storage.ts), the
// attention both as the WGSL files' kernels and as the generated ones, so each browser's compiler sees every variant.
import type { Gpu } from '../../src/gpu/runtime';
import { attentionBackward, attentionForward, type AttentionShape } from '../../src/gpu/kernels/attention';
import { attentionBackwardRef, attentionForwardRef } from '../../src/gpu/kernels/attention-ref';
import { packedStorage } from '../../src/gpu/kernels/merge-storage';
import { maxAbsDiff, randomF32 } from '../../src/testing/random';
import { grpoLossAgainstRef } from '../../src/testing/grpo-loss-check';

/** One check's verdict on the kernel page (kernels.ts imports it from here: the training checks import nothing back). */
export interface CheckResult {
  name: string;
  diff: number;
  tol: number;
  /** A measured figure worth printing beside the verdict. */
  note?: string;
}

const variantName = (gpu: Gpu) => (packedStorage(gpu.device) ? '8-buffer' : '9-buffer');

async function attentionCheck(gpu: Gpu, rng: () => number, unrolled: boolean): Promise<CheckResult[]> {
  const s: AttentionShape = { B: 2, S: 19, Hq: 4, Hkv: 2, Dh: 8, maskQueries: true };
  const T = s.B * s.S;
  const q = randomF32(T * s.Hq * s.Dh, rng, 1.5);
  const k = randomF32(T * s.Hkv * s.Dh, rng, 1.5);
  const v = randomF32(T * s.Hkv * s.Dh, rng);
  const dout = randomF32(T * s.Hq * s.Dh, rng);
  // Left pads, a hole and right pads in each sequence.
  const mask = new Float32Array(T).fill(1);
  for (let b = 0; b < s.B; b++) {
    const left = Math.floor(rng() * 4);
    for (let p = 0; p < left; p++) mask[b * s.S + p] = 0;
    mask[b * s.S + left + 2] = 0;
    for (let p = s.S - Math.floor(rng() * 6); p < s.S; p++) mask[b * s.S + p] = 0;
  }
  const [gq, gk, gv, gdo, gm] = [q, k, v, dout, Uint32Array.from(mask)].map((a, i) => gpu.buffer(`attn.in${i}`, a));
  const sizes = [s.Hq * s.Dh, s.Hq, s.Hq * s.Dh, s.Hkv * s.Dh, s.Hkv * s.Dh];
  const [out, lse, dq, dk, dv] = sizes.map((n) => gpu.buffer('attn.out', T * n * 4));
  const saved = gpu.tuning.attention.unrolled;
  gpu.tuning.attention.unrolled = unrolled;
  try {
    attentionForward(gpu, out, lse, gq, gk, gv, gm, s);
    attentionBackward(gpu, dq, dk, dv, gdo, gq, gk, gv, gm, out, lse, s);
  } finally {
    gpu.tuning.attention.unrolled = saved;
  }
  const want = attentionBackwardRef(q, k, v, mask, dout, s);
  const name = `attention ${unrolled ? 'generated' : 'WGSL file'} ${variantName(gpu)}`;
  const results = [
    { name: `${name} out`, diff: maxAbsDiff(await gpu.readF32(out), attentionForwardRef(q, k, v, mask, s).out) },
    { name: `${name} dq`, diff: maxAbsDiff(await gpu.readF32(dq), want.dq) },
    { name: `${name} dk`, diff: maxAbsDiff(await gpu.readF32(dk), want.dk) },
    { name: `${name} dv`, diff: maxAbsDiff(await gpu.readF32(dv), want.dv) },
  ].map((r) => ({ ...r, tol: 1e-5 }));
  [gq, gk, gv, gdo, gm, out, lse, dq, dk, dv].forEach((b) => b.destroy());
  return results;
}

async function grpoCheck(gpu: Gpu, rng: () => number): Promise<CheckResult[]> {
  // dapo reads the token count from stats, grpo each sequence's from seqStats: both halves of the packed buffer.
  const out: CheckResult[] = [];
  for (const loss_type of ['grpo', 'dapo'] as const) {
    const d = await grpoLossAgainstRef(gpu, rng, loss_type);
    const name = `grpo loss ${loss_type} ${variantName(gpu)}`;
    out.push(
      { name: `${name} stats (relative)`, diff: d.stats, tol: 2e-5 },
      { name: `${name} dlogp`, diff: d.dlogp, tol: 1e-6 },
    );
  }
  return out;
}

export async function trainingKernelChecks(gpu: Gpu, rng: () => number): Promise<CheckResult[]> {
  return [
    ...(await attentionCheck(gpu, rng, false)),
    ...(await attentionCheck(gpu, rng, true)),
    ...(await grpoCheck(gpu, rng)),
  ];
}
