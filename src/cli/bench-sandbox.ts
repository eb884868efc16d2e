// `npm run bench:sandbox [-- --suites N --workers N --python N]`: judged candidate suites/s (a candidate plus 8
// asserts, isolation on) in the Pyodide pool vs CPython with one `python3 -I -S` process per candidate, and cold start.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNodeSandbox } from '../sandbox/node';
import type { JudgeRequest } from '../sandbox/types';

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

/** Unique candidates (so no compile cache helps), some buggy, each with 8 asserts. */
function makeSuite(i: number): JudgeRequest {
  const k = i % 7;
  const bug = i % 5 === 0 ? ' + 1' : '';
  const templates: [string, (x: number) => string][] = [
    [`def f(xs):\n    # suite ${i}\n    return sorted(xs)[::-1]${bug ? '[1:]' : ''}\n`, (x) => `assert f([${x}, ${x + 3}, ${x - 2}]) == [${x + 3}, ${x}, ${x - 2}]`],
    [`def f(n):\n    # suite ${i}\n    s = 0\n    for j in range(n):\n        s += j * j\n    return s${bug}\n`, (x) => `assert f(${x}) == ${(x * (x - 1) * (2 * x - 1)) / 6}`],
    [`def f(s):\n    # suite ${i}\n    return s[::-1].upper()${bug ? ' + "x"' : ''}\n`, (x) => `assert f('ab${x}') == '${x}BA'.upper()`],
    [`from typing import List\n\ndef f(a: List[int]) -> int:\n    # suite ${i}\n    return max(a) - min(a)${bug}\n`, (x) => `assert f([${x}, ${2 * x}, 1]) == ${Math.max(x, 2 * x, 1) - Math.min(x, 2 * x, 1)}`],
    [`def f(x):\n    # suite ${i}\n    return {'v': x, 'sq': x * x${bug}}\n`, (x) => `assert f(${x}) == {'sq': ${x * x}, 'v': ${x}}`],
    [`import math\ndef f(x):\n    # suite ${i}\n    return math.sqrt(x)${bug}\n`, (x) => `assert f(${x * x}) == ${x}.0`],
    [`def f(words):\n    # suite ${i}\n    return [w for w in words if len(w) > 2${bug ? ' - 1' : ''}]\n`, (x) => `assert f(['a${x}', 'bb', 'ccc${x}']) == [${x >= 10 ? `'a${x}', ` : ''}'ccc${x}']`],
  ];
  const [code, test] = templates[k];
  const tests = Array.from({ length: 8 }, (_, j) => test(j + 2 + (i % 11)));
  return { code, entryPoint: 'f', tests, timeoutMs: 1000 };
}

async function benchPyodide(
  suites: JudgeRequest[],
  workers: number,
  nPy: number,
): Promise<{ perSec: number; coldMs: number; passed: number; passedFirst: number }> {
  const t0 = performance.now();
  const sandbox = createNodeSandbox({ size: workers });
  await sandbox.warm();
  const coldMs = performance.now() - t0;
  // Warm-up pass (first-call costs), then the timed pass.
  await Promise.all(suites.slice(0, 50).map((s) => sandbox.judge(s)));
  const t1 = performance.now();
  const results = await Promise.all(suites.map((s) => sandbox.judge(s)));
  const secs = (performance.now() - t1) / 1000;
  await sandbox.close();
  const count = (rs: typeof results) => rs.reduce((n, r) => n + r.verdicts.filter((v) => v.status === 'passed').length, 0);
  return { perSec: suites.length / secs, coldMs, passed: count(results), passedFirst: count(results.slice(0, nPy)) };
}

function pythonSource(s: JudgeRequest): string {
  const runs = s.tests.map((t) => `try:\n    ${t}\n    _ok += 1\nexcept BaseException:\n    pass`).join('\n');
  return `${s.code}\n_ok = 0\n${runs}\nprint(_ok)\n`;
}

async function benchCPython(suites: JudgeRequest[], workers: number): Promise<{ perSec: number; passed: number } | undefined> {
  if (spawnSync('python3', ['-c', 'pass']).status !== 0) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'bench-sandbox-'));
  let next = 0;
  let passed = 0;
  const t0 = performance.now();
  const lane = async () => {
    while (next < suites.length) {
      const i = next++;
      const file = join(dir, `s${i}.py`);
      writeFileSync(file, pythonSource(suites[i]));
      const out = await new Promise<string>((resolve) => {
        const p = spawn('python3', ['-I', '-S', file]);
        let text = '';
        p.stdout.on('data', (d: Buffer) => (text += d.toString()));
        p.on('close', () => resolve(text));
      });
      passed += Number(out.trim()) || 0;
    }
  };
  await Promise.all(Array.from({ length: workers }, lane));
  const secs = (performance.now() - t0) / 1000;
  rmSync(dir, { recursive: true, force: true });
  return { perSec: suites.length / secs, passed };
}

async function main(): Promise<void> {
  const workers = flag('--workers', Math.max(1, availableParallelism() - 1));
  const n = flag('--suites', 2000);
  const nPy = flag('--python', 200);
  const suites = Array.from({ length: n }, (_, i) => makeSuite(i));
  console.log(`suites: candidate + 8 asserts, ${n} for Pyodide, ${nPy} for CPython, ${workers} worker(s)`);
  const py = await benchPyodide(suites, workers, nPy);
  console.log(`pyodide pool cold start: ${py.coldMs.toFixed(0)} ms (${workers} worker(s), Pyodide + harness)`);
  console.log(`pyodide pool, isolation on: ${py.perSec.toFixed(1)} suites/s (${py.passed} of ${n * 8} asserts passed)`);
  const cp = await benchCPython(suites.slice(0, nPy), workers);
  if (!cp) {
    console.log('cpython: python3 not found, no ratio');
    return;
  }
  console.log(`cpython, process per candidate (python3 -I -S): ${cp.perSec.toFixed(1)} suites/s (${cp.passed} of ${nPy * 8} asserts passed)`);
  const agree = cp.passed === py.passedFirst ? 'agree' : 'DISAGREE';
  console.log(`verdicts on the first ${nPy} suites: pyodide ${py.passedFirst} passed, cpython ${cp.passed} passed (${agree})`);
  console.log(`ratio pyodide/cpython: ${(py.perSec / cp.perSec).toFixed(1)}x (goal >= 10x)`);
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
