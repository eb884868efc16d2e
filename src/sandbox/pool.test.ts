// The pool under fire: 1,000 mixed hostile jobs with no job lost and no wrong verdict, and recovery from crashes.
import { describe, expect, it } from 'vitest';
import { statuses, usePool } from './test-helpers';
import type { JudgeRequest } from './types';

const pool = usePool({ spares: 1 });

type Case = { req: JudgeRequest; want: string[] };

const SWALLOW =
  'def f(x):\n    while True:\n        try:\n            while True: pass\n        except BaseException:\n            pass\n';

function job(i: number): Case {
  if (i === 300 || i === 700)
    return { req: { code: SWALLOW, entryPoint: 'f', tests: ['assert f(1) == 1'], timeoutMs: 150 }, want: ['timeout'] };
  if (i % 50 === 7)
    return {
      req: {
        code: 'def f(x):\n    while True: x += 1\n',
        entryPoint: 'f',
        tests: ['assert f(1) == 1'],
        timeoutMs: 150,
      },
      want: ['timeout'],
    };
  const n = i % 97;
  const cases: Case[] = [
    {
      req: {
        code: `def f(x):\n    return x + ${n}\n`,
        entryPoint: 'f',
        tests: [`assert f(1) == ${n + 1}`, `assert f(1) == ${n}`],
      },
      want: ['passed', 'failed'],
    },
    { req: { code: 'def f(x):\n    return 1 / 0\n', entryPoint: 'f', tests: ['assert f(1) == 1'] }, want: ['error'] },
    {
      req: { code: 'import js\ndef f(x):\n    return 1\n', entryPoint: 'f', tests: ['assert f(1) == 1'] },
      want: ['error'],
    },
    {
      req: {
        code: 'class A:\n    def __eq__(self, o): return True\ndef f(x):\n    return A()\n',
        entryPoint: 'f',
        tests: ['assert f(1) == 1'],
      },
      want: ['failed'],
    },
    {
      req: { code: 'def f(x):\n    return [0] * 10**10\n', entryPoint: 'f', tests: ['assert f(1) == 1'] },
      want: ['error'],
    },
    {
      req: { code: 'import sys\ndef f(x):\n    sys.exit(0)\n', entryPoint: 'f', tests: ['assert f(1) == 1'] },
      want: ['error'],
    },
    {
      req: {
        code: `def f(x):\n    for i in range(300):\n        print(i, 'x' * 50)\n    return ${n}\n`,
        entryPoint: 'f',
        tests: [`assert f(0) == ${n}`],
      },
      want: ['passed'],
    },
    {
      req: {
        code: `secret${n} = 1\ndef f(x):\n    return [k for k in globals() if k.startswith('secret')]\n`,
        entryPoint: 'f',
        tests: [`assert f(0) == ['secret${n}']`],
      },
      want: ['passed'],
    },
    {
      req: { code: 'def f(x):\n    return f(x + 1)\n', entryPoint: 'f', tests: ['assert f(1) == 1'] },
      want: ['error'],
    },
    {
      req: {
        code: "def f(x):\n    return {'a': [x, (x, 2.5)], 'b': {x}}\n",
        entryPoint: 'f',
        tests: [`assert f(${n}) == {'b': {${n}}, 'a': [${n}, (${n}, 2.5)]}`],
      },
      want: ['passed'],
    },
    { req: { code: 'def f(x)\n    return x\n', entryPoint: 'f', tests: ['assert f(1) == 1'] }, want: ['error'] },
  ];
  return cases[i % cases.length];
}

describe('pool robustness', () => {
  it('1,000 mixed hostile jobs: every job settles once, with the right verdicts', async () => {
    const t0 = performance.now();
    const cases = Array.from({ length: 1000 }, (_, i) => job(i));
    const settled = new Array<number>(cases.length).fill(0);
    const results = await Promise.all(
      cases.map((c, i) =>
        pool()
          .judge(c.req)
          .then((r) => {
            settled[i]++;
            return r;
          }),
      ),
    );
    const wrong = results
      .map((r, i) => ({ i, got: statuses(r), want: cases[i].want }))
      .filter(({ got, want }) => got.join() !== want.join());
    console.log(`1000 jobs in ${((performance.now() - t0) / 1000).toFixed(1)} s; stats`, JSON.stringify(pool().stats));
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(settled.every((n) => n === 1)).toBe(true);
    expect(pool().stats.hardStops).toBeGreaterThanOrEqual(2);
  });

  it('a worker that dies mid-job is replaced and its jobs still settle', async () => {
    const crashes = pool().stats.crashes;
    pool().holdWorker(0); // it stops inside the job it takes, so the kill lands mid-job however loaded the machine is
    const slow = pool().judge({
      code: 'def f(x):\n    s = 0\n    for i in range(3 * 10**6):\n        s += i\n    return x\n',
      entryPoint: 'f',
      tests: ['assert f(1) == 1', 'assert f(2) == 2'],
      timeoutMs: 20_000,
    });
    const queued = Array.from({ length: 3 }, (_, i) =>
      pool().judge({ code: 'def f(x):\n    return x\n', entryPoint: 'f', tests: [`assert f(${i}) == ${i}`] }),
    );
    await pool().killWorkerOnceStarted(0);
    const r = await slow;
    console.log('crashed job', JSON.stringify(r.verdicts));
    expect(r.verdicts[0]).toMatchObject({ status: 'error', errorType: 'WorkerCrash' });
    for (const q of await Promise.all(queued)) expect(statuses(q)).toEqual(['passed']);
    expect(pool().stats.crashes).toBe(crashes + 1);
  });
});
