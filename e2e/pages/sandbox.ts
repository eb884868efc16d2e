// Page for e2e/sandbox.spec.ts: runs the main sandbox red-team cases in Chromium Web Workers and exposes the results.
import { createBrowserSandbox } from '../../src/sandbox/browser';
import type { JudgeRequest } from '../../src/sandbox/types';

interface Check {
  name: string;
  statuses: string[];
  compileError?: string;
  detail?: string;
}

const SWALLOW =
  'def f(x):\n    while True:\n        try:\n            while True: pass\n        except BaseException:\n            pass\n';

const GADGET =
  "import functools\nclass O: pass\no = O(); functools.update_wrapper(o, getattr, assigned=('__globals__',), updated=())\nG = vars(o)['__globals__']\n";
const PLANT =
  "import os, sys\ntry:\n    d = [p for p in sys.path if p.endswith('site-packages')][0]\n    fd = os.open(d, os.O_RDONLY)\n    w = os.open('planted13.py', os.O_WRONLY | os.O_CREAT, dir_fd=fd)\n    os.write(w, b'X = 1')\n    os.close(w)\nexcept Exception:\n    pass\ndef f():\n    return 1\n";

const cases: [string, JudgeRequest][] = [
  [
    'honest',
    { code: 'def f(x):\n    return x * x\n', entryPoint: 'f', tests: ['assert f(3) == 9', 'assert f(3) == 10'] },
  ],
  [
    'soft-timeout',
    { code: 'def f(x):\n    while True: x += 1\n', entryPoint: 'f', tests: ['assert f(1) == 1'], timeoutMs: 300 },
  ],
  [
    'memory-bomb',
    {
      code: 'def f(x):\n    l = []\n    while True:\n        l.append(bytearray(10**7))\n',
      entryPoint: 'f',
      tests: ['assert f(1) == 1'],
      timeoutMs: 20000,
    },
  ],
  ['recursion', { code: 'def f(x):\n    return f(x + 1)\n', entryPoint: 'f', tests: ['assert f(1) == 1'] }],
  [
    'output-flood',
    {
      code: "def f(x):\n    for i in range(10**4):\n        print('spam' * 20)\n    return x\n",
      entryPoint: 'f',
      tests: ['assert f(1) == 1'],
      timeoutMs: 5000,
    },
  ],
  ['import-js', { code: 'import js\ndef f(x):\n    return 1\n', entryPoint: 'f', tests: ['assert f(1) == 1'] }],
  [
    'import-pyodide-ffi',
    { code: 'def f(x):\n    return __import__("pyodide.ffi")\n', entryPoint: 'f', tests: ['assert f(1) == 1'] },
  ],
  [
    'eq-hack',
    {
      code: 'class A:\n    def __eq__(self, o): return True\ndef f(x):\n    return A()\n',
      entryPoint: 'f',
      tests: ['assert f(1) == 1'],
    },
  ],
  ['sys-exit', { code: 'import sys\ndef f(x):\n    sys.exit(0)\n', entryPoint: 'f', tests: ['assert f(1) == 1'] }],
  [
    'isolation-write',
    {
      code: "open('/tmp/x', 'w').write('1')\nleak = 1\ndef f(x):\n    return 1\n",
      entryPoint: 'f',
      tests: ['assert f(1) == 1'],
    },
  ],
  [
    'isolation-read',
    {
      code: "import os\ndef f(x):\n    return os.path.exists('/tmp/x') or 'leak' in globals()\n",
      entryPoint: 'f',
      tests: ['assert f(1) == False'],
    },
  ],
  ['hard-stop', { code: SWALLOW, entryPoint: 'f', tests: ['assert f(1) == 1'], timeoutMs: 300 }],
  ['after-hard-stop', { code: 'def f(x):\n    return x\n', entryPoint: 'f', tests: ['assert f(1) == 1'] }],
  // The evaluation's judging: the first timed-out test ends the job, the tests after it are NotRun errors.
  [
    'stop-at-timeout',
    {
      code: 'def f(x):\n    while x == 2:\n        pass\n    return x\n',
      entryPoint: 'f',
      tests: ['assert f(1) == 1', 'assert f(2) == 2', 'assert f(3) == 3'],
      timeoutMs: 300,
      stopAtTimeout: true,
    },
  ],
  // Issue 13: forged verdicts, state that survives a job, exact comparison, result caps, soft-stopped sleep.
  [
    'forge-globals',
    {
      code: `${GADGET}G['_result'] = lambda *a: '{"p":1}'\ndef f(x):\n    return None\n`,
      entryPoint: 'f',
      tests: ['assert f(1) == 2'],
    },
  ],
  [
    'after-forge',
    { code: 'def f(x):\n    return None\n', entryPoint: 'f', tests: ['assert f(1) == 2', 'assert f(1) == None'] },
  ],
  ['plant-dir-fd', { code: PLANT, entryPoint: 'f', tests: ['assert f() == 1'] }],
  [
    'after-plant',
    {
      code: "def f():\n    try:\n        import planted13\n        return 'planted'\n    except ImportError:\n        return 'clean'\n",
      entryPoint: 'f',
      tests: ["assert f() == 'clean'"],
    },
  ],
  [
    'exact-compare',
    {
      code: 'def f(n):\n    return n + 99.0\n',
      entryPoint: 'f',
      tests: ['assert f(10**8) == 100000000', 'assert f(1) == 100'],
    },
  ],
  [
    'args-namespace',
    {
      code: 'def sorted(x, **k):\n    return [0]\ndef f(xs):\n    return xs\n',
      entryPoint: 'f',
      tests: ['assert f(sorted([3, 1])) == [1, 3]'],
    },
  ],
  [
    'shadowed-math',
    {
      code: 'class M:\n    def isclose(self, *a, **k):\n        return True\nmath = M()\ndef f(x):\n    return 0.0\n',
      entryPoint: 'f',
      tests: ['assert math.isclose(f(2), 4.0)'],
      setupCode: 'import math',
    },
  ],
  [
    'result-cap',
    { code: "def f(x):\n    return 'x' * 10**8\n", entryPoint: 'f', tests: ['assert f(1) == 1'], timeoutMs: 10000 },
  ],
  [
    'sleep',
    {
      code: 'import time\ndef f(x):\n    time.sleep(30)\n    return x\n',
      entryPoint: 'f',
      tests: ['assert f(1) == 1'],
      timeoutMs: 300,
    },
  ],
];

