// `npm run bench:sandbox [-- --suites N --python N --workers N --repeats N --no-ab]`: judged candidate suites/s (a candidate
// plus 8 asserts) in the Pyodide pool with the whole-interpreter reset on, against CPython run two ways: one
// `/usr/bin/python3 -I -S` process per candidate (the real interpreter, resolved, not a PATH shim) and one warm
// CPython process exec-ing every candidate with no isolation at all. Prints min/median over repeats, per-CPU-second
// figures (this process and its worker threads; the CPython children's own rusage) and the same-run ratios.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNodeSandbox } from '../sandbox/node';
import { COST_PARTS, measureSuiteCost } from './bench-sandbox-cost';
import type { RestoreMethod } from '../sandbox/protocol';
import type { JudgeRequest } from '../sandbox/types';
import { intArg, runMain } from '../cli/args';
import { parseCli } from '../cli/cli-spec';
import { BENCH_SANDBOX_SPEC } from '../cli/help/bench-specs';

/** Unique candidates (so no compile cache helps), some buggy, each with 8 asserts. */
function makeSuite(i: number): JudgeRequest {
  const k = i % 7;
  const bug = i % 5 === 0 ? ' + 1' : '';
  const templates: [string, (x: number) => string][] = [
    [
      `def f(xs):\n    # suite ${i}\n    return sorted(xs)[::-1]${bug ? '[1:]' : ''}\n`,
      (x) => `assert f([${x}, ${x + 3}, ${x - 2}]) == [${x + 3}, ${x}, ${x - 2}]`,
    ],
    [
      `def f(n):\n    # suite ${i}\n    s = 0\n    for j in range(n):\n        s += j * j\n    return s${bug}\n`,
      (x) => `assert f(${x}) == ${(x * (x - 1) * (2 * x - 1)) / 6}`,
    ],
    [
      `def f(s):\n    # suite ${i}\n    return s[::-1].upper()${bug ? ' + "x"' : ''}\n`,
      (x) => `assert f('ab${x}') == '${x}BA'.upper()`,
    ],
    [
      `from typing import List\n\ndef f(a: List[int]) -> int:\n    # suite ${i}\n    return max(a) - min(a)${bug}\n`,
      (x) => `assert f([${x}, ${2 * x}, 1]) == ${Math.max(x, 2 * x, 1) - Math.min(x, 2 * x, 1)}`,
    ],
    [
      `def f(x):\n    # suite ${i}\n    return {'v': x, 'sq': x * x${bug}}\n`,
      (x) => `assert f(${x}) == {'sq': ${x * x}, 'v': ${x}}`,
    ],
    [
      `import math\ndef f(x):\n    # suite ${i}\n    return math.sqrt(x)${bug}\n`,
      (x) => `assert f(${x * x}) == ${x}.0`,
    ],
    [
      `def f(words):\n    # suite ${i}\n    return [w for w in words if len(w) > 2${bug ? ' - 1' : ''}]\n`,
      (x) => `assert f(['a${x}', 'bb', 'ccc${x}']) == [${x >= 10 ? `'a${x}', ` : ''}'ccc${x}']`,
    ],
  ];
  const [code, test] = templates[k];
  const tests = Array.from({ length: 8 }, (_, j) => test(j + 2 + (i % 11)));
  // Dataset-style tests (trusted text): Python-evaluated ones share one interpreter unless --untrusted-tests.
  return { code, entryPoint: 'f', tests, timeoutMs: 1000, trustedTests: !process.argv.includes('--untrusted-tests') };
}

interface Run {
  perSec: number;
  perCpuSec: number;
  passed: number;
}

const stat = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { min: s[0], median: s[Math.floor(s.length / 2)] };
};

async function benchPyodide(
  suites: JudgeRequest[],
  workers: number,
  repeats: number,
  nCheck: number,
  restore: RestoreMethod,
) {
  const t0 = performance.now();
  const sandbox = createNodeSandbox({ size: workers, restore });
  await sandbox.warm();
  const coldMs = performance.now() - t0;
  await Promise.all(suites.slice(0, 50).map((s) => sandbox.judge(s)));
  const runs: Run[] = [];
  let passedFirst = 0;
  const st = sandbox.stats;
  const r0 = { n: st.restores, ms: st.restoreMs, bytes: st.restoredBytes, copies: st.restoreCopies };
  for (let r = 0; r < repeats; r++) {
    const cpu0 = process.cpuUsage();
    const t1 = performance.now();
    const results = await Promise.all(suites.map((s) => sandbox.judge(s)));
    const secs = (performance.now() - t1) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const cpuSecs = (cpu.user + cpu.system) / 1e6;
    const count = (rs: typeof results) =>
      rs.reduce((n, x) => n + x.verdicts.filter((v) => v.status === 'passed').length, 0);
    passedFirst = count(results.slice(0, nCheck));
    runs.push({ perSec: suites.length / secs, perCpuSec: suites.length / cpuSecs, passed: count(results) });
  }
  const restores = sandbox.stats.restores - r0.n;
  const restoreMs = sandbox.stats.restoreMs - r0.ms;
  const kib = (sandbox.stats.restoredBytes - r0.bytes) / 1024 / Math.max(1, restores);
  await sandbox.close();
  return {
    runs,
    coldMs,
    passedFirst,
    restoresPerSuite: restores / (suites.length * repeats),
    restoreMsEach: restoreMs / Math.max(1, restores),
    kib,
    copiedShare: (st.restoreCopies - r0.copies) / Math.max(1, restores),
  };
}

