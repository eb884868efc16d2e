// The export fixtures: deterministic lab models written in HF / PEFT format, which scripts/hf-reference.py
// --check-exports loads with transformers and peft and records logits for (fixtures/hf/exports/).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { preset } from '../config';
import { initParams } from '../init';
import { buildLayout, type Layout } from '../layout';
import { FIXTURE_ROOT, fixtureSource, readReference } from './fixtures-node';
import { bf16Bits, exportHfModel, exportPeftAdapter, labTokenizerFiles, type HfFiles } from './export';
import { SPECIAL_TOKENS } from '../special-tokens';
import { importHfModel } from './import';
import { initLora, mergeLora } from './lora';

export interface ExportCase {
  name: string;
  files: HfFiles;
  /** For a PEFT adapter: the fixture folder of its base model. */
  base?: string;
  prompts: number[][];
  /** Texts whose token ids transformers' AutoTokenizer records, when the case ships a tokenizer. */
  texts?: string[];
  /** What the exported files should compute: our layout and f32 parameters (after any dtype rounding). */
  layout: Layout;
  params: Float32Array;
}

export const EXPORT_BASE = 'qwen2-tied-gqa-f32';

function bf16Round(a: Float32Array): Float32Array {
  const out = new Float32Array(a.length);
  const u = new Uint32Array(out.buffer);
  for (let i = 0; i < a.length; i++) u[i] = bf16Bits(a[i]) << 16;
  return out;
}

export async function buildExportCases(): Promise<ExportCase[]> {
  // A lab-native model the way the lab builds them, with what Qwen2 lacks (no q/k/v bias) and an untied head.
  const micro = buildLayout(preset('micro', { maxSeqLen: 64, tiedEmbeddings: false, qkvBias: false }));
  const microParams = initParams(micro, 7, { std: 0.3, normJitter: 0.2 });
  const microPrompts = [
    [5, 17, 88, 3, 42, 42, 9],
    [511, 0, 64],
  ];
  // LoRA on a transformers-made base: every target module, both factors random.
  const base = await importHfModel(fixtureSource(EXPORT_BASE));
  const adapters = initLora(
    base.layout,
    { rank: 4, alpha: 8, targets: ['q_proj', 'k_proj', 'v_proj', 'o_proj', 'gate_proj', 'up_proj', 'down_proj'] },
    3,
    {
      bStd: 0.05,
    },
  );
  const merged = mergeLora(base.params, adapters);
  const basePrompts = readReference().models[EXPORT_BASE].f32_compute.prompts.map((p) => p.ids);
  const tokenizerFiles = new Map(
    ['tokenizer.json', 'tokenizer_config.json', 'chat_template.jinja'].map((f) => [
      f,
      readFileSync(`${FIXTURE_ROOT}${EXPORT_BASE}/${f}`, 'utf8'),
    ]),
  );
  // The lab's own tokenizer format (a copy of the shipped micro models' tokenizer.json, so re-pretraining them does not
  // change this fixture).
  const labTokenizer = labTokenizerFiles(readFileSync(`${FIXTURE_ROOT}lab-tokenizer/tokenizer.json`, 'utf8'), {
    eos: SPECIAL_TOKENS.end,
    pad: SPECIAL_TOKENS.pad,
    modelMaxLength: micro.config.maxSeqLen,
  });
  return [
    {
      name: 'lab-micro-nobias-f32-sharded',
      files: exportHfModel(micro, microParams, { dtype: 'f32', maxShardBytes: 24_000, tokenizerFiles: labTokenizer }),
      prompts: microPrompts,
      texts: ['def add(a, b):\n    return a + b\n', "<|coder|>assert f('x') == 3<|end|>", '  tabs\tand émojis 🙂'],
      layout: micro,
      params: microParams,
    },
    {
      name: 'lora-merged-bf16',
      files: exportHfModel(base.layout, merged, { dtype: 'bf16', eosTokenIds: base.info.eosTokenIds, tokenizerFiles }),
      prompts: basePrompts,
      layout: base.layout,
      params: bf16Round(merged),
    },
    {
      name: 'lora-peft-adapter',
      files: exportPeftAdapter(adapters, EXPORT_BASE),
      base: EXPORT_BASE,
      prompts: basePrompts,
      layout: base.layout,
      params: merged,
    },
  ];
}

export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
