// Hugging Face import against transformers' own fixtures (scripts/hf-reference.py): logits of the float64 reference
// on imported weights, streaming reads, progress, quantized import, and refusals of broken checkpoints.
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { maxRelDiff } from '../../testing/random';
import { referenceForward, toF64 } from '../reference';
import { dequantize, quantize } from '../../gpu/quant';
import { view } from '../layout';
import { FIXTURE_MODELS, FIXTURE_ROOT, fixtureSource, readReference, readReferenceLogits } from './fixtures-node';
import { checkHfModel, importHfModel, type ImportProgress } from './import';
import { blobSource, type HfSource } from './source';

const ref = readReference();

/** Rows [from, to) of a [S, V] block, flattened. */
function rows(values: Float32Array | Float64Array, V: number, from: number, to: number): Float64Array {
  return Float64Array.from(values.subarray(from * V, to * V));
}

/** A fixture folder as in-memory Blobs, with edits, for checkpoints broken on purpose. */
function editedSource(name: string, edit: (files: Map<string, Blob>) => void): HfSource {
  const files = new Map<string, Blob>();
  for (const f of readdirSync(FIXTURE_ROOT + name, { withFileTypes: true })) {
    if (f.isFile()) files.set(f.name, new Blob([readFileSync(`${FIXTURE_ROOT}${name}/${f.name}`)]));
  }
  edit(files);
  return blobSource(files, name);
}

/** A source that reports the length of every read from a safetensors file. */
function watchedSource(base: HfSource, onRead: (bytes: number) => void): HfSource {
  return {
    label: base.label,
    size: (p) => base.size(p),
    read: (p, o, n) => {
      if (p.endsWith('.safetensors')) onRead(n);
      return base.read(p, o, n);
    },
  };
}

async function configEdited(name: string, patch: Record<string, unknown>): Promise<HfSource> {
  const cfg = JSON.parse(readFileSync(`${FIXTURE_ROOT}${name}/config.json`, 'utf8')) as Record<string, unknown>;
  return editedSource(name, (files) => files.set('config.json', new Blob([JSON.stringify({ ...cfg, ...patch })])));
}

describe('HF import: float64 reference on imported weights vs transformers', () => {
  for (const name of FIXTURE_MODELS) {
    it(`${name}: logits within 1e-4 relative of transformers (f32 compute), single prompts and a left-padded batch`, async () => {
      const m = await importHfModel(fixtureSource(name));
      const rec = ref.models[name];
      expect(m.layout.paramCount).toBe(rec.params);
      const logits = readReferenceLogits(name);
      const V = m.config.vocabSize;
      const p64 = toF64(m.params);
      let worst = 0;
      rec.f32_compute.prompts.forEach((p, i) => {
        const ours = referenceForward(m.layout, p64, { batch: 1, seqLen: p.ids.length, tokens: p.ids }).logits;
        const theirs = logits.get(`prompt${i}.logits`);
        if (!theirs) throw new Error(`no prompt${i}.logits`);
        expect(theirs.shape).toEqual([p.ids.length, V]);
        worst = Math.max(worst, maxRelDiff(ours, theirs.values));
      });
      // Left-padded batch: positions count from each row's first real token; only real positions are compared.
      const { padded, mask } = rec.f32_compute.batch;
      const P = padded[0].length;
      const positions = mask.flatMap((r) =>
        r.map((_, t) => Math.max(0, r.slice(0, t + 1).reduce((a, b) => a + b, 0) - 1)),
      );
      const ours = referenceForward(m.layout, p64, {
        batch: 2,
        seqLen: P,
        tokens: padded.flat(),
        positions,
        valid: mask.flat(),
      }).logits;
      const theirs = logits.get('batch.logits');
      if (!theirs) throw new Error('no batch.logits');
      for (let b = 0; b < 2; b++) {
        const first = mask[b].indexOf(1);
        worst = Math.max(
          worst,
          maxRelDiff(rows(ours, V, b * P + first, (b + 1) * P), rows(theirs.values, V, b * P + first, (b + 1) * P)),
        );
      }
      console.log(`${name}: float64 reference vs transformers f32 logits, max rel diff ${worst.toExponential(2)}`);
      expect(worst).toBeLessThan(1e-4);
    });
  }

  for (const name of FIXTURE_MODELS.filter((n) => n.endsWith('bf16'))) {
    it(`${name}: f32 compute on bf16 weights vs transformers' native bf16 compute within 5e-2 relative`, async () => {
      // transformers in bf16 rounds every activation to 8 mantissa bits; we compute in f32 on the same weights. The
      // gap is bf16's rounding (2^-8 ≈ 4e-3 per op, compounding over layers), not an error of ours.
      const m = await importHfModel(fixtureSource(name));
      const logits = readReferenceLogits(name, 'bf16');
      const p64 = toF64(m.params);
      let worst = 0;
      ref.models[name].f32_compute.prompts.forEach((p, i) => {
        const ours = referenceForward(m.layout, p64, { batch: 1, seqLen: p.ids.length, tokens: p.ids }).logits;
        worst = Math.max(worst, maxRelDiff(ours, logits.get(`prompt${i}.logits`)?.values ?? []));
      });
      console.log(`${name}: f32 compute vs transformers' bf16 compute, max rel diff ${worst.toExponential(2)}`);
      expect(worst).toBeLessThan(5e-2);
    });
  }
});

