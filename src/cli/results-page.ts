// `npm run results-page [-- --check] [--page docs/results.md] [--data docs/results-data]`: rewrites the generated
// blocks of the results page (tables, targets, mode comparison) from the committed records; --check only reports
// whether the page is up to date (exit 1 with the differing lines when not).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { runMain } from './args';
import { parseCli } from './cli-spec';
import { RESULTS_PAGE_SPEC } from './help/analysis-specs';
import { regenerateResultsPage } from '../analysis/results-page-node';

async function main(): Promise<number> {
  const parsed = parseCli(RESULTS_PAGE_SPEC, process.argv.slice(2));
  if (!parsed) return 0;
  const { args } = parsed;
  const pageFile = (args.page as string | undefined) ?? 'docs/results.md';
  const data = (args.data as string | undefined) ?? 'docs/results-data';
  for (const p of [pageFile, data])
    if (!existsSync(p)) {
      console.error(`${p}: not found (run from the repository root, or pass --page / --data)`);
      return 2;
    }
  const page = readFileSync(pageFile, 'utf8');
  const next = regenerateResultsPage(page, data);
  if (next === page) {
    console.log(`${pageFile} is up to date with ${data}`);
    return 0;
  }
  // Lines only the page has, and lines only the records give (blocks may grow, so not compared by position).
  const [a, b] = [page.split('\n'), next.split('\n')];
  const stale = a.filter((l) => !b.includes(l));
  const fresh = b.filter((l) => !a.includes(l));
  if (args.check) {
    for (const l of stale) console.log(`- ${l}`);
    for (const l of fresh) console.log(`+ ${l}`);
    console.error(`${pageFile} differs from ${data}: npm run results-page rewrites it`);
    return 1;
  }
  writeFileSync(pageFile, next);
  console.log(`${pageFile}: ${fresh.length} line(s) rewritten, ${stale.length} replaced, from ${data}`);
  return 0;
}

runMain(main, { stack: false });
