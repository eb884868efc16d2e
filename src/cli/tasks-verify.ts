// `npm run tasks -- verify FILE.jsonl [--timeout MS] [--workers N]`: runs each problem's reference solution
// against its own tests in the Pyodide sandbox; malformed lines count as failed; ends with `N passed, M failed`.
import { readFileSync } from 'node:fs';
import { intArg } from './args';
import { parseCli } from './cli-spec';
import { TASKS_VERIFY_SPEC } from './help/tasks-specs';
import { createNodeSandbox } from '../sandbox/node';
import { importJsonl, type ImportedItem } from '../tasks/importers';

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

export async function verifyCommand(args: string[]): Promise<number> {
  const parsed = parseCli(TASKS_VERIFY_SPEC, args);
  if (!parsed) return 0;
  const [file, extra] = parsed.positional;
  if (!file || extra !== undefined) throw new Error(`expected one FILE.jsonl (${TASKS_VERIFY_SPEC.usage[0]})`);
  const timeoutMs = intArg(parsed.args, 'timeout', 5000);
  const workers = parsed.args.workers === undefined ? undefined : intArg(parsed.args, 'workers', 1);
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
