// Page for e2e/sandbox.spec.ts: runs the main sandbox red-team cases in Chromium Web Workers and exposes the results.
import { createBrowserSandbox } from '../../src/sandbox/browser';
import type { JudgeRequest } from '../../src/sandbox/types';

interface Check {
  name: string;
  statuses: string[];
  compileError?: string;
  detail?: string;
}

const SWALLOW = 'def f(x):\n    while True:\n        try:\n            while True: pass\n        except BaseException:\n            pass\n';

const cases: [string, JudgeRequest][] = [
  ['honest', { code: 'def f(x):\n    return x * x\n', entryPoint: 'f', tests: ['assert f(3) == 9', 'assert f(3) == 10'] }],
  ['soft-timeout', { code: 'def f(x):\n    while True: x += 1\n', entryPoint: 'f', tests: ['assert f(1) == 1'], timeoutMs: 300 }],
  ['memory-bomb', { code: 'def f(x):\n    l = []\n    while True:\n        l.append(bytearray(10**7))\n', entryPoint: 'f', tests: ['assert f(1) == 1'], timeoutMs: 20000 }],
  ['recursion', { code: 'def f(x):\n    return f(x + 1)\n', entryPoint: 'f', tests: ['assert f(1) == 1'] }],
  ['output-flood', { code: "def f(x):\n    for i in range(10**4):\n        print('spam' * 20)\n    return x\n", entryPoint: 'f', tests: ['assert f(1) == 1'], timeoutMs: 5000 }],
  ['import-js', { code: 'import js\ndef f(x):\n    return 1\n', entryPoint: 'f', tests: ['assert f(1) == 1'] }],
  ['import-pyodide-ffi', { code: 'def f(x):\n    return __import__("pyodide.ffi")\n', entryPoint: 'f', tests: ['assert f(1) == 1'] }],
  ['eq-hack', { code: 'class A:\n    def __eq__(self, o): return True\ndef f(x):\n    return A()\n', entryPoint: 'f', tests: ['assert f(1) == 1'] }],
  ['sys-exit', { code: 'import sys\ndef f(x):\n    sys.exit(0)\n', entryPoint: 'f', tests: ['assert f(1) == 1'] }],
  ['isolation-write', { code: "open('/tmp/x', 'w').write('1')\nleak = 1\ndef f(x):\n    return 1\n", entryPoint: 'f', tests: ['assert f(1) == 1'] }],
  ['isolation-read', { code: "import os\ndef f(x):\n    return os.path.exists('/tmp/x') or 'leak' in globals()\n", entryPoint: 'f', tests: ['assert f(1) == False'] }],
  ['hard-stop', { code: SWALLOW, entryPoint: 'f', tests: ['assert f(1) == 1'], timeoutMs: 300 }],
  ['after-hard-stop', { code: 'def f(x):\n    return x\n', entryPoint: 'f', tests: ['assert f(1) == 1'] }],
];

async function sandboxChecks(): Promise<{ checks: Check[]; probe: Record<string, boolean>; coldMs: number[]; hardStops: number }> {
  const sandbox = createBrowserSandbox({ size: 1, spares: 1, memoryCapBytes: 256 * 2 ** 20, recycleBytes: 200 * 2 ** 20 });
  await sandbox.warm();
  const checks: Check[] = [];
  for (const [name, req] of cases) {
    const r = await sandbox.judge(req);
    checks.push({
      name,
      statuses: r.verdicts.map((v) => v.status),
      compileError: r.compileError,
      detail: `${r.verdicts[0]?.errorType ?? ''} ${r.verdicts[0]?.message ?? ''} stdout=${r.stdout.length}`,
    });
  }
  const probe = await sandbox.probeRealm();
  const ex = await sandbox.extract('assert f(1) == 2\nx = 3\nassert f(x) == 4\nnot python', 'f', 8);
  checks.push({ name: 'extract', statuses: ex.tests.map((t) => t.text), detail: ex.rejected.map((r) => r.reason).join('; ') });
  const stats = sandbox.stats;
  await sandbox.close();
  return { checks, probe, coldMs: stats.coldStartMs, hardStops: stats.hardStops };
}

(globalThis as unknown as { sandboxChecks: typeof sandboxChecks }).sandboxChecks = sandboxChecks;
