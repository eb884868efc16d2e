// The GPU engine (Dawn/SwiftShader) on imported Hugging Face checkpoints vs transformers: full-sequence logits,
// greedy KV-cache generation of single prompts and of a left-padded batch, f32 and int8 block-quantized rollouts.
import { describe, expect, it } from 'vitest';
import { sharedNodeGpu } from '../../gpu/node';
import { maxRelDiff } from '../../testing/random';
import { destroyBatch, uploadBatch } from '../forward-batch';
import { computeLogits } from '../forward-logprobs';
import { GpuModel } from '../model';
import { fp32Weights } from '../decode-weights';
import { generate } from '../sampler';
import { FIXTURE_MODELS, fixtureSource, readReference, readReferenceLogits } from './fixtures-node';
import { importHfModel } from './import';

const ref = readReference();

describe('GPU engine on HF checkpoints vs transformers', () => {
  for (const name of FIXTURE_MODELS) {
    it(`${name}: logits within 1e-4 relative, greedy tokens identical (single prompts and a left-padded batch)`, async () => {
      const gpu = await sharedNodeGpu();
      const m = await importHfModel(fixtureSource(name), { maxSeqLen: 64 });
      const model = GpuModel.fromCheckpoint(gpu, m, `hf:${name}`);
      const rec = ref.models[name].f32_compute;
      const logits = readReferenceLogits(name);
      let worst = 0;
      try {
        for (const [i, p] of rec.prompts.entries()) {
          const batch = uploadBatch(gpu, { batch: 1, seqLen: p.ids.length, tokens: p.ids });
          const ours = await computeLogits(model, batch);
          destroyBatch(batch);
          worst = Math.max(worst, maxRelDiff(ours, logits.get(`prompt${i}.logits`)?.values ?? []));
        }
        const w = fp32Weights(model);
        const opts = { maxNewTokens: 12, temperature: 0, seed: 1, stopTokenIds: [] };
        const single = await Promise.all(rec.prompts.map((p) => generate(w, [p.ids], opts)));
        single.forEach((s, i) =>
          expect(
            s[0].tokens,
            `prompt ${i} (transformers' smallest greedy margin ${rec.prompts[i].greedy_min_margin.toFixed(3)})`,
          ).toEqual(rec.prompts[i].greedy),
        );
        const batched = await generate(
          w,
          rec.batch.prompts.map((i) => rec.prompts[i].ids),
          { ...opts, maxNewTokens: 8, padId: 0 },
        );
        expect(batched.map((s) => s.tokens)).toEqual(rec.batch.greedy);
      } finally {
        model.destroy();
      }
      console.log(
        `${name}: GPU engine vs transformers f32 logits, max rel diff ${worst.toExponential(2)}; greedy identical`,
      );
      expect(worst).toBeLessThan(1e-4);
    });
  }
});
