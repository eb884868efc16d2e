// LoRA on the GPU: the adapter path's forward and backward against float64 loops on fresh random data, and rollout
// weights (base + adapters, no merged copy) against peft's logits for the exported adapter on a transformers base.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sharedNodeGpu } from '../../gpu/node';
import { freshSeed, maxRelDiff, mulberry32 } from '../../testing/random';
import { decodeSafetensors, toFloat32 } from '../checkpoint-safetensors';
import { preset } from '../config';
import { fp32Weights } from '../decode-weights';
import { forwardAllLogits } from '../decode';
import { buildLayout } from '../layout';
import { GpuModel } from '../model';
import { buildExportCases } from './export-cases-node';
import { importPeftAdapter } from './export';
import { FIXTURE_ROOT, fixtureSource } from './fixtures-node';
import { importHfModel } from './import';
import { initLora } from './lora';
import { GpuLora, withLora } from './lora-gpu';
import { adamwStepRef } from '../../gpu/kernels/adamw';
import { gradNormRef } from '../../gpu/kernels/gradnorm';
import { DEFAULT_OPTIM } from '../backward-step';
import { RolloutWeights } from '../rollout-weights';
import { dequantize, quantize } from '../../gpu/quant';
import { referenceForward } from '../reference';
import { mergeLora } from './lora';

/** C[M, N] = sum_k A[m, k]·B[k, n] with accessors, in float64. */
function mm(
  M: number,
  N: number,
  K: number,
  a: (m: number, k: number) => number,
  b: (k: number, n: number) => number,
): Float64Array {
  const c = new Float64Array(M * N);
  for (let m = 0; m < M; m++) for (let n = 0; n < N; n++) for (let k = 0; k < K; k++) c[m * N + n] += a(m, k) * b(k, n);
  return c;
}

