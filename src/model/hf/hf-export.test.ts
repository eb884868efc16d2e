// Export to HF / PEFT: transformers and peft loaded exactly these bytes (sha256 recorded by scripts/hf-reference.py
// --check-exports) and computed these logits; our forward on the same weights matches. Plus round trips and refusals.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeSafetensors, toFloat32 } from '../checkpoint-safetensors';
import { maxRelDiff, mulberry32 } from '../../testing/random';
import { preset } from '../config';
import { initParams } from '../init';
import { buildLayout } from '../layout';
import { referenceForward, toF64 } from '../reference';
import {
  bf16Bits,
  encodeValues,
  exportHfModel,
  exportPeftAdapter,
  f16Bits,
  importPeftAdapter,
  type HfFiles,
} from './export';
import { buildExportCases, sha256 } from './export-cases-node';
import { FIXTURE_ROOT } from './fixtures-node';
import { importHfModel } from './import';
import { initLora } from './lora';
import { blobSource } from './source';
import { loadHfTokenizer } from './tokenizer';

interface CheckRecord {
  cases: Record<
    string,
    { base: string | null; prompts: number[][]; sha256: Record<string, string>; tokenizer_ids?: number[][] }
  >;
}

const check = JSON.parse(readFileSync(`${FIXTURE_ROOT}exports/check.json`, 'utf8')) as CheckRecord;

function asSource(files: HfFiles, label: string) {
  return blobSource(new Map([...files].map(([k, v]) => [k, new Blob([typeof v === 'string' ? v : v.slice()])])), label);
}

describe('HF / PEFT export vs transformers and peft', async () => {
  const cases = await buildExportCases();
  it('every recorded case is still built', () =>
    expect(cases.map((c) => c.name).sort()).toEqual(Object.keys(check.cases).sort()));
  for (const c of cases) {
    it(`${c.name}: the bytes transformers/peft loaded, and their logits within 1e-4 relative of ours`, () => {
      const rec = check.cases[c.name];
      const ours = Object.fromEntries([...c.files].map(([k, v]) => [k, sha256(v)]));
      expect(ours, 'export bytes changed: re-run the export check (scripts/hf-reference.py --check-exports)').toEqual(
        rec.sha256,
      );
      const logits = decodeSafetensors(readFileSync(`${FIXTURE_ROOT}exports/${c.name}.safetensors`)).tensors;
      const p64 = toF64(c.params);
      let worst = 0;
      c.prompts.forEach((ids, i) => {
        const t = logits.get(`prompt${i}.logits`);
        if (!t) throw new Error(`no prompt${i}.logits`);
        const mine = referenceForward(c.layout, p64, { batch: 1, seqLen: ids.length, tokens: ids }).logits;
        worst = Math.max(worst, maxRelDiff(mine, toFloat32(t)));
      });
      console.log(
        `${c.name}: ${rec.base ? 'peft' : 'transformers'} logits vs ours, max rel diff ${worst.toExponential(2)}`,
      );
      expect(worst).toBeLessThan(1e-4);
    });
    if (c.texts) {
      it(`${c.name}: the exported tokenizer gives AutoTokenizer's ids`, async () => {
        const tok = await loadHfTokenizer(asSource(c.files, c.name));
        expect(c.texts?.map((t) => tok.tokenizer.encode(t))).toEqual(check.cases[c.name].tokenizer_ids);
        expect(tok.specialTokens.eos).toBe('<|end|>');
      });
    }
  }
});

