// `npm run tasks -- verify FILE.jsonl [--timeout MS] [--workers N]`: runs each problem's reference solution
// against its own tests in the Pyodide sandbox; malformed lines count as failed; ends with `N passed, M failed`.
import { readFileSync } from 'node:fs';
import { parseCli } from './cli-spec';
import { TASKS_VERIFY_SPEC } from './help/tasks-specs';
import { createNodeSandbox } from '../sandbox/node';
import { importJsonl, type ImportedItem } from '../tasks/importers';
import { intArg, UsageError } from './args';

async function verifyItem(
  sandbox: ReturnType<typeof createNodeSandbox>,
  item: ImportedItem,
  timeoutMs: number,
): Promise<string | undefined> {
  const r = await sandbox.judge({ ...item.verify, timeoutMs });
  if (r.compileError) return `does not define: ${r.compileError}`;
  const bad = r.verdicts
    .map((v, i) => ({ v, i }))
    .filter(({ v }) => v.status !== 'passed')
    .map(
      ({ v, i }) =>
        `test ${i + 1} ${v.status}${v.errorType ? ` (${v.errorType})` : ''}${v.message ? `: ${v.message}` : ''}`,
    );
  return bad.length ? bad.join('; ') : undefined;
}

export async function verifyCommand(argv: string[]): Promise<number> {
  const parsed = parseCli(TASKS_VERIFY_SPEC, argv);
  if (!parsed) return 0;
  const { args, positional } = parsed;
  const [file] = positional;
  if (!file || positional.length > 1) throw new UsageError(`expected one FILE.jsonl (${TASKS_VERIFY_SPEC.usage[0]})`);
  const timeoutMs = intArg(args, 'timeout', 5000, { min: 1 });
  const workers = args.workers === undefined ? undefined : intArg(args, 'workers', 1, { min: 1, max: 64 });
  const { items, errors } = importJsonl(readFileSync(file, 'utf8'));
  for (const e of errors) console.log(`FAIL ${e.message}`);
  const sandbox = createNodeSandbox(workers ? { size: workers } : {});
  let passed = 0;
  let failed = errors.length;
  try {
    const outcomes = await Promise.all(items.map((item) => verifyItem(sandbox, item, timeoutMs)));
    items.forEach((item, i) => {
      const why = outcomes[i];
      if (why === undefined) passed++;
      else {
        failed++;
        console.log(`FAIL line ${item.line} ${item.problem.id}: ${why.slice(0, 300)}`);
      }
    });
  } finally {
    await sandbox.close();
  }
  console.log(`${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}
