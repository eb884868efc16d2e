// F16Weights' two sources (GPU conversion of the learner's f32 weights, or half bits from the importer with no f32
// Linear copy), its size, and the rollout precision setting's refusal on adapters without 'shader-f16'.
import { describe, expect, it } from 'vitest';
import { sharedNodeGpu } from '../gpu/node';
import { softwareAdapter } from '../gpu/kernels/logprobs';
import { forwardAllLogits } from './decode';
import { GpuModel } from './model';
import { F16Weights } from './f16-weights';
import { rolloutWeightsFor } from './rollout-select';
import { fixtureSource, readReference } from './hf/fixtures-node';
import { importHfModel } from './hf/import';

const NAME = 'qwen2-tied-gqa-bf16';
const gpu = await sharedNodeGpu();
const variant = gpu.hasF16 ? 'native' : 'packed';

describe('F16Weights', () => {
  it(`imported half bits without f32 Linear weights run as the GPU-converted copy does (${variant})`, async () => {
    const ids = readReference().models[NAME].f32_compute.prompts[1].ids;
    const dense = await importHfModel(fixtureSource(NAME), { maxSeqLen: 64, weights: 'f16' });
    const sparse = await importHfModel(fixtureSource(NAME), { maxSeqLen: 64, weights: 'f16', denseLinear: false });
    const q = dense.layout.layers[0].q;
    // The dense import holds the f16-rounded weights in f32, the sparse one zeros; both carry the half bits.
    expect(dense.params.subarray(q.offset, q.offset + q.size).some((v) => v !== 0)).toBe(true);
    expect(sparse.params.subarray(q.offset, q.offset + q.size).every((v) => v === 0)).toBe(true);
    expect(sparse.halves?.size).toBe(dense.layout.layers.length * 7 + 1);
    const logits = async (ck: typeof dense, fromHalves: boolean) => {
      const model = GpuModel.fromCheckpoint(gpu, ck, 'f16w');
      const w = new F16Weights(model, { variant, halves: fromHalves ? ck.halves : undefined });
      const out = forwardAllLogits(w, [ids], 0);
      const v = await gpu.readF32(out.logits);
      const bytes = w.bytes();
      const halves: Uint16Array[] = [];
      for (const m of w.mats.values()) halves.push(new Uint16Array((await gpu.readU32(m.buffer)).buffer));
      out.logits.destroy();
      w.destroy();
      model.destroy();
      return { v, bytes, halves };
    };
    const a = await logits(dense, false);
    const b = await logits(sparse, true);
    // The GPU conversion gives the importer's bits back: the Linear weights are halves already, and the tied head's
    // f16 copy of the f32 embedding is rounded to nearest even by SwiftShader as by the CPU (WGSL allows either
    // neighbour, so another adapter may differ by one step there). Equal bits: the same computation, equal logits.
    let steps = 0;
    a.halves.forEach((h, i) => h.forEach((x, j) => (steps = Math.max(steps, Math.abs(x - b.halves[i][j])))));
    expect(steps).toBeLessThanOrEqual(softwareAdapter(gpu) ? 0 : 1);
    if (steps === 0) expect(b.v).toEqual(a.v);
    expect(a.v.some((x) => x !== 0)).toBe(true);
    // Half the bytes of f32 Linear weights (the fixture's widths are multiples of 4: no row padding).
    const L = dense.layout;
    const linear = [...L.layers.flatMap((l) => [l.q, l.k, l.v, l.o, l.gate, l.up, l.down]), L.lmHead];
    expect(a.bytes).toBe(linear.reduce((s, t) => s + t.size * 2, 0));
  });

  it("rollout precision 'f16' runs only where the device has 'shader-f16', and says what to use instead", async () => {
    const ck = await importHfModel(fixtureSource(NAME), { maxSeqLen: 64 });
    const model = GpuModel.fromCheckpoint(gpu, ck, 'f16sel');
    try {
      if (gpu.hasF16) {
        const w = rolloutWeightsFor(model, 'f16');
        expect(w).toBeInstanceOf(F16Weights);
        expect((w as F16Weights).variant).toBe('native');
        w.destroy?.();
      } else {
        console.log(`rollout precision f16: refused on this adapter, as it should be (no 'shader-f16')`);
        expect(() => rolloutWeightsFor(model, 'f16')).toThrow(
          /rollout\.rollout_quant 'f16' needs a WebGPU adapter with the 'shader-f16' feature.*Use 'none' \(f32\), 'int8' or 'int4'/,
        );
        expect(() => new F16Weights(model)).toThrow(/shader-f16/);
        expect(() => new F16Weights(model, { variant: 'native' })).toThrow(/shader-f16/);
      }
    } finally {
      model.destroy();
    }
  });
});