describe('HF export round trips', () => {
  const layout = buildLayout(preset('micro', { vocabSize: 80, maxSeqLen: 32 }));
  const params = initParams(layout, 21, { std: 0.2, biasStd: 0.1, normJitter: 0.1 });

  it('f32 (single and sharded) imports back bit-identical; bf16 and f16 import as the rounded values', async () => {
    for (const maxShardBytes of [undefined, 10_000]) {
      const files = exportHfModel(layout, params, { maxShardBytes });
      expect(files.has('model.safetensors.index.json')).toBe(maxShardBytes !== undefined);
      const back = await importHfModel(asSource(files, 'export'));
      expect(back.config).toEqual(layout.config);
      expect(back.params).toEqual(params);
    }
    for (const dtype of ['bf16', 'f16'] as const) {
      const back = await importHfModel(asSource(exportHfModel(layout, params, { dtype }), dtype));
      const diff = maxRelDiff(back.params, params);
      expect(diff).toBeGreaterThan(0);
      expect(diff).toBeLessThan(dtype === 'bf16' ? 2 ** -8 : 2 ** -10);
    }
  });

  it('bf16 and f16 rounding: nearest even, overflow, subnormals, NaN', () => {
    expect(bf16Bits(1)).toBe(0x3f80);
    expect(bf16Bits(1 + 2 ** -8)).toBe(0x3f80); // tie → even
    expect(bf16Bits(1 + 3 * 2 ** -8)).toBe(0x3f82); // tie → even (up)
    expect(bf16Bits(-2)).toBe(0xc000);
    expect(bf16Bits(NaN) & 0x7fc0).toBe(0x7fc0);
    expect(f16Bits(1)).toBe(0x3c00);
    expect(f16Bits(65504)).toBe(0x7bff);
    expect(f16Bits(65520)).toBe(0x7c00); // rounds past the largest half
    expect(f16Bits(2 ** -24)).toBe(0x0001);
    expect(f16Bits(2 ** -26)).toBe(0);
    expect(f16Bits(-(1 + 2 ** -11))).toBe(0xbc00); // tie → even
    expect(f16Bits(1 + 3 * 2 ** -11)).toBe(0x3c02);
    // Every decoded value is the nearest representable one: compare against the neighbours on random inputs.
    const rng = mulberry32(5);
    const xs = Float32Array.from({ length: 2000 }, () => (rng() - 0.5) * 2 ** Math.floor(rng() * 36 - 22));
    for (const [dtype, st] of [
      ['bf16', 'BF16'],
      ['f16', 'F16'],
    ] as const) {
      const dec = toFloat32({ name: 'x', dtype: st, shape: [xs.length], data: encodeValues(xs, dtype) });
      const bits = new Uint16Array(encodeValues(xs, dtype).buffer);
      for (let i = 0; i < xs.length; i++) {
        for (const d of [-1, 1]) {
          const nb = toFloat32({
            name: 'n',
            dtype: st,
            shape: [1],
            data: new Uint8Array(new Uint16Array([bits[i] + d]).buffer),
          })[0];
          if (Number.isFinite(nb)) expect(Math.abs(dec[i] - xs[i])).toBeLessThanOrEqual(Math.abs(nb - xs[i]));
        }
      }
    }
  });

  it('PEFT adapters import back exactly; unsupported adapter configs are refused by name', () => {
    const lora = initLora(layout, { rank: 2, alpha: 4, targets: ['q_proj', 'down_proj'] }, 9, { bStd: 0.1 });
    const files = exportPeftAdapter(lora, 'base');
    const cfg = files.get('adapter_config.json') as string;
    const weights = files.get('adapter_model.safetensors') as Uint8Array;
    const back = importPeftAdapter(layout, cfg, weights);
    expect(back.config).toEqual({ rank: 2, alpha: 4, targets: ['down_proj', 'q_proj'] });
    for (const [k, p] of lora.pairs) {
      expect(back.pairs.get(k)?.A).toEqual(p.A);
      expect(back.pairs.get(k)?.B).toEqual(p.B);
    }
    const patched = (patch: Record<string, unknown>) => JSON.stringify({ ...JSON.parse(cfg), ...patch });
    expect(() => importPeftAdapter(layout, patched({ use_dora: true }), weights)).toThrow(
      /use_dora true is not supported/,
    );
    expect(() => importPeftAdapter(layout, patched({ target_modules: ['q_proj', 'lm_head'] }), weights)).toThrow(
      /target_modules/,
    );
    expect(() => importPeftAdapter(layout, patched({ r: 3 }), weights)).toThrow(/has shape \[2, 32\], need \[3, 32\]/);
    expect(() => importPeftAdapter(layout, patched({ target_modules: ['q_proj'] }), weights)).toThrow(
      /unexpected tensor 'base_model\.model\.model\.layers\.0\.mlp\.down_proj/,
    );
  });
});
