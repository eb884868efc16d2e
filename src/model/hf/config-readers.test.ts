// One reader of config.json: the lab's checkpoint reader (loadCheckpoint: `hf export --checkpoint`, the Model panel's
// uploads, the Worker) and the Hugging Face importer read transformers-made configs of both RoPE spellings
// (transformers 5's rope_parameters.rope_theta in fixtures/hf/qwen2-*, 4.x's top-level rope_theta in
// fixtures/hf/configs/v4-spelling.json, scripts/hf-config-fixtures.py) to the same model, whose logits match
// transformers' own; an export writes the theta it read; both refuse transformers' scaled-RoPE and sliding-window
// configs with the same message.
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { maxRelDiff } from '../../testing/random';
import { loadCheckpoint, type LoadedCheckpoint } from '../checkpoint';
import { referenceForward, toF64 } from '../reference';
import { exportHfModel } from './export';
import { FIXTURE_ROOT, readReference, readReferenceLogits } from './fixtures-node';
import { importHfModel } from './import';
import { parseQwen2Config } from './config';
import { blobSource } from './source';

const MODEL = 'qwen2-tied-gqa-f32';
const dir = `${FIXTURE_ROOT}${MODEL}/`;
const weights = readFileSync(dir + 'model.safetensors');
const SPELLINGS = {
  'transformers 5 (rope_parameters.rope_theta)': readFileSync(dir + 'config.json', 'utf8'),
  'transformers 4 (top-level rope_theta)': readFileSync(`${FIXTURE_ROOT}configs/v4-spelling.json`, 'utf8'),
};
const THETA = (
  JSON.parse(SPELLINGS['transformers 5 (rope_parameters.rope_theta)']) as { rope_parameters: { rope_theta: number } }
).rope_parameters.rope_theta;

/** The fixture folder with `config` as its config.json. */
const folder = (config: string) =>
  blobSource(
    new Map([
      ['config.json', new Blob([config])],
      ['model.safetensors', new Blob([weights])],
    ]),
    MODEL,
  );

/** Worst relative logit difference from transformers over the fixture's prompts. */
function logitsDiff(m: LoadedCheckpoint): number {
  const theirs = readReferenceLogits(MODEL);
  const p64 = toF64(m.params);
  return Math.max(
    ...readReference().models[MODEL].f32_compute.prompts.map((p, i) =>
      maxRelDiff(
        referenceForward(m.layout, p64, { batch: 1, seqLen: p.ids.length, tokens: p.ids }).logits,
        theirs.get(`prompt${i}.logits`)!.values,
      ),
    ),
  );
}

describe('config.json: both RoPE spellings through both readers', () => {
  it(`the fixture's theta is not the default (${THETA}), so a reader that ignores it computes other logits`, () => {
    expect(THETA).not.toBe(10000);
  });

  for (const [spelling, config] of Object.entries(SPELLINGS)) {
    it(`${spelling}: loadCheckpoint and importHfModel agree, with transformers' logits and theta`, async () => {
      const lab = loadCheckpoint({ weights, config });
      const hf = await importHfModel(folder(config));
      expect(lab.config.ropeTheta).toBe(THETA);
      expect(lab.config).toEqual(hf.config);
      expect(maxRelDiff(lab.params, hf.params)).toBe(0);
      const diff = logitsDiff(lab);
      console.log(`${spelling}: loadCheckpoint logits vs transformers: max rel diff ${diff.toExponential(2)}`);
      expect(diff).toBeLessThan(1e-4);
    });

    it(`${spelling}: an export of what loadCheckpoint read writes theta ${THETA}`, () => {
      const lab = loadCheckpoint({ weights, config });
      const out = JSON.parse(exportHfModel(lab.layout, lab.params).get('config.json') as string) as Record<
        string,
        unknown
      >;
      expect(out.rope_theta).toBe(THETA);
    });
  }
});

describe('config.json: the same refusals in both readers', () => {
  const refusals = readdirSync(`${FIXTURE_ROOT}configs`).filter((n) => n.startsWith('refuse-'));
  it('transformers-made variants are there (scaled RoPE, sliding window)', () => {
    expect(refusals.length).toBeGreaterThanOrEqual(4);
  });
  for (const name of refusals) {
    it(`${name}: both refuse it, with one message`, async () => {
      const config = readFileSync(`${FIXTURE_ROOT}configs/${name}`, 'utf8');
      let labError = '';
      try {
        loadCheckpoint({ weights, config });
      } catch (e) {
        labError = (e as Error).message;
      }
      expect(labError).toMatch(
        /^config\.json: .*(rope_parameters|sliding|layer_types).* not supported|^config\.json: layer_types contains/,
      );
      await expect(importHfModel(folder(config))).rejects.toThrow(labError);
    });
  }
});

describe("the lab's own checkpoints", () => {
  it('every shipped config.json reads (lab metadata keys and all), its theta as written', () => {
    const shipped = readdirSync('public/models', { recursive: true, encoding: 'utf8' }).filter((p) =>
      p.endsWith('config.json'),
    );
    expect(shipped.length).toBeGreaterThan(0);
    for (const p of shipped) {
      const text = readFileSync(`public/models/${p}`, 'utf8');
      expect(parseQwen2Config(text, { labCheckpoint: true }).config.ropeTheta, p).toBe(
        (JSON.parse(text) as { rope_theta: number }).rope_theta,
      );
    }
  });
});
