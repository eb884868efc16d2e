// Memory planner: its byte counts agree with what the lab really allocates, and a plan that does not fit is refused
// with a setting that does.
import { describe, expect, it } from 'vitest';
import { padHalves } from '../../gpu/kernels/linear-f16';
import { preset } from '../config';
import { buildLayout } from '../layout';
import { quantize, quantizedBytes } from '../../gpu/quant';
import { mulberry32 } from '../../testing/random';
import { parseQwen2Config } from './config';
import {
  checkMemory,
  formatPlan,
  linearBytes,
  planMemory,
  suggestSettings,
  type DeviceLimits,
  type PlanSettings,
} from './memory-plan';
import { initLora, loraParamCount, LORA_TARGETS } from './lora';
import { QWEN_LORA_RUN } from './qwen-shapes';

const GiB = 2 ** 30;
const qwen05 = parseQwen2Config({
  architectures: ['Qwen2ForCausalLM'],
  model_type: 'qwen2',
  vocab_size: 151936,
  hidden_size: 896,
  intermediate_size: 4864,
  num_hidden_layers: 24,
  num_attention_heads: 14,
  num_key_value_heads: 2,
  rope_theta: 1e6,
  tie_word_embeddings: true,
  max_position_embeddings: 32768,
}).config;
const laptop: DeviceLimits = { maxBufferSize: 4 * GiB, maxStorageBufferBindingSize: 2 * GiB - 4, budgetBytes: 6 * GiB };
const loraRun = QWEN_LORA_RUN;
const lora16 = { rank: 16, alpha: 32, targets: [...LORA_TARGETS] };

describe('memory planner', () => {
  it('Linear bytes per format equal the real quantized tensors', () => {
    const rng = mulberry32(3);
    for (const [rows, cols] of [
      [7, 33],
      [16, 64],
      [5, 100],
    ]) {
      const w = Float32Array.from({ length: rows * cols }, () => rng() - 0.5);
      for (const f of ['int8-row', 'int8-b32', 'int4-b32'] as const)
        expect(linearBytes(rows, cols, f)).toBe(quantizedBytes(quantize(w, rows, cols, f)));
      expect(linearBytes(rows, cols, 'f16')).toBe(padHalves(w, rows, cols).byteLength);
      if (cols % 4 === 0) expect(linearBytes(rows, cols, 'f16')).toBe(linearBytes(rows, cols, 'f32') / 2);
    }
  });

  it('f32 weights are the flat buffer GpuModel allocates; LoRA counts equal the adapters built', () => {
    const c = preset('tiny');
    const layout = buildLayout(c);
    const plan = planMemory(c, { ...loraRun, baseFormat: 'f32', lora: undefined, klReference: false }, laptop);
    expect(plan.items[0].bytes).toBe(layout.totalFloats * 4);
    expect(plan.items.find((i) => i.name.startsWith('AdamW'))?.bytes).toBe(2 * layout.totalFloats * 4);
    const lora = initLora(layout, lora16, 1);
    const floats = [...lora.pairs.values()].reduce((a, p) => a + p.A.length + p.B.length, 0);
    expect(loraParamCount(layout, lora16)).toBe(floats);
  });

  it('Qwen2.5-0.5B: LoRA r16 on an int4 base fits a 6 GiB laptop budget; f32 full fine-tuning does not', () => {
    const plan = checkMemory(qwen05, loraRun, laptop);
    console.log(`Qwen2.5-0.5B, LoRA r16, int4 base, rollout 8 × 2048, micro-batch 4:\n${formatPlan(plan)}`);
    expect(plan.totalBytes).toBeLessThan(laptop.budgetBytes);
    const full = planMemory(qwen05, { ...loraRun, baseFormat: 'f32', lora: undefined }, laptop);
    expect(full.fits).toBe(false);
    expect(full.problems.join('\n')).toMatch(/weights \(f32, one flat buffer\): a 1\.8\d GiB buffer|needs .* in total/);
  });

  it('refuses a plan that does not fit with a cheaper setting that does, and the suggestion really fits', () => {
    const greedy: PlanSettings = {
      ...loraRun,
      baseFormat: 'f32',
      microBatch: 16,
      recompute: false,
      lmHeadChunk: undefined,
    };
    expect(() => checkMemory(qwen05, greedy, laptop)).toThrow(
      /memory plan: .*it fits with: recompute on \(optim\.recompute\), micro-batch \d+/s,
    );
    const fix = suggestSettings(qwen05, greedy, laptop);
    expect(fix?.fits).toBe(true);
    expect(planMemory(qwen05, fix?.settings ?? greedy, laptop).fits).toBe(true);
    // A run whose step has no chunked head (memorySavers false) is still offered recompute, never a head chunk.
    const noChunk = suggestSettings(qwen05, { ...greedy, memorySavers: false }, laptop);
    expect(noChunk?.settings.recompute).toBe(true);
    expect(noChunk?.settings.lmHeadChunk).toBeUndefined();
  });

  it('says so when nothing fits, and names a binding that is too large', () => {
    const tiny: DeviceLimits = {
      maxBufferSize: 256 * 2 ** 20,
      maxStorageBufferBindingSize: 128 * 2 ** 20,
      budgetBytes: 512 * 2 ** 20,
    };
    expect(() => checkMemory(qwen05, loraRun, tiny)).toThrow(
      /needs .* in total, the budget is 512\.0 MiB.*no setting the planner knows fits/s,
    );
    // The merged f32 learner binds its whole flat buffer: that is named.
    expect(() => checkMemory(qwen05, { ...loraRun, baseFormat: 'f32', mergedLearner: true }, tiny)).toThrow(
      /weights \(f32, one flat buffer\): a 1\.8\d GiB buffer exceeds maxBufferSize/,
    );
  });

  it('an int4 base with a 152k vocabulary fits a 128 MiB binding limit: embedding and lm_head go in row chunks', () => {
    const small: DeviceLimits = { ...laptop, maxBufferSize: 256 * 2 ** 20, maxStorageBufferBindingSize: 128 * 2 ** 20 };
    // Micro-batch 2: the activations and logits of 4 × 2048 tokens would not fit one 128 MiB binding either.
    const plan = checkMemory(qwen05, { ...loraRun, microBatch: 2 }, small);
    const embed = plan.items.find((i) => i.name.startsWith('embedding'));
    // 519 MiB of f32 table in chunks of whole rows (896 floats each) within 128 MiB.
    expect(embed?.bytes).toBe(151936 * 896 * 4);
    expect(embed?.largestBuffer).toBe(Math.floor((128 * 2 ** 20) / (896 * 4)) * 896 * 4);
    expect(plan.items.some((i) => /f32 base copy|weight gradients/.test(i.name))).toBe(false);
    // The merged f32 learner holds a base copy and full weight gradients besides the weights: ~3 × the f32 model.
    const merged = planMemory(qwen05, { ...loraRun, baseFormat: 'f32', mergedLearner: true }, laptop);
    expect(merged.totalBytes).toBeGreaterThan(plan.totalBytes + 4 * GiB);
  });

  it('full fine-tuning of a quantized base is refused', () => {
    expect(planMemory(preset('micro'), { ...loraRun, lora: undefined }, laptop).problems[0]).toMatch(
      /full fine-tuning needs f32 weights/,
    );
  });
});
