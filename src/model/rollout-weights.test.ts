// GPU re-quantization of the rollout weights against the CPU quantizer (src/gpu/quant.ts), and refresh() after the
// learner's parameters change.
import { describe, expect, it } from 'vitest';
import { sharedNodeGpu } from '../gpu/node';
import { freshSeed } from '../testing/random';
import { preset } from './config';
import { buildLayout, view } from './layout';
import { initParams } from './init';
import { GpuModel } from './model';
import { dequantize, quantize, QUANT_FORMATS, type QuantizedTensor } from '../gpu/quant';
import { RolloutWeights } from './rollout-weights';
import { referenceForward } from './reference';
import { generate } from './sampler';

const seed = freshSeed();

async function readQuant(
  w: RolloutWeights,
  t: Parameters<RolloutWeights['quant']['get']>[0],
): Promise<QuantizedTensor> {
  const q = w.quant.get(t);
  if (!q) throw new Error('missing');
  const gpu = w.model.gpu;
  return {
    format: q.format,
    rows: q.rows,
    cols: q.cols,
    data: await gpu.readU32(q.data),
    scales: await gpu.readF32(q.scales),
  };
}

describe(`rollout weights (seed ${seed})`, () => {
  // Odd column counts exercise the zero padding of the last block.
  const layout = buildLayout(preset('micro', { hidden: 40, intermediate: 72 }));
  for (const format of QUANT_FORMATS) {
    it(`GPU quantization matches the CPU quantizer: ${format}`, async () => {
      const gpu = await sharedNodeGpu();
      const params = initParams(layout, seed, { std: 0.3 });
      const model = new GpuModel(gpu, layout, params);
      const w = new RolloutWeights(model, format);
      let codeDiffs = 0;
      let codes = 0;
      let worst = 0;
      for (const t of w.quant.keys()) {
        const got = await readQuant(w, t);
        const want = quantize(view(params, t), t.shape[0], t.shape[1], format);
        for (let i = 0; i < want.scales.length; i++)
          expect(Math.abs(got.scales[i] - want.scales[i])).toBeLessThanOrEqual(Math.abs(want.scales[i]) * 2e-7);
        // Codes may differ by one where w·(1/scale) lands on a rounding boundary in f32 but not in f64.
        const a = dequantize(got);
        const b = dequantize(want);
        const spr = want.scales.length / want.rows;
        for (let i = 0; i < a.length; i++) {
          const step =
            want.scales[Math.floor(i / want.cols) * spr + (spr === 1 ? 0 : Math.floor((i % want.cols) / 32))];
          const d = Math.abs(a[i] - b[i]);
          if (d > 0) codeDiffs++;
          worst = Math.max(worst, d / Math.max(step, 1e-30));
        }
        codes += a.length;
        expect(Array.from(got.data).length).toBe(want.data.length);
      }
      console.log(
        `quantize ${format}: ${codeDiffs}/${codes} codes off by <= ${worst.toFixed(3)} steps, ${w.bytes()} bytes`,
      );
      expect(worst).toBeLessThanOrEqual(1.0001);
      expect(codeDiffs).toBeLessThan(codes * 1e-3 + 2);
      w.destroy();
      model.destroy();
    });
  }

  it('refresh() re-quantizes from the updated fp32 parameters', async () => {
    const gpu = await sharedNodeGpu();
    const params = initParams(layout, seed, { std: 0.3 });
    const model = new GpuModel(gpu, layout, params);
    const w = new RolloutWeights(model, 'int8-b32');
    const t = layout.layers[1].gate;
    const before = dequantize(await readQuant(w, t));
    const updated = initParams(layout, seed + 1, { std: 0.3 });
    model.upload(updated);
    const stale = dequantize(await readQuant(w, t));
    expect(Array.from(stale)).toEqual(Array.from(before));
    w.refresh();
    const after = dequantize(await readQuant(w, t));
    const want = dequantize(quantize(view(updated, t), t.shape[0], t.shape[1], 'int8-b32'));
    let diff = 0;
    for (let i = 0; i < want.length; i++) diff = Math.max(diff, Math.abs(after[i] - want[i]));
    console.log(`refresh: max |dequant diff| vs CPU quantizer ${diff.toExponential(2)}`);
    expect(diff).toBeLessThan((0.3 / 127) * 6);
    expect(Array.from(after)).not.toEqual(Array.from(before));
    w.destroy();
    model.destroy();
  });

  it('greedy decoding on int8 weights equals the float64 reference run on the dequantized weights', async () => {
    const gpu = await sharedNodeGpu();
    // Untied, so the embedding lookup (fp32 in both) and the quantized lm_head are separate tensors.
    const lay = buildLayout(preset('micro', { tiedEmbeddings: false }));
    const params = initParams(lay, seed, { std: 0.35, biasStd: 0.1 });
    const model = new GpuModel(gpu, lay, params);
    const w = new RolloutWeights(model, 'int8-b32');
    const deq = Float64Array.from(params);
    for (const t of w.quant.keys())
      deq.set(dequantize(quantize(view(params, t), t.shape[0], t.shape[1], 'int8-b32')), t.offset);
    const prompts = [
      [11, 22, 33, 44],
      [55, 66],
    ];
    const n = 10;
    const got = await generate(w, prompts, { maxNewTokens: n, temperature: 0, seed: 0, stopTokenIds: [] });
    const V = lay.config.vocabSize;
    let compared = 0;
    prompts.forEach((p, b) => {
      const seq = [...p];
      for (let i = 0; i < n; i++) {
        const { logits } = referenceForward(lay, deq, { batch: 1, seqLen: seq.length, tokens: seq });
        const row = logits.subarray((seq.length - 1) * V, seq.length * V);
        const order = Array.from(row.keys()).sort((x, y) => row[y] - row[x]);
        if (row[order[0]] - row[order[1]] < 1e-4) break; // a near-tie may go either way in f32
        expect(got[b].tokens[i]).toBe(order[0]);
        seq.push(order[0]);
        compared++;
      }
    });
    console.log(`int8 greedy vs float64 reference on dequantized weights: ${compared} tokens equal`);
    expect(compared).toBeGreaterThan(n);
    w.destroy();
    model.destroy();
  });
});
