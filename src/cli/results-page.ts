// `npm run results-page [-- --check] [--page docs/results.md] [--data docs/results-data] [--readme README.md]`:
// rewrites the generated blocks of the results page (tables, targets, the first screen's sentences) and its figures
// from the committed records, and README's results paragraph; --check only reports whether they are up to date (exit 1
// with the differing lines when not).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { runMain } from './args';
import { parseCli } from './cli-spec';
import { RESULTS_PAGE_SPEC } from './help/analysis-specs';
import { regenerateClaims, regenerateResultsPage, resultsFigures } from '../analysis/results-page-node';

async function main(): Promise<number> {
  const parsed = parseCli(RESULTS_PAGE_SPEC, process.argv.slice(2));
  if (!parsed) return 0;
  const { args } = parsed;
  const pageFile = (args.page as string | undefined) ?? 'docs/results.md';
  const data = (args.data as string | undefined) ?? 'docs/results-data';
  const readme = (args.readme as string | undefined) ?? 'README.md';
  for (const p of [pageFile, data])
    if (!existsSync(p)) {
      console.error(`${p}: not found (run from the repository root, or pass --page / --data)`);
      return 2;
    }
  const page = readFileSync(pageFile, 'utf8');
  // Every file the records determine: the page, its figures, README's paragraph (when README carries the block).
  const files = new Map<string, [string | undefined, string]>([[pageFile, [page, regenerateResultsPage(page, data)]]]);
  for (const [path, svg] of resultsFigures(page, data))
    files.set(path, [existsSync(path) ? readFileSync(path, 'utf8') : undefined, svg]);
  if (existsSync(readme)) {
    const text = readFileSync(readme, 'utf8');
    files.set(readme, [text, regenerateClaims(text, data)]);
  }
  const stale = [...files].filter(([, [now, next]]) => now !== next);
  if (!stale.length) {
    console.log(`${[...files.keys()].join(', ')}: up to date with ${data}`);
    return 0;
  }
  if (args.check) {
    for (const [path, [now, next]] of stale) {
      if (now === undefined) {
        console.log(`${path}: missing`);
        continue;
      }
      // Lines only the file has, and lines only the records give (blocks may grow, so not compared by position).
      const [a, b] = [now.split('\n'), next.split('\n')];
      for (const l of a.filter((l) => !b.includes(l))) console.log(`${path} - ${l.slice(0, 300)}`);
      for (const l of b.filter((l) => !a.includes(l))) console.log(`${path} + ${l.slice(0, 300)}`);
    }
    console.error(`${stale.map(([p]) => p).join(', ')} differ from ${data}: npm run results-page rewrites them`);
    return 1;
  }
  for (const [path, [, next]] of stale) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, next);
    console.log(`wrote ${path}`);
  }
  return 0;
}

runMain(main, { stack: false });
