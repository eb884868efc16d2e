// Red team, issue 13 (1, 2, 9, 10): forged verdicts. Ordinary Python gadgets that reach harness state, tests whose
// arguments poison judging, arguments evaluated in the candidate's namespace, statement tests that trust the candidate.
import { describe, expect, it } from 'vitest';
import { ADD, statuses, usePool } from './test-helpers';
import type { ExtractedTest } from './types';

const pool = usePool({ spares: 1 });

const GADGET_GLOBALS =
  "import functools\nclass O: pass\no = O(); functools.update_wrapper(o, getattr, assigned=('__globals__',), updated=())\nG = vars(o)['__globals__']\n";

async function honestStillRight(): Promise<void> {
  expect(statuses(await pool().judge(ADD))).toEqual(['passed', 'failed']);
  expect(
    statuses(
      await pool().judge({
        code: 'def f(x):\n    return None\n',
        entryPoint: 'f',
        tests: ['assert f(1) == 2', 'assert f(1) == None'],
      }),
    ),
  ).toEqual(['failed', 'passed']);
}

describe('1. a candidate cannot forge a pass, in its own job or a later one', () => {
  it('rebinding harness names reached through a function __globals__ (functools.update_wrapper)', async () => {
    const code = `${GADGET_GLOBALS}for k in list(G):\n    if callable(G[k]) and k.startswith('_'):\n        try:\n            G[k] = lambda *a, **k: '{"p":1}'\n        except Exception:\n            pass\nG['_result'] = lambda *a: '{"p":1}'\ndef f(x):\n    return None\n`;
    const r = await pool().judge({ code, entryPoint: 'f', tests: ['assert f(1) == 2', 'assert f(2) == [3]'] });
    expect(statuses(r).includes('passed')).toBe(false);
    await honestStillRight();
  });

  it('a module written to the working directory and imported runs with real builtins: still no pass', async () => {
    const mod =
      "def go(fn):\n    g = fn.__globals__\n    g['_result'] = lambda *a: '{\\\"p\\\":1}'\n    g['_canon'] = lambda v: ['i', 2]\n";
    const code = `import sys\nopen('m13.py', 'w').write(${JSON.stringify(mod)})\nsys.path.insert(0, '')\ntry:\n    import m13\n    m13.go(getattr)\nexcept Exception:\n    pass\ndef f(x):\n    return None\n`;
    const r = await pool().judge({ code, entryPoint: 'f', tests: ['assert f(1) == 2'] });
    expect(statuses(r)).not.toContain('passed');
    await honestStillRight();
    const later = await pool().judge({
      code: "def f():\n    try:\n        import m13\n        return 'planted'\n    except ImportError:\n        return 'clean'\n",
      entryPoint: 'f',
      tests: ["assert f() == 'clean'"],
    });
    expect(statuses(later)).toEqual(['passed']);
  });
});

describe('2. a Tester test cannot poison the judging of other tests', () => {
  // Valid on the ground truth (it passes the original through when the harness asks for a repr), then turns every
  // later test of the job into a failure.
  const poisonArg =
    "(lambda g: g.update(_result=(lambda o: lambda v, e, w: o(v, e, w) if w else '{\"f\":1}')(g['_result'])) or 1)(vars(__import__('functools').update_wrapper(type('O', (), {})(), getattr, assigned=('__globals__',), updated=()))['__globals__'])";
  const GT = 'def f(x):\n    return x * 2\n';
  it('validated poison + honest tests: a correct candidate passes every honest test and hidden test', async () => {
    const mk = (call: string, expected: string): ExtractedTest => ({
      text: `assert ${call} == ${expected}`,
      call,
      expected,
    });
    const tests = [mk(`f(${poisonArg})`, '2'), mk('f(3)', '6'), mk('f(4)', '8')];
    const v = await pool().validate(GT, 'f', tests);
    const attacks = v
      .filter((t) => t.callOk && t.gtOutput !== undefined)
      .map((t) => `assert ${t.call} == ${t.gtOutput}`);
    const hidden = ['assert f(5) == 10', 'assert f(6) == 12'];
    const r = await pool().judge({ code: GT, entryPoint: 'f', tests: [...attacks, ...hidden] });
    const honest = r.verdicts.slice(attacks.length - 2);
    expect(honest.map((x) => x.status)).toEqual(['passed', 'passed', 'passed', 'passed']);
    expect(v[1]).toMatchObject({ callOk: true, valid: true });
  });
});