function pythonSource(s: JudgeRequest): string {
  const runs = s.tests.map((t) => `try:\n    ${t}\n    _ok += 1\nexcept BaseException:\n    pass`).join('\n');
  return `${s.code}\n_ok = 0\n${runs}\nprint(_ok)\n`;
}

// One driver process measures both CPython baselines and the children's CPU time (os.wait4 rusage).
const DRIVER = `import json, os, subprocess, sys, time
py, files, lanes, mode = sys.argv[1], json.load(open(sys.argv[2])), int(sys.argv[3]), sys.argv[4]
t0, c0 = time.perf_counter(), time.process_time()
passed, cpu = 0, 0.0
if mode == 'process':
    running, todo = {}, list(files)
    while todo or running:
        while todo and len(running) < lanes:
            p = subprocess.Popen([py, '-I', '-S', todo.pop()], stdout=subprocess.PIPE)
            running[p.pid] = p
        pid, status, ru = os.wait4(-1, 0)
        p = running.pop(pid)
        out = p.stdout.read()
        p.stdout.close()
        passed += int(out.strip() or 0)
        cpu += ru.ru_utime + ru.ru_stime
else:
    import contextlib, io
    for f in files:
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            exec(compile(open(f).read(), f, 'exec'), {'__name__': '__main__'})
        passed += int(buf.getvalue().strip() or 0)
wall = time.perf_counter() - t0
cpu += time.process_time() - c0
print(json.dumps({'wall': wall, 'cpu': cpu, 'passed': passed}))
`;

function benchCPython(
  python: string,
  suites: JudgeRequest[],
  workers: number,
  repeats: number,
  mode: 'process' | 'warm',
): Run[] {
  const dir = mkdtempSync(join(tmpdir(), 'bench-sandbox-'));
  const files = suites.map((s, i) => {
    const file = join(dir, `s${i}.py`);
    writeFileSync(file, pythonSource(s));
    return file;
  });
  writeFileSync(join(dir, 'files.json'), JSON.stringify(files));
  writeFileSync(join(dir, 'driver.py'), DRIVER);
  const runs: Run[] = [];
  for (let r = 0; r < repeats; r++) {
    const out = spawnSync(
      python,
      ['-I', join(dir, 'driver.py'), python, join(dir, 'files.json'), String(workers), mode],
      { encoding: 'utf8' },
    );
    if (out.status !== 0) throw new Error(`cpython driver failed: ${out.stderr}`);
    const d = JSON.parse(out.stdout) as { wall: number; cpu: number; passed: number };
    runs.push({ perSec: suites.length / d.wall, perCpuSec: suites.length / d.cpu, passed: d.passed });
  }
  rmSync(dir, { recursive: true, force: true });
  return runs;
}

const fmt = (runs: Run[]) => {
  const w = stat(runs.map((r) => r.perSec));
  const c = stat(runs.map((r) => r.perCpuSec));
  return `min ${w.min.toFixed(1)} / median ${w.median.toFixed(1)} suites/s; per CPU-second min ${c.min.toFixed(1)} / median ${c.median.toFixed(1)}`;
};