describe('HF import: streaming, progress, formats', () => {
  it('reads one tensor at a time (no read larger than the largest tensor), progress reaches the total', async () => {
    const name = 'qwen2-untied-mqa-bf16';
    let largestRead = 0;
    const counting = watchedSource(fixtureSource(name), (n) => (largestRead = Math.max(largestRead, n)));
    const seen: ImportProgress[] = [];
    const m = await importHfModel(counting, { onProgress: (p) => seen.push(p) });
    const largestTensor = Math.max(...m.layout.tensors.map((t) => t.size * 2));
    expect(largestRead).toBeLessThanOrEqual(largestTensor);
    expect(seen.length).toBe(m.layout.tensors.length);
    for (let i = 1; i < seen.length; i++) expect(seen[i].bytesDone).toBeGreaterThan(seen[i - 1].bytesDone);
    expect(seen[seen.length - 1].bytesDone).toBe(seen[0].bytesTotal);
    expect(new Set(seen.map((s) => s.tensor)).size).toBe(seen.length);
  });

  it('bf16 and f32 saves of one model import to the bf16-rounded values of each other', async () => {
    const f32 = await importHfModel(fixtureSource('qwen2-untied-mqa-f32'));
    const bf16 = await importHfModel(fixtureSource('qwen2-untied-mqa-bf16'));
    const u = new Uint32Array(bf16.params.buffer);
    expect(u.every((x) => (x & 0xffff) === 0)).toBe(true);
    // torch rounds to nearest even; every bf16 value is within half a bf16 ulp (at most 2^-8 relative) of the f32 one.
    let off = 0;
    for (let i = 0; i < f32.params.length; i++)
      if (Math.abs(bf16.params[i] - f32.params[i]) > Math.abs(f32.params[i]) * 2 ** -8) off++;
    expect(off).toBe(0);
    expect(maxRelDiff(bf16.params, f32.params)).toBeGreaterThan(0);
  });

  for (const format of ['int8-b32', 'int4-b32'] as const) {
    it(`${format}: every Linear weight quantized on the fly; dense slots hold exactly the dequantized codes`, async () => {
      const f32 = await importHfModel(fixtureSource('qwen2-tied-gqa-f32'));
      const q = await importHfModel(fixtureSource('qwen2-tied-gqa-f32'), { weights: format });
      const linear = q.layout.tensors.filter((t) => t.kind === 'linear');
      expect([...(q.quantized?.keys() ?? [])].sort()).toEqual(linear.map((t) => t.name).sort());
      for (const t of q.layout.tensors) {
        const want =
          t.kind === 'linear'
            ? dequantize(quantize(view(f32.params, t), t.shape[0], t.shape[1], format)).subarray(0, t.size)
            : view(f32.params, t);
        expect(view(q.params, t)).toEqual(want);
      }
      const sparse = await importHfModel(fixtureSource('qwen2-tied-gqa-f32'), { weights: format, denseLinear: false });
      expect(view(sparse.params, linear[0]).every((x) => x === 0)).toBe(true);
      expect(view(sparse.params, sparse.layout.embed)).toEqual(view(f32.params, f32.layout.embed));
    });
  }

  it('maxSeqLen caps the planned context without changing the weights', async () => {
    const m = await importHfModel(fixtureSource('qwen2-tied-gqa-f32'), { maxSeqLen: 64 });
    expect(m.config.maxSeqLen).toBe(64);
    expect(m.info.maxPositionEmbeddings).toBe(256);
  });
});

