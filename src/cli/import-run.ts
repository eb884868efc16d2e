// `npm run import-run -- --verl-logs DIR [--out runs/NAME]`: a cluster run of the published Code-A1 recipe (its console
// log, or a W&B history export as .jsonl) → the lab's metrics.jsonl, to overlay on the lab's charts ("Compare with…").
import { readdir, readFile, mkdir, writeFile, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { parseCli } from './cli-spec';
import { IMPORT_RUN_SPEC } from './help/model-specs';
import { LOG_MAP, RELEASE_METRICS, parseVerlLogs, toLabMetrics } from '../export/verl/logs';
import { runMain, UsageError } from './args';
import { checkSteps } from '../rl/metrics';

const LOG_EXT = /\.(log|txt|out|jsonl)$/;

async function main(): Promise<void> {
  const parsed = parseCli(IMPORT_RUN_SPEC, process.argv.slice(2));
  if (!parsed) return;
  const { args } = parsed;
  const src = args['verl-logs'];
  if (typeof src !== 'string') throw new UsageError('--verl-logs DIR is required (see --help)');
  const st = await stat(src).catch(() => undefined);
  if (!st) throw new UsageError(`--verl-logs ${src}: no such file or folder`);
  const names = st.isDirectory()
    ? (await readdir(src, { withFileTypes: true }))
        .filter((e) => e.isFile() && LOG_EXT.test(e.name))
        .map((e) => join(src, e.name))
    : [src];
  if (!names.length) throw new UsageError(`--verl-logs ${src}: no .log, .txt, .out or .jsonl file in it`);
  const files = await Promise.all(names.sort().map(async (name) => ({ name, text: await readFile(name, 'utf8') })));
  const steps = parseVerlLogs(files);
  const metrics = toLabMetrics(steps);
  if (!metrics.length)
    throw new Error(
      `${src}: no training step found (expected verl console lines "step:N - reward_a/mean:…" or W&B JSONL with _step)`,
    );
  const out =
    typeof args.out === 'string'
      ? args.out
      : join('runs', `${basename(resolve(st.isDirectory() ? src : join(src, '..')))}-cluster`);
  // The lab's records hold one line per step from step 0: a log with a step twice or a gap is said, not papered over.
  checkSteps(
    metrics.map((m) => m.step),
    (i) => `${src}: logged step ${metrics[i].step + 1}`,
    true,
  );
  if (!args.force && (await stat(join(out, 'metrics.jsonl')).catch(() => undefined)))
    throw new UsageError(`${out} already holds a metrics.jsonl: --force replaces it (or choose another --out)`);
  await mkdir(out, { recursive: true });
  await writeFile(join(out, 'metrics.jsonl'), metrics.map((m) => JSON.stringify(m) + '\n').join(''));
  const raw = [...steps.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([step, m]) => JSON.stringify({ step, ...m }) + '\n');
  await writeFile(join(out, 'verl-metrics.jsonl'), raw.join(''));
  const found = Object.keys(LOG_MAP).filter((k) => metrics.some((m) => k in m));
  const missing = Object.keys(LOG_MAP).filter((k) => !found.includes(k));
  console.log(
    `read ${files.length} file(s): ${steps.size} logged steps → ${metrics.length} training steps in ${join(out, 'metrics.jsonl')} (${found.length} lab metrics)`,
  );
  if (missing.length) console.log(`not in these logs: ${missing.join(', ')}`);
  for (const [k, d] of Object.entries(RELEASE_METRICS))
    if (found.includes(k)) console.log(`${k} (not the lab's ${d.lab}): ${d.why}`);
  console.log(`overlay it in the lab: Runs → "Compare with…" → ${join(out, 'metrics.jsonl')}`);
}

runMain(main);
