// Exported ONNX micro model on onnxruntime-web's wasm EP vs the float64 reference and our GPU forward (Dawn/SwiftShader).
import { describe, expect, it } from 'vitest';
import * as ort from 'onnxruntime-web';
import { sharedNodeGpu } from '../gpu/node';
import { freshSeed, maxRelDiff, mulberry32 } from '../testing/random';
import { preset } from './config';
import { destroyBatch, uploadBatch } from './forward-batch';
import { computeLogits } from './forward-logprobs';
import { initParams } from './init';
import { buildLayout, type Layout } from './layout';
import { GpuModel } from './model';
import { exportGpuModelOnnx, exportOnnx } from './onnx';
import { createOrtSession, emptyKv, ortKvStep, ortLogits } from './onnx/ort-run';
import { loadCheckpoint, saveCheckpoint } from './checkpoint';
import { referenceForward, toF64 } from './reference';

ort.env.wasm.numThreads = 1;

/** Random weights large enough that attention is far from uniform and every bias/norm path matters. */
function microCase(
  seed: number,
  overrides = {},
): { layout: Layout; params: Float32Array; tokens: Int32Array; B: number; S: number } {
  const layout = buildLayout(preset('micro', overrides));
  const params = initParams(layout, seed, { std: 0.15, biasStd: 0.1, normJitter: 0.2 });
  const rng = mulberry32(seed + 1);
  const [B, S] = [2, 9];
  const tokens = Int32Array.from({ length: B * S }, () => Math.floor(rng() * layout.config.vocabSize));
  return { layout, params, tokens, B, S };
}

function reference(layout: Layout, params: Float32Array, tokens: Int32Array, B: number, S: number): Float64Array {
  return referenceForward(layout, toF64(params), { batch: B, seqLen: S, tokens }).logits;
}

describe('ONNX export on onnxruntime-web (wasm EP)', () => {
  const seed = freshSeed();

  it(`fp32 logits match the float64 reference and the GPU engine within 1e-4 relative (seed ${seed})`, async () => {
    const { layout, params, tokens, B, S } = microCase(seed);
    const session = await createOrtSession(exportOnnx(params, layout), 'wasm');
    const onnx = await ortLogits(session, tokens, B, S);
    const ref = reference(layout, params, tokens, B, S);
    const gpu = await sharedNodeGpu();
    const model = new GpuModel(gpu, layout, params, 'onnx-test');
    const batch = uploadBatch(gpu, { batch: B, seqLen: S, tokens });
    const engine = await computeLogits(model, batch);
    destroyBatch(batch);
    // The UI's path (parameters read back from the GPU) gives the same bytes as exporting the host copy.
    expect(Buffer.from(await exportGpuModelOnnx(model)).equals(Buffer.from(exportOnnx(params, layout)))).toBe(true);
    const vsRef = maxRelDiff(onnx, ref);
    const vsEngine = maxRelDiff(onnx, engine);
    const engineVsRef = maxRelDiff(engine, ref);
    console.log(
      `onnx fp32 micro (seed ${seed}): max rel diff vs float64 ${vsRef.toExponential(2)}, vs GPU engine ${vsEngine.toExponential(2)} (engine vs float64 ${engineVsRef.toExponential(2)})`,
    );
    expect(onnx.length).toBe(B * S * layout.config.vocabSize);
    expect(vsRef).toBeLessThan(1e-4);
    expect(vsEngine).toBeLessThan(1e-4);
    await session.release();
  });

  it(`untied lm_head, no qkv bias, MHA (seed ${seed})`, async () => {
    const { layout, params, tokens, B, S } = microCase(seed + 2, { tiedEmbeddings: false, qkvBias: false, kvHeads: 4 });
    const session = await createOrtSession(exportOnnx(params, layout), 'wasm');
    const diff = maxRelDiff(await ortLogits(session, tokens, B, S), reference(layout, params, tokens, B, S));
    console.log(`onnx fp32 micro untied/no-bias/MHA: max rel diff vs float64 ${diff.toExponential(2)}`);
    expect(diff).toBeLessThan(1e-4);
    await session.release();
  });

  for (const quant of ['int8-row', 'int8-b32', 'int4-b32'] as const) {
    it(`${quant}: exactly the engine's dequantized weights; stated tolerance vs fp32 (seed ${seed})`, async () => {
      const { layout, params, tokens, B, S } = microCase(seed + 3);
      const session = await createOrtSession(exportOnnx(params, layout, { quant }), 'wasm');
      const onnx = await ortLogits(session, tokens, B, S);
      // The quantized checkpoint as our engine loads it: quant.ts codes and scales, dequantized to f32.
      const files = saveCheckpoint(layout, params, { quant });
      const deq = loadCheckpoint({ weights: files['model.safetensors'], config: files['config.json'] }).params;
      const vsDeq = maxRelDiff(onnx, reference(layout, deq, tokens, B, S));
      const vsFp32 = maxRelDiff(onnx, reference(layout, params, tokens, B, S));
      console.log(
        `onnx ${quant} micro: max rel diff vs float64 on dequantized weights ${vsDeq.toExponential(2)}, vs fp32 weights ${vsFp32.toExponential(2)}`,
      );
      expect(vsDeq).toBeLessThan(1e-4);
      // Weight error ≤ half a step (max|w|/127 int8, /7 int4) per weight moves these logits by ~2 % (int8) and
      // ~30–50 % (int4, random std-0.15 weights) of their range; stated bounds: 5 % int8, 100 % int4 (int4 is only
      // held to exactness against its own dequantized weights above).
      expect(vsFp32).toBeLessThan(quant === 'int4-b32' ? 1 : 5e-2);
      expect(vsFp32).toBeGreaterThan(vsDeq);
      await session.release();
    });
  }

  it(`KV form: prefill + two decode chunks reproduce the full form (seed ${seed})`, async () => {
    const { layout, params, tokens, B, S } = microCase(seed + 4);
    const c = layout.config;
    const V = c.vocabSize;
    const full = await createOrtSession(exportOnnx(params, layout), 'wasm');
    const want = await ortLogits(full, tokens, B, S);
    const kv = await createOrtSession(exportOnnx(params, layout, { kvCache: true }), 'wasm');
    const got = new Float32Array(B * S * V);
    let state = emptyKv(c, B);
    for (const [lo, hi] of [
      [0, 5],
      [5, 6],
      [6, S],
    ]) {
      const chunk = new Int32Array(B * (hi - lo));
      for (let b = 0; b < B; b++) chunk.set(tokens.subarray(b * S + lo, b * S + hi), b * (hi - lo));
      const step = await ortKvStep(kv, c, state, chunk, B, hi - lo);
      state = step.state;
      for (let b = 0; b < B; b++)
        got.set(step.logits.subarray(b * (hi - lo) * V, (b + 1) * (hi - lo) * V), (b * S + lo) * V);
    }
    expect(state.keys[0].dims).toEqual([B, c.kvHeads, S, c.headDim]);
    const diff = maxRelDiff(got, want);
    console.log(`onnx KV form (chunks 5+1+3) vs full form: max rel diff ${diff.toExponential(2)}`);
    expect(diff).toBeLessThan(1e-5);
    await full.release();
    await kv.release();
  });
});

