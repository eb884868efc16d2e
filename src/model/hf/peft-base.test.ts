// adapter_config.json's base_model_name_or_path is something PEFT can load the base from: the hub id of a folder in
// the Hugging Face cache, the absolute path of any other folder, or (files picked in a browser) a placeholder that
// docs/hf.md tells the user to fill in. The CLI's run of LoRA steps checks the field end to end (src/cli/train-hf.test.ts).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildLayout } from '../layout';
import { preset } from '../config';
import { exportPeftAdapter, PEFT_BASE_PLACEHOLDER, peftBaseOf, peftBasePlaceholder } from './export';
import { initLora } from './lora';

const lora = initLora(buildLayout(preset('micro')), { rank: 2, alpha: 4, targets: ['q_proj'] }, 1);
const baseIn = (base: string) =>
  (JSON.parse(exportPeftAdapter(lora, base).get('adapter_config.json') as string) as Record<string, unknown>)
    .base_model_name_or_path;

describe('base_model_name_or_path', () => {
  it('a snapshot in the Hugging Face cache is named by its hub id', () => {
    for (const [path, id] of [
      [
        '/root/.cache/huggingface/hub/models--Qwen--Qwen2.5-Coder-0.5B-Instruct/snapshots/0eb6c2/',
        'Qwen/Qwen2.5-Coder-0.5B-Instruct',
      ],
      ['/data/hf/models--ZJU-REAL--Code-A1-1.5B/snapshots/main', 'ZJU-REAL/Code-A1-1.5B'],
    ])
      expect(baseIn(peftBaseOf(path))).toBe(id);
  });

  it('any other folder by its absolute path (never its last component alone)', () => {
    for (const path of ['/work/models/main', '/work/models/qwen2', '/tmp/models--x/other'])
      expect(baseIn(peftBaseOf(path))).toBe(path);
  });

  it('picked files: the documented placeholder, naming what was picked', () => {
    const base = String(baseIn(peftBasePlaceholder('Qwen2.5-Coder-0.5B')));
    expect(base.startsWith(PEFT_BASE_PLACEHOLDER)).toBe(true);
    expect(base).toContain("'Qwen2.5-Coder-0.5B'");
    expect(readFileSync('docs/hf.md', 'utf8')).toContain(PEFT_BASE_PLACEHOLDER);
  });
});