describe('LoRA adapter path on the GPU', () => {
  const seed = freshSeed();

  it(`forward y += s·(x·Aᵀ)·Bᵀ and backward dA, dB, dx match float64 (seed ${seed})`, async () => {
    const gpu = await sharedNodeGpu();
    const layout = buildLayout(preset('micro', { hidden: 40, intermediate: 72 }));
    const lora = initLora(layout, { rank: 3, alpha: 7, targets: ['down_proj'] }, seed, { bStd: 0.5 });
    const [name, pair] = [...lora.pairs][0];
    const w = pair.base; // [40, 72]: out 40, in 72
    const [out, inp] = w.shape;
    const r = 3;
    const s = 7 / 3;
    const M = 37;
    const rng = mulberry32(seed + 1);
    const rand = (n: number) => Float32Array.from({ length: n }, () => rng() * 2 - 1);
    const x = rand(M * inp);
    const y0 = rand(M * out);
    const dy = rand(M * out);
    const dx0 = rand(M * inp);
    const g = new GpuLora(gpu, lora, 'lora-test');
    const bufs = [x, y0, dy, dx0].map((a, i) => gpu.buffer(`lora-test.${i}`, a));
    const [xb, yb, dyb, dxb] = bufs;
    const t = g.forward(w, yb, xb, M);
    g.backward(w, dyb, xb, t, M, dxb);
    // A second backward accumulates: gradients double.
    g.backward(w, dyb, xb, t, M, dxb);
    gpu.release(t);
    const [y, dx] = await Promise.all([gpu.readF32(yb, M * out), gpu.readF32(dxb, M * inp)]);
    const grads = (await g.read('grads')).get(name);
    const { A, B } = pair;
    const tt = mm(
      M,
      r,
      inp,
      (m, k) => x[m * inp + k],
      (k, n) => A[n * inp + k],
    );
    const yRef = mm(
      M,
      out,
      r,
      (m, k) => tt[m * r + k],
      (k, n) => B[n * r + k],
    ).map((v, i) => y0[i] + s * v);
    const dB = mm(
      out,
      r,
      M,
      (m, k) => dy[k * out + m],
      (k, n) => tt[k * r + n],
    ).map((v) => 2 * s * v);
    const dt = mm(
      M,
      r,
      out,
      (m, k) => dy[m * out + k],
      (k, n) => B[k * r + n],
    ).map((v) => s * v);
    const dA = mm(
      r,
      inp,
      M,
      (m, k) => dt[k * r + m],
      (k, n) => x[k * inp + n],
    ).map((v) => 2 * v);
    const dxRef = mm(
      M,
      inp,
      r,
      (m, k) => dt[m * r + k],
      (k, n) => A[k * inp + n],
    ).map((v, i) => dx0[i] + 2 * v);
    const diffs = {
      y: maxRelDiff(y, yRef),
      dA: maxRelDiff(grads?.A ?? [], dA),
      dB: maxRelDiff(grads?.B ?? [], dB),
      dx: maxRelDiff(dx, dxRef),
    };
    console.log(
      `LoRA GPU path vs float64 (M ${M}, ${inp}→${out}, r ${r}): ${Object.entries(diffs)
        .map(([k, v]) => `${k} ${v.toExponential(2)}`)
        .join(', ')}`,
    );
    for (const v of Object.values(diffs)) expect(v).toBeLessThan(1e-5);
    bufs.forEach((b) => b.destroy());
    g.destroy();
  });

  it(`AdamW with grad-norm clipping on the adapters only matches the CPU reference over two steps (seed ${seed})`, async () => {
    const gpu = await sharedNodeGpu();
    const layout = buildLayout(preset('micro'));
    const g = new GpuLora(
      gpu,
      initLora(layout, { rank: 2, alpha: 4, targets: ['q_proj', 'up_proj'] }, seed, { bStd: 0.1 }),
      'lora-adam',
    );
    const n = g.totalFloats;
    const p = Float64Array.from(await gpu.readF32(g.params, n));
    const m = new Float64Array(n);
    const v = new Float64Array(n);
    const rng = mulberry32(seed + 3);
    const optim = { ...DEFAULT_OPTIM, adamw: { ...DEFAULT_OPTIM.adamw, weightDecay: 0.1 }, maxGradNorm: 0.5 };
    for (let step = 1; step <= 2; step++) {
      const grads = Float32Array.from({ length: n }, () => rng() * 2 - 1);
      gpu.write(g.grads, grads);
      gpu.release(g.optimizerStep(optim));
      const { clip } = gradNormRef(grads, optim.maxGradNorm);
      expect(clip).toBeLessThan(1);
      adamwStepRef(p, m, v, grads, clip, optim.adamw, step);
    }
    const diff = maxRelDiff(await gpu.readF32(g.params, n), p);
    console.log(`LoRA AdamW (2 steps, clipped) GPU vs CPU: max rel diff ${diff.toExponential(2)}`);
    expect(diff).toBeLessThan(1e-5);
    expect(g.step).toBe(2);
    g.destroy();
  });

  it('int8 rollout copy of the base + adapters equals the float64 model on (dequantized base) merged with the adapters', async () => {
    const gpu = await sharedNodeGpu();
    const hf = await importHfModel(fixtureSource('qwen2-untied-mqa-f32'));
    const model = GpuModel.fromCheckpoint(gpu, hf, 'lora-int8-base');
    const adapters = initLora(hf.layout, { rank: 4, alpha: 8, targets: ['q_proj', 'v_proj', 'down_proj'] }, seed, {
      bStd: 0.1,
    });
    const lora = new GpuLora(gpu, adapters, 'lora-int8');
    const rollout = new RolloutWeights(model, 'int8-b32');
    const deq = hf.params.slice();
    for (const t of [
      ...hf.layout.layers.flatMap((l) => [l.q, l.k, l.v, l.o, l.gate, l.up, l.down]),
      hf.layout.lmHead,
    ]) {
      deq.set(
        dequantize(
          quantize(hf.params.subarray(t.offset, t.offset + t.size), t.shape[0], t.shape[1], 'int8-b32'),
        ).subarray(0, t.size),
        t.offset,
      );
    }
    const ids = [5, 77, 300, 12, 9, 401, 33];
    const { logits } = forwardAllLogits(withLora(rollout, lora), [ids], 0);
    const ours = await gpu.readF32(logits, ids.length * hf.config.vocabSize);
    logits.destroy();
    const ref = referenceForward(hf.layout, mergeLora(Float64Array.from(deq), adapters), {
      batch: 1,
      seqLen: ids.length,
      tokens: ids,
    }).logits;
    const diff = maxRelDiff(ours, ref);
    console.log(
      `int8 base + LoRA on the GPU vs float64 (dequantized base, merged): max rel diff ${diff.toExponential(2)}`,
    );
    expect(diff).toBeLessThan(1e-4);
    rollout.destroy();
    lora.destroy();
    model.destroy();
  });

  it('rollout weights = transformers base + PEFT adapter, no merged copy: logits within 1e-4 of peft', async () => {
    const gpu = await sharedNodeGpu();
    const c = (await buildExportCases()).find((e) => e.name === 'lora-peft-adapter');
    if (!c) throw new Error('no lora-peft-adapter case');
    const hf = await importHfModel(fixtureSource(c.base ?? ''));
    const model = GpuModel.fromCheckpoint(gpu, hf, 'lora-base');
    const adapters = importPeftAdapter(
      hf.layout,
      c.files.get('adapter_config.json') as string,
      c.files.get('adapter_model.safetensors') as Uint8Array,
    );
    const lora = new GpuLora(gpu, adapters, 'lora-peft');
    const peft = decodeSafetensors(readFileSync(`${FIXTURE_ROOT}exports/lora-peft-adapter.safetensors`)).tensors;
    const V = hf.config.vocabSize;
    let worst = 0;
    for (const [i, ids] of c.prompts.entries()) {
      const { logits } = forwardAllLogits(withLora(fp32Weights(model), lora), [ids], 0);
      const ours = await gpu.readF32(logits, ids.length * V);
      logits.destroy();
      const t = peft.get(`prompt${i}.logits`);
      worst = Math.max(worst, maxRelDiff(ours, t ? toFloat32(t) : []));
    }
    // Without the adapters the same weights give the base model, which differs from peft's clearly.
    const { logits } = forwardAllLogits(fp32Weights(model), [c.prompts[0]], 0);
    const plain = await gpu.readF32(logits, c.prompts[0].length * V);
    logits.destroy();
    const t0 = peft.get('prompt0.logits');
    const baseGap = maxRelDiff(plain, t0 ? toFloat32(t0) : []);
    console.log(
      `GPU base + LoRA vs peft: max rel diff ${worst.toExponential(2)} (base alone: ${baseGap.toExponential(2)})`,
    );
    expect(worst).toBeLessThan(1e-4);
    expect(baseGap).toBeGreaterThan(1e-2);
    lora.destroy();
    model.destroy();
  });
});
