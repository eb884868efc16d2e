// Overfit: the micro model memorises a small fixed corpus by SFT on the GPU (forward, xent, backward, clip, AdamW).
import { describe, expect, it } from 'vitest';
import { sharedNodeGpu } from '../gpu/node';
import { trainStep, DEFAULT_OPTIM } from './backward-step';
import { preset } from './config';
import { destroyBatch, uploadBatch } from './forward-batch';
import { initParams, seededRandom } from './init';
import { buildLayout } from './layout';
import { GpuModel } from './model';

/** Loss (nats/token) the model must get under: ln(512) ≈ 6.24 at the start, memorised text is near 0. */
const THRESHOLD = 0.1;
const MAX_STEPS = 80;

describe('micro overfits a fixed corpus', () => {
  it(`SFT loss < ${THRESHOLD} within ${MAX_STEPS} steps`, async () => {
    const gpu = await sharedNodeGpu();
    const layout = buildLayout(preset('micro'));
    const model = new GpuModel(gpu, layout, initParams(layout, 1234), 'overfit');
    // 4 sequences of 33 tokens from a fixed stream: 32 inputs, 32 next-token targets each.
    const B = 2;
    const S = 32;
    const rand = seededRandom(99);
    const stream = Array.from({ length: B * (S + 1) }, () => Math.floor(rand() * layout.config.vocabSize));
    const tokens: number[] = [];
    const targets: number[] = [];
    for (let b = 0; b < B; b++) {
      const row = stream.slice(b * (S + 1), (b + 1) * (S + 1));
      tokens.push(...row.slice(0, S));
      targets.push(...row.slice(1));
    }
    const batch = uploadBatch(gpu, { batch: B, seqLen: S, tokens, targets, mask: new Float32Array(B * S).fill(1) });
    const optim = { ...DEFAULT_OPTIM, adamw: { ...DEFAULT_OPTIM.adamw, lr: 2e-2 } };
    const t0 = performance.now();
    const losses: number[] = [];
    for (let step = 0; step < MAX_STEPS; step++) {
      const r = await trainStep(model, batch, { kind: 'sft' }, optim);
      expect(Number.isFinite(r.loss)).toBe(true);
      losses.push(r.loss);
      if (r.loss < THRESHOLD) break;
    }
    const ms = (performance.now() - t0) / losses.length;
    const shown = losses.filter((_, i) => i % 10 === 0 || i === losses.length - 1).map((l) => l.toFixed(3));
    console.log(
      `overfit: ${losses.length} steps, ${ms.toFixed(1)} ms/step (B=${B}, S=${S}); loss ${shown.join(' → ')}`,
    );
    expect(losses[0]).toBeGreaterThan(5.5);
    expect(losses[losses.length - 1]).toBeLessThan(THRESHOLD);
    destroyBatch(batch);
    model.destroy();
  });
});