describe('ONNX export with attention_mask / position_ids (left padding)', () => {
  const seed = freshSeed();
  it(`left-padded batch matches the float64 reference on real tokens, full and KV forms (seed ${seed})`, async () => {
    const { layout, params, tokens, B, S } = microCase(seed + 5);
    const c = layout.config;
    const V = c.vocabSize;
    // Row 1 is left-padded by 3: pad keys are invisible, RoPE positions start at 0 on its first real token.
    const padLen = [0, 3];
    const valid = new Int32Array(B * S);
    const positions = new Int32Array(B * S);
    for (let b = 0; b < B; b++) {
      for (let t = 0; t < S; t++) {
        valid[b * S + t] = t >= padLen[b] ? 1 : 0;
        positions[b * S + t] = Math.max(0, t - padLen[b]);
      }
    }
    const ref = referenceForward(layout, toF64(params), { batch: B, seqLen: S, tokens, positions, valid }).logits;
    const realOnly = (a: ArrayLike<number>) => {
      const out: number[] = [];
      for (let i = 0; i < B * S; i++) if (valid[i]) for (let v = 0; v < V; v++) out.push(a[i * V + v]);
      return out;
    };
    const full = await createOrtSession(exportOnnx(params, layout, { attentionMask: true }), 'wasm');
    const got = await ortLogits(full, tokens, B, S, { attentionMask: valid, positionIds: positions });
    const diff = maxRelDiff(realOnly(got), realOnly(ref));
    // Without the mask the padded row must change (the test can tell padding handling apart).
    const ones = new Int32Array(B * S).fill(1);
    const unmasked = await ortLogits(full, tokens, B, S, { attentionMask: ones, positionIds: positions });
    const padEffect = maxRelDiff(realOnly(unmasked), realOnly(ref));
    // KV form: prefill 6 then 3 single steps, the mask growing with the cache.
    const kv = await createOrtSession(exportOnnx(params, layout, { kvCache: true, attentionMask: true }), 'wasm');
    let state = emptyKv(c, B);
    const kvGot = new Float32Array(B * S * V);
    for (const [lo, hi] of [
      [0, 6],
      [6, 7],
      [7, 8],
      [8, S],
    ]) {
      const n = hi - lo;
      const pick = (a: Int32Array, from: number, to: number) => {
        const o = new Int32Array(B * (to - from));
        for (let b = 0; b < B; b++) o.set(a.subarray(b * S + from, b * S + to), b * (to - from));
        return o;
      };
      const step = await ortKvStep(kv, c, state, pick(tokens, lo, hi), B, n, {
        attentionMask: pick(valid, 0, hi),
        positionIds: pick(positions, lo, hi),
      });
      state = step.state;
      for (let b = 0; b < B; b++) kvGot.set(step.logits.subarray(b * n * V, (b + 1) * n * V), (b * S + lo) * V);
    }
    const kvDiff = maxRelDiff(realOnly(kvGot), realOnly(ref));
    console.log(
      `onnx attention_mask (left pad 3): full ${diff.toExponential(2)}, KV ${kvDiff.toExponential(2)} vs float64 on real tokens; unmasked pads move them ${padEffect.toExponential(2)}`,
    );
    expect(diff).toBeLessThan(1e-4);
    expect(kvDiff).toBeLessThan(1e-4);
    expect(padEffect).toBeGreaterThan(1e-3);
    await full.release();
    await kv.release();
  });
});
