// Writes the export fixtures' files (lab models in HF / PEFT format) to a folder for scripts/hf-reference.py
// --check-exports: `npx tsx scripts/hf-export-cases.ts /tmp/hf-exports`.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildExportCases } from '../src/model/hf/export-cases-node';

const out = process.argv[2];
if (!out) throw new Error('usage: npx tsx scripts/hf-export-cases.ts OUT_DIR');
const index: Record<string, { base?: string; prompts: number[][]; texts?: string[] }> = {};
for (const c of await buildExportCases()) {
  await mkdir(join(out, c.name), { recursive: true });
  for (const [name, data] of c.files) await writeFile(join(out, c.name, name), data);
  index[c.name] = { base: c.base, prompts: c.prompts, texts: c.texts };
  console.log(`${c.name}: ${c.files.size} files`);
}
await writeFile(join(out, 'cases.json'), JSON.stringify(index, null, 1));