async function main(): Promise<void> {
  const parsed = parseCli(BENCH_SANDBOX_SPEC, process.argv.slice(2));
  if (!parsed) return;
  const { args } = parsed;
  const workers = intArg(args, 'workers', Math.max(1, availableParallelism() - 1), { min: 1 });
  const n = intArg(args, 'suites', 1000, { min: 1 });
  const nPy = intArg(args, 'python', 200, { min: 1 });
  const repeats = intArg(args, 'repeats', 3, { min: 1 });
  const suites = Array.from({ length: n }, (_, i) => makeSuite(i));
  console.log(
    `suites: candidate + 8 asserts; ${n} in the Pyodide pool, ${nPy} for CPython; ${workers} worker(s); ${repeats} repeats`,
  );
  const py = await benchPyodide(suites, workers, repeats, nPy, 'adaptive');
  console.log(
    `pyodide pool cold start: ${py.coldMs.toFixed(0)} ms (${workers} worker(s), Pyodide + harness + snapshot)`,
  );
  console.log(
    `pyodide pool, whole-interpreter reset on: ${fmt(py.runs)} (${py.runs[0].passed} of ${n * 8} asserts passed)`,
  );
  const cost = (p: typeof py) =>
    `${p.restoresPerSuite.toFixed(2)} restores per suite, ${p.restoreMsEach.toFixed(2)} ms and ${p.kib.toFixed(0)} KiB written each`;
  console.log(
    `  reset cost: ${cost(py)}; ${(100 * py.copiedShare).toFixed(0)} % of restores wrote every page back, the rest ` +
      'compared all memory and wrote back the changed pages (the adaptive choice: whichever timed cheaper)',
  );
  const costs = await measureSuiteCost(suites, repeats);
  const pick = (f: (c: (typeof costs)[number]) => number) => stat(costs.map(f)).median;
  const inProc = pick((c) => c.total);
  console.log(
    `where a suite's CPU goes (the worker code on this thread, CPU clock; median ms per suite of ${repeats} x ${n}):`,
  );
  for (const [key, label] of COST_PARTS) {
    const ms = pick((c) => c.parts[key]);
    console.log(
      `  ${label.padEnd(52)} ${ms.toFixed(3).padStart(7)} ms ${((100 * ms) / inProc).toFixed(0).padStart(3)} %`,
    );
  }
  console.log(
    `  ${'total in-process'.padEnd(52)} ${inProc.toFixed(3).padStart(7)} ms = ${(1000 / inProc).toFixed(0)} suites per CPU-second ` +
      `(${pick((c) => c.restoresPerSuite).toFixed(2)} restores, ${(100 * pick((c) => c.copiedShare)).toFixed(0)} % of them ` +
      `writing everything, ${pick((c) => c.kibPerSuite).toFixed(0)} KiB written per suite)`,
  );
  const lay = costs[costs.length - 1].layout;
  console.log(
    `  memory each restore reads: ${lay.staticMiB.toFixed(2)} MiB static data + ${lay.heapMiB.toFixed(2)} MiB heap ` +
      `(both against the snapshot copy) + ${lay.zeroMiB.toFixed(2)} MiB of zeros above the break`,
  );
  const poolMs = 1000 / stat(py.runs.map((x) => x.perCpuSec)).median;
  console.log(
    `  ${'pool (worker threads) total'.padEnd(52)} ${poolMs.toFixed(3).padStart(7)} ms; the thread hop (event loops, scheduler, wake-ups) ~${(poolMs - inProc).toFixed(3)} ms`,
  );
  if (!args['no-ab']) {
    const perCpu = (p: typeof py) => stat(p.runs.map((x) => x.perCpuSec)).median;
    const cmp = await benchPyodide(suites, workers, repeats, nPy, 'compare');
    console.log(`pyodide pool, reset always comparing (A/B): ${fmt(cmp.runs)}; ${cost(cmp)}`);
    const full = await benchPyodide(suites, workers, repeats, nPy, 'copy');
    console.log(`pyodide pool, reset always writing every page back (A/B): ${fmt(full.runs)}; ${cost(full)}`);
    console.log(
      `  per CPU-second, adaptive / always compare: ${(perCpu(py) / perCpu(cmp)).toFixed(2)}x; ` +
        `adaptive / always write everything: ${(perCpu(py) / perCpu(full)).toFixed(2)}x`,
    );
  }
  let python: string;
  try {
    python = realpathSync('/usr/bin/python3');
  } catch {
    console.log('cpython: /usr/bin/python3 not found, no ratio');
    return;
  }
  const sub = suites.slice(0, nPy);
  const proc = benchCPython(python, sub, workers, repeats, 'process');
  console.log(
    `cpython ${python} -I -S, one process per candidate: ${fmt(proc)} (${proc[0].passed} of ${nPy * 8} passed)`,
  );
  const warm = benchCPython(python, sub, 1, repeats, 'warm');
  console.log(
    `cpython ${python}, one warm process exec-ing each candidate, no isolation: ${fmt(warm)} (${warm[0].passed} passed)`,
  );
  const agree = proc[0].passed === py.passedFirst ? 'agree' : 'DISAGREE';
  console.log(
    `verdicts on the first ${nPy} suites: pyodide ${py.passedFirst} passed, cpython ${proc[0].passed} passed (${agree})`,
  );
  const med = (runs: Run[], k: 'perSec' | 'perCpuSec') => stat(runs.map((r) => r[k])).median;
  console.log(
    `ratio pyodide / process-per-candidate: ${(med(py.runs, 'perSec') / med(proc, 'perSec')).toFixed(1)}x wall, ` +
      `${(med(py.runs, 'perCpuSec') / med(proc, 'perCpuSec')).toFixed(1)}x per CPU-second (goal >= 10x)`,
  );
  console.log(
    `ratio pyodide / warm unisolated cpython: ${(med(py.runs, 'perCpuSec') / med(warm, 'perCpuSec')).toFixed(2)}x per CPU-second (the price of isolation)`,
  );
}

runMain(main);
