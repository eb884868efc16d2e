// Writes the reference runs (code-a1, golden and self-play, every seed recorded) as run bundles into public/reference,
// with an index.json the lab reads for its "Show reference runs" button. Run after scripts/reference-runs.sh.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeBundle } from '../src/app/persist/bundle';
import { referenceBundle } from '../src/app/persist/reference';
import { UsageError, intArg, runMain } from '../src/cli/args';
import { parseCli } from '../src/cli/cli-spec';
import { REFERENCE_BUNDLES_SPEC } from '../src/cli/help/analysis-specs';

const MODES = ['code-a1', 'golden', 'self-play'];

runMain(async () => {
  const parsed = parseCli(REFERENCE_BUNDLES_SPEC, process.argv.slice(2));
  if (!parsed) return;
  const from = typeof parsed.args.from === 'string' ? parsed.args.from : 'docs/results-data/reference';
  const out = typeof parsed.args.out === 'string' ? parsed.args.out : 'public/reference';
  const steps = intArg(parsed.args, 'steps', 100, { min: 1 });
  if (!existsSync(from))
    throw new UsageError(`--from ${from}: no such directory (run scripts/reference-runs.sh first)`);
  // <mode>-s<seed>, modes in the page's order, seeds ascending.
  const dirs = readdirSync(from)
    .map((name) => ({ name, m: /^(.+)-s(\d+)$/.exec(name) }))
    .filter((d) => d.m && MODES.includes(d.m[1]) && existsSync(join(from, d.name, 'eval.jsonl')))
    .map((d) => ({ name: d.name, mode: d.m![1], seed: Number(d.m![2]) }))
    .sort((a, b) => MODES.indexOf(a.mode) - MODES.indexOf(b.mode) || a.seed - b.seed);
  if (!dirs.length) throw new UsageError(`${from}: no <mode>-s<seed> record directories with an eval.jsonl`);
  const built = dirs.map((d) => {
    const dir = join(from, d.name);
    const read = (f: string) => readFileSync(join(dir, f), 'utf8');
    return { ...d, dir, ...referenceBundle(read('config.json'), read('metrics.jsonl'), read('eval.jsonl')) };
  });
  // Every run must have reached --steps before anything is written: the shipped set is replaced whole or not at all.
  const short = built.filter((b) => b.bundle.metrics.length < steps);
  if (short.length)
    throw new UsageError(
      `${short.map((b) => `${b.name} has ${b.bundle.metrics.length} steps`).join(', ')}; --steps ${steps} needs ${steps} each (resume them with scripts/reference-runs.sh --resume)`,
    );
  mkdirSync(out, { recursive: true });
  const runs = built.map((b) => {
    writeFileSync(join(out, b.file), encodeBundle(b.bundle));
    console.log(`${join(out, b.file)}: ${b.bundle.metrics.length} steps from ${b.dir}`);
    const n = b.bundle.metrics.length;
    return { file: b.file, label: `${b.mode} seed ${b.seed} (tiny, ${n} steps)`, steps: n, dir: b.dir };
  });
  writeFileSync(join(out, 'index.json'), JSON.stringify({ source: from, runs }, null, 1) + '\n');
  // A bundle no longer listed (an older reference set, or a name that changed with its config) is not left behind.
  for (const f of readdirSync(out))
    if (f.endsWith('.codea1') && !runs.some((r) => r.file === f)) {
      rmSync(join(out, f));
      console.log(`removed ${join(out, f)}`);
    }
});