async function sandboxChecks(): Promise<{
  checks: Check[];
  probe: Record<string, boolean>;
  coldMs: number[];
  hardStops: number;
}> {
  const sandbox = createBrowserSandbox({
    size: 1,
    spares: 1,
    memoryCapBytes: 256 * 2 ** 20,
    recycleBytes: 200 * 2 ** 20,
  });
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
  const [nan] = await sandbox.validate("def f(x):\n    return float('nan')\n", 'f', [
    { text: 'assert f(0) == 0', call: 'f(0)', expected: '0' },
  ]);
  checks.push({ name: 'nan-ground-truth', statuses: [String(nan.valid), String(nan.gtOutput)] });
  const t0 = performance.now();
  const many = await sandbox.extract(
    Array.from({ length: 10000 }, (_, i) => `assert f(${i}) == ${i}`).join('\n'),
    'f',
    8,
  );
  const deep = await sandbox.extract(`assert f(${Array(3000).fill('1').join('+')}) == 1\nassert f(1) == 2`, 'f', 8);
  checks.push({
    name: 'extract-bounded',
    statuses: [String(many.tests.length + many.rejected.length), ...deep.tests.map((t) => t.text)],
    detail: `ms=${(performance.now() - t0).toFixed(0)}`,
  });
  const ex = await sandbox.extract('assert f(1) == 2\nx = 3\nassert f(x) == 4\nnot python', 'f', 8);
  checks.push({
    name: 'extract',
    statuses: ex.tests.map((t) => t.text),
    detail: ex.rejected.map((r) => r.reason).join('; '),
  });
  const stats = sandbox.stats;
  await sandbox.close();
  return { checks, probe, coldMs: stats.coldStartMs, hardStops: stats.hardStops };
}

(globalThis as unknown as { sandboxChecks: typeof sandboxChecks }).sandboxChecks = sandboxChecks;
