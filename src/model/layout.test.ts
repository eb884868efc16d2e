// Config presets, HF config.json conversion, the flat layout's size table and alignment, and deterministic init.
import { describe, expect, it } from 'vitest';
import { paramCount, PRESETS, preset, toHfConfig, type HfConfig, type PresetName } from './config';
import { parseQwen2Config } from './hf/config';

/** How loadCheckpoint reads a config.json. */
const fromHfConfig = (hf: HfConfig) => parseQwen2Config(hf, { labCheckpoint: true }).config;
import { ALIGN_FLOATS, buildLayout, decayMask } from './layout';
import { initParams } from './init';

// Qwen2.5-Coder-0.5B's config.json (the keys we read), as published on the HF hub.
const QWEN25_CODER_05B: HfConfig = {
  architectures: ['Qwen2ForCausalLM'],
  model_type: 'qwen2',
  vocab_size: 151936,
  hidden_size: 896,
  num_hidden_layers: 24,
  num_attention_heads: 14,
  num_key_value_heads: 2,
  intermediate_size: 4864,
  rope_theta: 1000000.0,
  rms_norm_eps: 1e-6,
  tie_word_embeddings: true,
  max_position_embeddings: 32768,
  hidden_act: 'silu',
  torch_dtype: 'bfloat16',
};

describe('model config', () => {
  it('presets are valid and sized as documented', () => {
    const sizes = Object.fromEntries((Object.keys(PRESETS) as PresetName[]).map((n) => [n, paramCount(preset(n))]));
    console.log('preset params', sizes);
    expect(sizes.micro).toBeLessThan(100_000);
    expect(sizes.tiny).toBeGreaterThan(500_000);
    expect(sizes.tiny).toBeLessThan(3_000_000);
    expect(sizes.small).toBeGreaterThan(50_000_000);
    expect(sizes.small).toBeLessThan(120_000_000);
  });

  it('loads a real Qwen2.5-Coder config.json and round-trips through HF keys', () => {
    const c = fromHfConfig(QWEN25_CODER_05B);
    expect(c).toMatchObject({ hidden: 896, heads: 14, kvHeads: 2, headDim: 64, qkvBias: true, tiedEmbeddings: true });
    // 494 M parameters is Qwen2.5-0.5B's published count.
    expect(Math.round(paramCount(c) / 1e6)).toBe(494);
    expect(fromHfConfig(toHfConfig(c))).toEqual(c);
    expect(fromHfConfig(toHfConfig({ ...c, qkvBias: false })).qkvBias).toBe(false);
    expect(() => fromHfConfig({ ...QWEN25_CODER_05B, model_type: 'llama' })).toThrow(/model_type 'llama'/);
  });

  it('rejects inconsistent configs with a clear message', () => {
    expect(() => preset('micro', { kvHeads: 3 })).toThrow(/multiple of kvHeads/);
    expect(() => fromHfConfig({ ...QWEN25_CODER_05B, rope_scaling: { type: 'yarn', factor: 4 } })).toThrow(
      /rope_scaling/,
    );
    expect(fromHfConfig({ ...QWEN25_CODER_05B, rope_scaling: null }).ropeTheta).toBe(1e6);
    expect(() => fromHfConfig({ ...QWEN25_CODER_05B, hidden_size: undefined } as unknown as HfConfig)).toThrow(
      /hidden_size/,
    );
  });
});

describe('flat layout', () => {
  for (const tied of [true, false]) {
    it(`HF names, 256-byte aligned, no overlap (tied=${tied})`, () => {
      const layout = buildLayout(preset('micro', { tiedEmbeddings: tied }));
      expect(layout.paramCount).toBe(paramCount(layout.config));
      let end = 0;
      for (const t of layout.tensors) {
        expect(t.offset % ALIGN_FLOATS).toBe(0);
        expect((t.offset * 4) % 256).toBe(0);
        expect(t.offset).toBeGreaterThanOrEqual(end);
        end = t.offset + t.size;
      }
      expect(layout.totalFloats).toBeGreaterThanOrEqual(end);
      expect(layout.byName.has('model.layers.1.self_attn.k_proj.bias')).toBe(true);
      expect(layout.byName.has('lm_head.weight')).toBe(!tied);
      expect(layout.byName.get('model.layers.0.mlp.down_proj.weight')?.shape).toEqual([32, 64]);
      const mask = decayMask(layout);
      expect(mask[layout.finalNorm.offset]).toBe(0);
      expect(mask[layout.layers[0].q.offset]).toBe(1);
    });
  }

  it('init is deterministic per seed, with norms at 1 and padding at 0', () => {
    const layout = buildLayout(preset('micro'));
    const a = initParams(layout, 42);
    const b = initParams(layout, 42);
    const c = initParams(layout, 43);
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
    expect(a[layout.finalNorm.offset]).toBe(1);
    const q = layout.layers[0].q;
    expect(a[q.offset + q.size]).toBe(0); // padding after the tensor
    let ss = 0;
    for (let i = 0; i < q.size; i++) ss += a[q.offset + i] ** 2;
    expect(Math.sqrt(ss / q.size)).toBeGreaterThan(0.015);
    expect(Math.sqrt(ss / q.size)).toBeLessThan(0.025);
  });
});
