// Checkpoint round trips (fp32, int8, int4, Node directory) and a clear, tensor-naming error for each kind of damage.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { preset } from './config';
import { buildLayout } from './layout';
import { initParams } from './init';
import { loadCheckpoint, saveCheckpoint, WEIGHTS_FILE } from './checkpoint';
import { loadCheckpointDir, writeCheckpointDir } from './checkpoint-node';
import { decodeSafetensors, encodeSafetensors, bytesOf, toFloat32 } from './checkpoint-safetensors';
import { freshSeed, maxAbsDiff } from '../testing/random';
import { QUANT_FORMATS } from '../gpu/quant';

const seed = freshSeed();
const layout = buildLayout(preset('micro', { tiedEmbeddings: false }));
const params = initParams(layout, seed, { biasStd: 0.05, normJitter: 0.1 });

/** Rewrites one header entry of a saved file (keeping the data), to fabricate damaged checkpoints. */
function patchHeader(
  file: Uint8Array,
  edit: (h: Record<string, { dtype: string; shape: number[]; data_offsets: number[] }>) => void,
): Uint8Array {
  const len = Number(new DataView(file.buffer, file.byteOffset).getBigUint64(0, true));
  const header = JSON.parse(new TextDecoder().decode(file.subarray(8, 8 + len)));
  edit(header);
  const json = new TextEncoder().encode(JSON.stringify(header));
  const out = new Uint8Array(8 + json.length + file.length - 8 - len);
  new DataView(out.buffer).setBigUint64(0, BigInt(json.length), true);
  out.set(json, 8);
  out.set(file.subarray(8 + len), 8 + json.length);
  return out;
}

