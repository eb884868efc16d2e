// Red team, execution-only jobs (ACE's signal): how a call ended — ok, exception, timeout, crash, bad input — must be
// reported from the watchdog and the harness, never from anything the program can forge, and no state may carry over.
import { describe, expect, it } from 'vitest';
import { ADD, statuses, usePool } from './test-helpers';
import type { ExecResult } from './types';

const pool = usePool({ spares: 1, memoryCapBytes: 256 * 2 ** 20, recycleBytes: 200 * 2 ** 20, hardStopGraceMs: 1500 });
const st = (r: ExecResult) => r.outcomes.map((o) => o.status);

describe('execution-only jobs', () => {
  it('tells a normal return, a raised exception and an input whose arguments raise apart', async () => {
    const r = await pool().execute('def f(x):\n    return 10 // x\n', 'f', [
      'f(1)',
      'f(0)',
      'f(undefined_name)',
      'f(1, 2)',
    ]);
    expect(st(r)).toEqual(['ok', 'exception', 'bad-input', 'exception']);
    expect(r.outcomes[1].errorType).toBe('ZeroDivisionError');
    expect(r.outcomes[2].errorType).toBe('NameError');
    expect(r.outcomes[3].errorType).toBe('TypeError');
  });

  it('reports a compile error without running any input', async () => {
    const r = await pool().execute('def f(x)\n    return x\n', 'f', ['f(1)']);
    expect(r.compileError).toMatch(/SyntaxError/);
    expect(r.outcomes).toEqual([]);
  });

  it('a loop, and a loop that swallows the interrupt, are timeouts', async () => {
    const soft = await pool().execute('def f(x):\n    while True:\n        x += 1\n', 'f', ['f(1)'], 200);
    const hard = await pool().execute(
      'def f(x):\n    while True:\n        try:\n            while True: pass\n        except BaseException:\n            pass\n',
      'f',
      ['f(1)'],
      200,
    );
    expect(st(soft)).toEqual(['timeout']);
    expect(st(hard)).toEqual(['timeout']);
    expect(statuses(await pool().judge(ADD))).toEqual(['passed', 'failed']);
  });

  it('a result that cannot be compared, printed or marshalled still counts as a normal return', async () => {
    const code = [
      'class Weird:',
      '    def __eq__(self, o): raise RuntimeError("eq")',
      '    def __repr__(self): raise RuntimeError("repr")',
      'def f(x):',
      '    return Weird() if x else (lambda: 0)',
    ].join('\n');
    expect(st(await pool().execute(code, 'f', ['f(1)', 'f(0)']))).toEqual(['ok', 'ok']);
  });

  it('a program cannot turn its own failure into ok by printing or by raising SystemExit', async () => {
    const code = 'def f(x):\n    print("ok")\n    if x: raise SystemExit(0)\n    raise KeyboardInterrupt\n';
    const r = await pool().execute(code, 'f', ['f(1)', 'f(0)'], 300);
    expect(st(r).every((s) => s !== 'ok')).toBe(true);
  });

  it('a memory bomb is an exception or a crash, and the pool keeps working', async () => {
    const r = await pool().execute(
      'def f(x):\n    a = []\n    while True:\n        a.append([0] * 100000)\n',
      'f',
      ['f(1)'],
      5000,
    );
    expect(['exception', 'crash', 'timeout']).toContain(st(r)[0]);
    expect(st(await pool().execute('def f(x):\n    return x\n', 'f', ['f(3)']))).toEqual(['ok']);
  });

  it('state a program leaves behind does not reach the next job', async () => {
    await pool().execute('import builtins\nbuiltins.PLANTED = 1\ndef f(x):\n    return x\n', 'f', ['f(1)']);
    const r = await pool().execute('def f(x):\n    return PLANTED\n', 'f', ['f(1)']);
    expect(r.outcomes[0]).toEqual({ status: 'exception', errorType: 'NameError' });
  });
});
