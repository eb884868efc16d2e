// Red team, crashes bounded like timeouts: deep C recursion is CPython's RecursionError, not a dead worker; a job
// that does kill its worker costs a bounded number of respawns whatever its number of tests, with honest verdicts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeSandbox, nodeSpawnerWith } from './node';
import type { SandboxPool } from './pool';
import { MAX_WORKER_LOSSES } from './loss-policy';
import { ADD, statuses, usePool } from './test-helpers';
import type { ExtractedTest } from './types';

// lru_cache recursion goes through C on every level: with Node's default 4 MiB worker stack V8 overflowed (a fatal
// RangeError in Pyodide) long before CPython's own guard on the wasm stack; the pool's stack lets the guard fire.
const DEEP =
  'import sys, functools\nsys.setrecursionlimit(10**7)\n@functools.lru_cache(None)\ndef _deep(n):\n    return 0 if n == 0 else _deep(n - 1) + 1\n';
/** Recurses 200,000 levels deep through C on every call. */
const EVERY_CALL = `${DEEP}def f(x):\n    _deep.cache_clear()\n    return _deep(200000) * 0 + x\n`;
/** Recurses x levels deep: fine on small inputs, deep on one. */
const ON_DEEP_INPUT = `${DEEP}def f(x):\n    _deep.cache_clear()\n    return _deep(x)\n`;
const tests = (xs: number[]) => xs.map((x) => `assert f(${x}) == ${x}`);
// A Tester line whose argument is a nest 100,000 lists deep (it crashed a 4 MiB worker while being prepared).
const NEST = "__import__('functools').reduce(lambda a, b: [a], range(10**5), [])";
const line = (call: string): ExtractedTest => ({ text: `assert ${call} == 1`, call, expected: '1' });

describe('the pool as configured: deep C recursion does not kill the worker', () => {
  const pool = usePool();

  it('is a RecursionError on every call, the other tests pass, no respawn', async () => {
    const before = pool().stats.crashes;
    const r = await pool().judge({
      code: ON_DEEP_INPUT,
      entryPoint: 'f',
      tests: tests([1, 200000, 3]),
      timeoutMs: 30_000,
    });
    expect(statuses(r)).toEqual(['passed', 'error', 'passed']);
    expect(r.verdicts[1].errorType).toBe('RecursionError');
    const every = await pool().judge({ code: EVERY_CALL, entryPoint: 'f', tests: tests([1, 2]), timeoutMs: 30_000 });
    expect(every.verdicts.map((v) => v.errorType)).toEqual(['RecursionError', 'RecursionError']);
    expect(pool().stats.crashes).toBe(before);
  });

  it('a Tester line building a deep nest in its arguments is invalid, no respawn', async () => {
    const before = pool().stats.crashes;
    const v = await pool().validate('def f(x):\n    return 1\n', 'f', [line(`f(${NEST})`), line('f(1)')]);
    expect(v.map((t) => t.callOk)).toEqual([false, true]);
    expect(pool().stats.crashes).toBe(before);
    expect(statuses(await pool().judge(ADD))).toEqual(['passed', 'failed']);
  });
});

describe('a worker that does die: the job costs a bounded number of respawns', () => {
  // A 4 MiB stack makes the same recursion a real crash (V8's RangeError, fatal in Pyodide), as in a browser. A
  // generous time limit: on a loaded machine the recursion must crash, not be stopped as a timeout first.
  const timeoutMs = 30_000;
  let pool: SandboxPool | undefined;
  const p = (): SandboxPool => pool as SandboxPool;
  beforeAll(async () => {
    pool = createNodeSandbox({ size: 1, spares: 1 }, nodeSpawnerWith(4));
    await pool.warm();
  });
  afterAll(async () => {
    await pool?.close();
  });

  it('a candidate that crashes on every call: two losses for eight tests, the rest NotRun', async () => {
    const before = p().stats.crashes;
    const r = await p().judge({ code: EVERY_CALL, entryPoint: 'f', tests: tests([1, 2, 3, 4, 5, 6, 7, 8]), timeoutMs });
    expect(p().stats.crashes - before).toBe(MAX_WORKER_LOSSES);
    expect(r.verdicts.map((v) => v.errorType)).toEqual(['WorkerCrash', 'WorkerCrash', ...Array(6).fill('NotRun')]);
    expect(statuses(await p().judge(ADD))).toEqual(['passed', 'failed']);
  });

  it('one crashing test costs one loss and leaves every other verdict as it would be alone', async () => {
    const before = p().stats.crashes;
    const r = await p().judge({ code: ON_DEEP_INPUT, entryPoint: 'f', tests: tests([1, 200000, 3, 4]), timeoutMs });
    expect(p().stats.crashes - before).toBe(1);
    expect(statuses(r)).toEqual(['passed', 'error', 'passed', 'passed']);
    expect(r.verdicts[1].errorType).toBe('WorkerCrash');
  });

  it('the evaluation (stopAtTimeout) stops at the first crash as at the first timeout', async () => {
    const before = p().stats.crashes;
    const r = await p().judge({
      code: ON_DEEP_INPUT,
      entryPoint: 'f',
      tests: tests([1, 200000, 3, 200001]),
      timeoutMs,
      stopAtTimeout: true,
    });
    expect(p().stats.crashes - before).toBe(1);
    expect(statuses(r)).toEqual(['passed', 'error', 'error', 'error']);
    expect(r.verdicts.map((v) => v.errorType)).toEqual([undefined, 'WorkerCrash', 'NotRun', 'NotRun']);
  });

  it('Tester lines that crash while prepared: two losses for six lines, the line before them stays valid', async () => {
    const before = p().stats.crashes;
    const lines = [line('f(1)'), ...Array.from({ length: 5 }, (_, i) => line(`f(${NEST}, ${i})`))];
    const v = await p().validate('def f(x, y=0):\n    return 1\n', 'f', lines, timeoutMs);
    expect(p().stats.crashes - before).toBe(MAX_WORKER_LOSSES);
    expect(v.map((t) => t.callOk)).toEqual([true, false, false, false, false, false]);
    expect(statuses(await p().judge(ADD))).toEqual(['passed', 'failed']);
  });
});