describe('9. test arguments are evaluated where the candidate cannot reach', () => {
  it('assert f(len(globals())) == N gives a correct candidate with an extra import the same verdict', async () => {
    const [t] = await pool().validate('def f(n):\n    return n\n', 'f', [
      { text: 'assert f(len(globals())) == 0', call: 'f(len(globals()))', expected: '0' },
    ]);
    expect(t.callOk).toBe(true);
    const attack = `assert ${t.call} == ${t.gtOutput}`;
    for (const code of ['def f(n):\n    return n\n', 'import math, re, json\nX = 1\ndef f(n):\n    return n\n']) {
      expect(statuses(await pool().judge({ code, entryPoint: 'f', tests: [attack] }))).toEqual(['passed']);
    }
  });

  it('a candidate shadowing a builtin used in the test arguments does not change them', async () => {
    const code = 'def sorted(x, **k):\n    return [0]\ndef f(xs):\n    return xs\n';
    expect(
      statuses(await pool().judge({ code, entryPoint: 'f', tests: ['assert f(sorted([3, 1])) == [1, 3]'] })),
    ).toEqual(['passed']);
  });
});

describe('10. dataset statement tests do not trust the candidate', () => {
  const judge = (code: string, tests: string[], setupCode?: string) =>
    pool().judge({ code, entryPoint: 'f', tests, setupCode });
  it('a shadowed math module does not pass math.isclose', async () => {
    const code =
      'class M:\n    def isclose(self, *a, **k):\n        return True\nmath = M()\ndef f(x):\n    return 0.0\n';
    expect(statuses(await judge(code, ['assert math.isclose(f(2), 4.0, rel_tol=0.001)'], 'import math'))).not.toContain(
      'passed',
    );
    expect(
      statuses(
        await judge(
          'def f(x):\n    return x * 2.0\n',
          ['assert math.isclose(f(2), 4.0, rel_tol=0.001)'],
          'import math',
        ),
      ),
    ).toEqual(['passed']);
  });

  it('always-true objects do not pass abs(f(x) - y) < eps or assert f(x)', async () => {
    const code =
      'class A:\n    def __sub__(self, o):\n        return self\n    def __abs__(self):\n        return 0\n    def __bool__(self):\n        return True\ndef f(x):\n    return A()\n';
    const r = await judge(code, ['assert abs(f(2) - 4.0) < 1e-6', 'assert f(2)', 'assert f(2) == 4']);
    expect(statuses(r)).not.toContain('passed');
    const honest = await judge('def f(x):\n    return x * 2.0\n', [
      'assert abs(f(2) - 4.0) < 1e-6',
      'assert f(2)',
      'assert not f(0)',
      'assert f(2) == 5',
    ]);
    expect(statuses(honest)).toEqual(['passed', 'passed', 'passed', 'failed']);
  });

  it('a HumanEval-style check(candidate) still works, helper functions included', async () => {
    const check =
      'def check(candidate):\n    assert candidate(2) == 4\n    assert abs(helper(0.5) - 1.0) < 1e-9\n\ncheck(f)';
    const good = 'def helper(x):\n    return 2 * x\ndef f(x):\n    return helper(x)\n';
    expect(statuses(await judge(good, [check]))).toEqual(['passed']);
    expect(statuses(await judge(good.replace('2 * x', '2 * x + 1'), [check]))).toEqual(['failed']);
  });
});

describe('1b. a test that does not call the entry point is not decided by the candidate', () => {
  it('assert len([1, 2]) == 2 is not passed or failed by a candidate that shadows len', async () => {
    const r = await pool().judge({
      code: 'def len(x):\n    return 7\ndef f(x):\n    return x\n',
      entryPoint: 'f',
      tests: ['assert len([1, 2]) == 2', 'assert len([1, 2]) == 7'],
    });
    expect(statuses(r)).toEqual(['passed', 'failed']);
  });
});
