// config.json parsing: both transformers spellings, real Qwen2.5-Coder shapes, and refusals by field name.
import { describe, expect, it } from 'vitest';
import { paramCount, preset, toHfConfig } from '../config';
import { parseQwen2Config } from './config';
import { QWEN25_CODER_05B_INSTRUCT } from './qwen-shapes';

/** Qwen2.5-Coder-0.5B-Instruct's config.json as published (transformers 4.x spelling). */
const QWEN25_CODER_05B = QWEN25_CODER_05B_INSTRUCT;

describe('Qwen2 config.json', () => {
  it('Qwen2.5-Coder-0.5B-Instruct: 494 M parameters, GQA 14/2, head 64, tied, θ 1e6', () => {
    const { config, eosTokenIds, bosTokenId, dtype } = parseQwen2Config(QWEN25_CODER_05B, { maxSeqLen: 4096 });
    expect(config).toMatchObject({
      hidden: 896,
      layers: 24,
      heads: 14,
      kvHeads: 2,
      headDim: 64,
      intermediate: 4864,
      ropeTheta: 1e6,
      tiedEmbeddings: true,
      qkvBias: true,
      maxSeqLen: 4096,
    });
    expect(paramCount(config)).toBe(494_032_768);
    expect(eosTokenIds).toEqual([151645]);
    expect(bosTokenId).toBe(151643);
    expect(dtype).toBe('bfloat16');
  });

  it('Qwen2.5-Coder-1.5B-Instruct shape: 1.54 B parameters', () => {
    const c = parseQwen2Config({
      ...QWEN25_CODER_05B,
      hidden_size: 1536,
      intermediate_size: 8960,
      num_hidden_layers: 28,
      num_attention_heads: 12,
      max_window_layers: 21,
    }).config;
    expect(paramCount(c)).toBe(1_543_714_304);
  });

  it("the lab's own checkpoints (toHfConfig: attention_bias, head_dim) parse back to their config", () => {
    const c = preset('tiny');
    expect(parseQwen2Config(toHfConfig(c)).config).toEqual(c);
  });

  it('transformers 5.x spelling (rope_parameters, layer_types, dtype) reads the same', () => {
    const { rope_theta: _t, rope_scaling: _s, torch_dtype: _d, ...rest } = QWEN25_CODER_05B;
    const v5 = {
      ...rest,
      dtype: 'bfloat16',
      rope_parameters: { rope_type: 'default', rope_theta: 1e6 },
      layer_types: Array(24).fill('full_attention'),
    };
    expect(parseQwen2Config(v5).config).toEqual(parseQwen2Config(QWEN25_CODER_05B).config);
    expect(parseQwen2Config(JSON.stringify(v5)).config.ropeTheta).toBe(1e6);
  });

  it('defaults follow Qwen2Config: untied, kv heads = heads, θ 10000, eps 1e-6', () => {
    const c = parseQwen2Config({
      vocab_size: 64,
      hidden_size: 32,
      num_hidden_layers: 1,
      num_attention_heads: 4,
      intermediate_size: 64,
    }).config;
    expect(c).toMatchObject({ tiedEmbeddings: false, kvHeads: 4, headDim: 8, ropeTheta: 10000, rmsEps: 1e-6 });
  });

  const bad: [string, Record<string, unknown>, RegExp][] = [
    ['an unknown field', { attn_logit_softcapping: 30 }, /unsupported field 'attn_logit_softcapping'/],
    ['two unknown fields', { foo: 1, bar: 2 }, /unsupported fields 'foo', 'bar'/],
    [
      'another architecture',
      { architectures: ['LlamaForCausalLM'] },
      /architectures \["LlamaForCausalLM"\] is not supported/,
    ],
    ['another model_type', { model_type: 'llama' }, /model_type 'llama' is not supported/],
    ['YaRN rope_scaling', { rope_scaling: { type: 'yarn', factor: 4 } }, /rope_scaling .*yarn.* is not supported/],
    [
      'scaled rope_parameters',
      { rope_parameters: { rope_type: 'linear', factor: 2, rope_theta: 1e6 } },
      /rope_parameters .* is not supported/,
    ],
    [
      'contradicting θ',
      { rope_parameters: { rope_theta: 1e4 } },
      /rope_theta 1000000 contradicts rope_parameters.rope_theta 10000/,
    ],
    ['sliding window', { use_sliding_window: true }, /use_sliding_window true is not supported/],
    [
      'sliding layers',
      { layer_types: Array(24).fill('sliding_attention') },
      /layer_types contains 'sliding_attention'/,
    ],
    ['gelu', { hidden_act: 'gelu' }, /hidden_act 'gelu' is not supported/],
    ['no q/k/v biases', { attention_bias: false }, /attention_bias false is not supported/],
    ['pre-quantized', { quantization_config: { quant_method: 'gptq' } }, /quantization_config is not supported/],
    ['non-integer size', { hidden_size: 896.5 }, /'hidden_size' must be a positive integer/],
    ['heads not dividing kv heads', { num_key_value_heads: 3 }, /heads \(14\) must be a multiple of kvHeads \(3\)/],
    ['a string for tie_word_embeddings', { tie_word_embeddings: 'yes' }, /'tie_word_embeddings' must be true or false/],
  ];
  for (const [what, patch, msg] of bad) {
    it(`refuses ${what}`, () => {
      expect(() => parseQwen2Config({ ...QWEN25_CODER_05B, ...patch })).toThrow(msg);
    });
  }
  it('refuses text that is not JSON', () =>
    expect(() => parseQwen2Config('{')).toThrow(/config\.json: not valid JSON/));
});
