// Writes the reference runs of docs/results-data (code-a1, golden, self-play) as run bundles into public/reference,
// with an index.json the lab reads for its "Overlay reference runs" button. Run after scripts/reference-runs.sh.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeBundle } from '../src/app/persist/bundle';
import { referenceBundle } from '../src/app/persist/reference';
import { runMain } from '../src/cli/args';
import { parseCli } from '../src/cli/cli-spec';
import { REFERENCE_BUNDLES_SPEC } from '../src/cli/help/analysis-specs';

const SRC = 'docs/results-data';
const OUT = 'public/reference';

runMain(async () => {
  if (!parseCli(REFERENCE_BUNDLES_SPEC, process.argv.slice(2))) return;
  mkdirSync(OUT, { recursive: true });
  const runs: { file: string; label: string; steps: number }[] = [];
  for (const mode of ['code-a1', 'golden', 'self-play']) {
    const dir = join(SRC, mode);
    const read = (f: string) => readFileSync(join(dir, f), 'utf8');
    const { file, bundle } = referenceBundle(read('config.json'), read('metrics.jsonl'), read('eval.jsonl'));
    writeFileSync(join(OUT, file), encodeBundle(bundle));
    runs.push({ file, label: `${mode} (tiny, ${bundle.metrics.length} steps)`, steps: bundle.metrics.length });
    console.log(`${join(OUT, file)}: ${bundle.metrics.length} steps`);
  }
  writeFileSync(join(OUT, 'index.json'), JSON.stringify({ source: SRC, runs }, null, 1) + '\n');
  // A bundle whose name changed (its config now differs from the preset in other fields) leaves no stale copy behind.
  for (const f of readdirSync(OUT))
    if (f.endsWith('.codea1') && !runs.some((r) => r.file === f)) {
      rmSync(join(OUT, f));
      console.log(`removed stale ${join(OUT, f)}`);
    }
});