describe(`checkpoints (seed ${seed})`, () => {
  it('fp32 round trip is exact, with config.json and tokenizer.json', () => {
    const files = saveCheckpoint(layout, params, { tokenizerJson: '{"model":{}}', metadata: { step: '7' } });
    const back = loadCheckpoint({
      weights: files[WEIGHTS_FILE].slice().buffer,
      config: files['config.json'],
      tokenizerJson: files['tokenizer.json'],
    });
    expect(back.config).toEqual(layout.config);
    expect(back.params).toEqual(params);
    expect(back.metadata.step).toBe('7');
    expect(back.tokenizerJson).toBe('{"model":{}}');
    // Header starts data 8-byte aligned (what HF's writer does), so readers can map f32 views.
    const len = Number(new DataView(files[WEIGHTS_FILE].buffer).getBigUint64(0, true));
    expect(len % 8).toBe(0);
  });

  for (const format of QUANT_FORMATS) {
    it(`${format} round trip: stored codes reload identically, dequantized error is small`, () => {
      const files = saveCheckpoint(layout, params, { quant: format });
      const back = loadCheckpoint({ weights: files[WEIGHTS_FILE], config: files['config.json'] });
      expect(back.quantFormat).toBe(format);
      const q = layout.layers[1].gate;
      expect(back.quantized?.get(q.name)?.format).toBe(format);
      const orig = params.subarray(q.offset, q.offset + q.size);
      const got = back.params.subarray(q.offset, q.offset + q.size);
      const maxW = Math.max(...Array.from(orig, Math.abs));
      const err = maxAbsDiff(got, orig) / maxW;
      console.log(
        `${format}: ${files[WEIGHTS_FILE].byteLength} bytes, gate_proj max err / max|w| = ${err.toExponential(2)}`,
      );
      expect(err).toBeLessThan(format === 'int4-b32' ? 0.08 : 0.005);
      // Norms stay exact.
      const n = layout.finalNorm;
      expect(back.params.subarray(n.offset, n.offset + n.size)).toEqual(params.subarray(n.offset, n.offset + n.size));
      // Saving the reloaded quantized model again yields the same codes.
      const again = saveCheckpoint(back.layout, back.params, { quant: format });
      expect(decodeSafetensors(again[WEIGHTS_FILE]).tensors.get(`${q.name}.qdata`)?.data).toEqual(
        decodeSafetensors(files[WEIGHTS_FILE]).tensors.get(`${q.name}.qdata`)?.data,
      );
    });
  }

  it('Node directory adapter writes and reads back', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ckpt-'));
    try {
      await writeCheckpointDir(dir, saveCheckpoint(layout, params, { tokenizerJson: '{}' }));
      const back = await loadCheckpointDir(dir);
      expect(back.params).toEqual(params);
      expect(back.tokenizerJson).toBe('{}');
    } finally {
      await rm(dir, { recursive: true });
    }
  });

  it('Node adapter reads HF-style shards (model-0000k-of-0000n.safetensors) stored in bf16', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ckpt-shards-'));
    try {
      const files = saveCheckpoint(layout, params);
      const all = [...decodeSafetensors(files[WEIGHTS_FILE]).tensors.values()];
      // bf16 = the top 16 bits of each f32 (truncation), as a real bf16 checkpoint would hold.
      const bf16 = all.map((t) => {
        const f = toFloat32(t);
        const u = new Uint32Array(f.buffer);
        return { ...t, dtype: 'BF16' as const, data: bytesOf(Uint16Array.from(u, (x) => x >>> 16)) };
      });
      const half = Math.ceil(bf16.length / 2);
      await writeFile(join(dir, 'model-00001-of-00002.safetensors'), encodeSafetensors(bf16.slice(0, half)));
      await writeFile(join(dir, 'model-00002-of-00002.safetensors'), encodeSafetensors(bf16.slice(half)));
      await writeFile(join(dir, 'config.json'), files['config.json']);
      const back = await loadCheckpointDir(dir);
      const rel = maxAbsDiff(back.params, params) / Math.max(...Array.from(params, Math.abs));
      expect(rel).toBeGreaterThan(0); // really went through bf16
      expect(rel).toBeLessThan(1 / 128); // bf16 keeps 8 significant bits
    } finally {
      await rm(dir, { recursive: true });
    }
  });

  it('reads bf16 and f16 tensors (real HF checkpoints)', () => {
    const f = encodeSafetensors([
      { name: 'a', dtype: 'BF16', shape: [2], data: bytesOf(new Uint16Array([0x3f80, 0xc040])) },
      { name: 'b', dtype: 'F16', shape: [2], data: bytesOf(new Uint16Array([0x3c00, 0x3555])) },
    ]);
    const t = decodeSafetensors(f).tensors;
    expect(Array.from(toFloat32(t.get('a')!))).toEqual([1, -3]);
    expect(toFloat32(t.get('b')!)[1]).toBeCloseTo(1 / 3, 3);
  });

  const good = () => saveCheckpoint(layout, params);
  const q0 = 'model.layers.0.self_attn.q_proj.weight';
  const cases: [string, () => unknown, RegExp][] = [
    [
      'a truncated file names the tensor whose bytes are missing',
      () => loadCheckpoint({ weights: good()[WEIGHTS_FILE].slice(0, -10), config: good()['config.json'] }),
      /truncated: tensor 'lm_head\.weight'/,
    ],
    [
      'a file cut inside its header says so',
      () => loadCheckpoint({ weights: good()[WEIGHTS_FILE].slice(0, 40), config: good()['config.json'] }),
      /truncated: header/,
    ],
    [
      'a wrong shape names the tensor and both shapes',
      () => {
        const f = good();
        const w = patchHeader(f[WEIGHTS_FILE], (h) => {
          h[q0].shape = [16, 64];
        });
        return loadCheckpoint({ weights: w, config: f['config.json'] });
      },
      /'model\.layers\.0\.self_attn\.q_proj\.weight' has shape \[16, 64\], the config needs \[32, 32\]/,
    ],
    [
      'an unknown dtype names the tensor',
      () => {
        const f = good();
        const w = patchHeader(f[WEIGHTS_FILE], (h) => {
          h[q0].dtype = 'F8_E4M3X';
        });
        return loadCheckpoint({ weights: w, config: f['config.json'] });
      },
      /tensor 'model\.layers\.0\.self_attn\.q_proj\.weight' has unknown dtype 'F8_E4M3X'/,
    ],
    [
      'a missing tensor is named',
      () => {
        const f = good();
        const w = patchHeader(f[WEIGHTS_FILE], (h) => {
          delete h['model.layers.1.mlp.up_proj.weight'];
        });
        return loadCheckpoint({ weights: w, config: f['config.json'] });
      },
      /missing tensor 'model\.layers\.1\.mlp\.up_proj\.weight'/,
    ],
    [
      'a missing quantized scale tensor is named',
      () => {
        const f = saveCheckpoint(layout, params, { quant: 'int8-row' });
        const w = patchHeader(f[WEIGHTS_FILE], (h) => {
          delete h[`${q0}.qscale`];
        });
        return loadCheckpoint({ weights: w, config: f['config.json'] });
      },
      /missing tensor 'model\.layers\.0\.self_attn\.q_proj\.weight\.qscale'/,
    ],
  ];
  for (const [title, run, msg] of cases) {
    it(title, () => {
      expect(run).toThrow(msg);
    });
  }
});
