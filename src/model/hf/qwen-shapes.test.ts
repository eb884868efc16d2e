// The 0.5B config parses to Qwen2.5-0.5B's published parameter count, and the FLOPs count is 2 × the matmul
// weights (tied head included) plus attention, counted here from the layout instead of the formula.
import { describe, expect, it } from 'vitest';
import { buildLayout } from '../layout';
import { parseQwen2Config } from './config';
import { flopsPerToken, QWEN25_CODER_05B_INSTRUCT } from './qwen-shapes';

describe('Qwen2.5-Coder-0.5B shape', () => {
  it('has 494,032,768 parameters and 2 × matmul weights + attention FLOPs per token', () => {
    const { config } = parseQwen2Config(QWEN25_CODER_05B_INSTRUCT);
    const layout = buildLayout(config);
    expect(layout.tensors.reduce((a, t) => a + t.size, 0)).toBe(494_032_768);
    const matmul =
      layout.tensors.filter((t) => t.kind === 'linear').reduce((a, t) => a + t.size, 0) +
      config.vocabSize * config.hidden;
    const ctx = 100;
    const attention = 2 * config.layers * 2 * config.heads * config.headDim * ctx;
    expect(flopsPerToken(config, ctx)).toBe(2 * matmul + attention);
    expect(flopsPerToken({ ...config, layers: 2 }, ctx)).toBeLessThan(flopsPerToken(config, ctx));
  });
});
