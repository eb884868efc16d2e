// Red team, properties 1–4: infinite loops (soft and hard stop), memory bombs, deep recursion, output floods.
import { describe, expect, it } from 'vitest';
import { ADD, statuses, usePool } from './test-helpers';

// A small heap ceiling makes the growing-list bomb hit MemoryError quickly; the spare absorbs the respawns.
// A generous grace keeps the soft-stop test meaningful on a loaded machine (soft stop must win there).
const pool = usePool({ spares: 1, memoryCapBytes: 256 * 2 ** 20, recycleBytes: 200 * 2 ** 20, hardStopGraceMs: 1500 });

async function stillWorks(): Promise<void> {
  expect(statuses(await pool().judge(ADD))).toEqual(['passed', 'failed']);
}

describe('1. infinite loops', () => {
  it('a plain loop is stopped softly by the interrupt word and reported as timeout', async () => {
    const before = pool().stats.hardStops;
    const r = await pool().judge({
      code: 'def f(x):\n    while True:\n        x += 1\n',
      entryPoint: 'f',
      tests: ['assert f(1) == 2', 'assert f(2) == 3'],
      timeoutMs: 200,
    });
    expect(statuses(r)).toEqual(['timeout', 'timeout']);
    expect(pool().stats.hardStops).toBe(before);
    await stillWorks();
  });

  it('a loop that swallows KeyboardInterrupt is hard-stopped, and other jobs keep flowing', async () => {
    const before = pool().stats.hardStops;
    const hostile = pool().judge({
      code: 'def f(x):\n    while True:\n        try:\n            while True: pass\n        except BaseException:\n            pass\n',
      entryPoint: 'f',
      tests: ['assert f(1) == 2'],
      timeoutMs: 200,
    });
    const honest = Array.from({ length: 5 }, () => pool().judge(ADD));
    const r = await hostile;
    expect(statuses(r)).toEqual(['timeout']);
    for (const h of await Promise.all(honest)) expect(statuses(h)).toEqual(['passed', 'failed']);
    expect(pool().stats.hardStops).toBeGreaterThan(before);
    await stillWorks();
  });

  it('an expected value that swallows the interrupt is hard-stopped and charged to its own test only', async () => {
    const setupCode =
      'def g(x):\n    return x\ndef spin():\n    while True:\n        try:\n            while True: pass\n        except BaseException:\n            pass\n';
    const r = await pool().judge({
      code: 'def f(x):\n    return x\n',
      entryPoint: 'f',
      tests: ['assert f(1) == g(1)', 'assert f(2) == spin()', 'assert f(3) == g(3)', 'assert f(4) == 5'],
      timeoutMs: 200,
      setupCode,
    });
    expect(statuses(r)).toEqual(['passed', 'timeout', 'passed', 'failed']);
  });

  it('a loop at definition time is a timeout with a compile error', async () => {
    const r = await pool().judge({
      code: 'while True:\n    pass\n',
      entryPoint: 'f',
      tests: ['assert f(1) == 1'],
      timeoutMs: 200,
    });
    // The soft (in-interpreter) timeout or, on a loaded machine, the worker's hard stop: both are timeouts.
    expect(r.compileError).toMatch(/timeout/i);
    expect(statuses(r)).toEqual(['timeout']);
  });
});

describe('2. memory bombs', () => {
  for (const [name, body] of [
    ['list of 10**10', 'return [0] * 10**10'],
    ['string of 10**10', "return 'x' * 10**10"],
    ['ever-growing list', 'l = []\n    while True:\n        l.append(bytearray(10**7))'],
    ['huge int power', 'return 10 ** (10 ** 12)'],
  ] as const) {
    it(`${name} gives error and the pool lives`, async () => {
      const r = await pool().judge({
        code: `def f():\n    ${body}\n`,
        entryPoint: 'f',
        tests: ['assert f() == 1'],
        timeoutMs: name === 'huge int power' ? 1000 : 10_000,
      });
      console.log(name, JSON.stringify(r.verdicts[0]));
      expect(r.verdicts[0].status === 'error' || r.verdicts[0].status === 'timeout').toBe(true);
      if (name !== 'huge int power') expect(r.verdicts[0].status).toBe('error');
      await stillWorks();
    });
  }
});

describe('3. deep recursion', () => {
  it('unbounded recursion is a RecursionError verdict', async () => {
    const r = await pool().judge({
      code: 'def f(n):\n    return f(n + 1) + 1\n',
      entryPoint: 'f',
      tests: ['assert f(0) == 1'],
    });
    expect(r.verdicts[0]).toMatchObject({ status: 'error', errorType: 'RecursionError' });
    await stillWorks();
  });

  it('raising the recursion limit first still ends in an error, not a dead pool', async () => {
    const r = await pool().judge({
      code: 'import sys\nsys.setrecursionlimit(10**6)\ndef f(n):\n    return f(n + 1) + 1\n',
      entryPoint: 'f',
      tests: ['assert f(0) == 1'],
      timeoutMs: 10_000,
    });
    console.log('deep recursion with raised limit', JSON.stringify(r.verdicts));
    expect(r.verdicts.every((v) => v.status === 'error' || v.status === 'timeout')).toBe(true);
    await stillWorks();
  });
});

describe('4. output floods', () => {
  it('stdout and stderr are capped', async () => {
    const r = await pool().judge({
      code: "import sys\ndef f():\n    print('x' * 10**7)\n    for i in range(10**5):\n        print(i, file=sys.stderr)\n    return 1\n",
      entryPoint: 'f',
      tests: ['assert f() == 1'],
      timeoutMs: 5000,
    });
    expect(statuses(r)).toEqual(['passed']);
    expect(r.stdout.length).toBeLessThan(8192 + 100);
    expect(r.stderr.length).toBeLessThan(8192 + 100);
    expect(r.stdout).toMatch(/more bytes dropped/);
  });

  it('an endless print loop is a timeout with capped output', async () => {
    const r = await pool().judge({
      code: "def f():\n    while True:\n        print('spam')\n",
      entryPoint: 'f',
      tests: ['assert f() == 1'],
      timeoutMs: 300,
    });
    expect(statuses(r)).toEqual(['timeout']);
    expect(r.stdout.length).toBeLessThan(8192 + 100);
    await stillWorks();
  });
});

describe('1b. hostile setup code', () => {
  it('setup code that swallows the interrupt settles as a timeout instead of looping through respawns', async () => {
    const before = pool().stats.hardStops;
    const r = await pool().judge({
      code: 'def f(x):\n    return x\n',
      entryPoint: 'f',
      tests: ['assert f(1) == 1'],
      timeoutMs: 200,
      setupCode: 'while True:\n    try:\n        while True: pass\n    except BaseException:\n        pass\n',
    });
    expect(r.compileError).toMatch(/timeout/i);
    expect(pool().stats.hardStops - before).toBe(2);
    expect(statuses(r)).toEqual(['timeout']);
    await stillWorks();
  });
});