describe('HF import: broken checkpoints are refused with the culprit named', () => {
  const name = 'qwen2-untied-mqa-f32';
  it('checkHfModel: the summary of a sharded checkpoint from headers only, and the same refusals as the import', async () => {
    const base = fixtureSource(name);
    let weightBytes = 0;
    const counting = watchedSource(base, (n) => (weightBytes += n));
    const s = await checkHfModel(counting);
    const m = await importHfModel(base);
    expect(s.params).toBe(m.layout.paramCount);
    expect(s.files).toHaveLength(6);
    expect(s.bytes).toBe(s.params * 4);
    // Headers only: 8 length bytes + the JSON header per shard, far less than the weights.
    expect(weightBytes).toBeLessThan(s.bytes / 10);
    await expect(checkHfModel(await configEdited(name, { intermediate_size: 64 }))).rejects.toThrow(
      /mlp\.gate_proj\.weight' has shape \[96, 48\], config.json needs \[64, 48\]/,
    );
    await expect(checkHfModel(await configEdited(name, { rope_scaling: { type: 'yarn', factor: 4 } }))).rejects.toThrow(
      /rope_scaling/,
    );
  });
  it('a tensor whose shape disagrees with config.json', async () => {
    await expect(importHfModel(await configEdited(name, { intermediate_size: 64 }))).rejects.toThrow(
      /mlp\.gate_proj\.weight' has shape \[96, 48\], config.json needs \[64, 48\]/,
    );
  });
  it('a tensor the config has no place for, and a missing one', async () => {
    await expect(
      importHfModel(
        await configEdited(name, { num_hidden_layers: 2, layer_types: ['full_attention', 'full_attention'] }),
      ),
    ).rejects.toThrow(/unexpected tensors 'model\.layers\.2\./);
    await expect(importHfModel(await configEdited(name, { tie_word_embeddings: true }))).resolves.toBeDefined();
    await expect(
      importHfModel(await configEdited('qwen2-tied-gqa-f32', { tie_word_embeddings: false })),
    ).rejects.toThrow(/missing tensor 'lm_head\.weight'/);
  });
  it('an index that points a tensor at the wrong shard, and a missing shard', async () => {
    const indexPath = `${FIXTURE_ROOT}${name}/model.safetensors.index.json`;
    const index = JSON.parse(readFileSync(indexPath, 'utf8')) as { weight_map: Record<string, string> };
    const wrong = {
      ...index,
      weight_map: { ...index.weight_map, 'model.norm.weight': 'model-00001-of-00006.safetensors' },
    };
    const src = editedSource(name, (f) => f.set('model.safetensors.index.json', new Blob([JSON.stringify(wrong)])));
    await expect(importHfModel(src)).rejects.toThrow(
      /model\.norm\.weight' is in model-0000\d-of-00006\.safetensors but the index says model-00001/,
    );
    const gone = editedSource(name, (f) => f.delete('model-00003-of-00006.safetensors'));
    await expect(importHfModel(gone)).rejects.toThrow(/model-00003-of-00006\.safetensors: missing/);
  });
  it('a truncated shard', async () => {
    const src = editedSource(name, (f) => {
      const b = readFileSync(`${FIXTURE_ROOT}${name}/model-00002-of-00006.safetensors`);
      f.set('model-00002-of-00006.safetensors', new Blob([b.subarray(0, b.length - 100)]));
    });
    await expect(importHfModel(src)).rejects.toThrow(/model-00002-of-00006\.safetensors: truncated: tensor '/);
  });
});
