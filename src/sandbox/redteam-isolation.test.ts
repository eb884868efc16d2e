// Red team, property 7: what one job changes never reaches the next job or a ground-truth run.
import { describe, expect, it } from 'vitest';
import { statuses, usePool } from './test-helpers';

const pool = usePool();

/** Job A runs `attack` at definition time; job B then checks the world with `check` (must hold). */
async function isolated(attack: string, check: string): Promise<void> {
  const a = await pool().judge({
    code: `${attack}\ndef f():\n    return 1\n`,
    entryPoint: 'f',
    tests: ['assert f() == 1'],
  });
  expect(a.compileError ?? '').not.toMatch(/Internal/);
  const b = await pool().judge({
    code: `def f():\n    return ${check}\n`,
    entryPoint: 'f',
    tests: ['assert f() == True'],
  });
  expect([attack, statuses(b)[0], b.verdicts[0].message]).toEqual([attack, 'passed', undefined]);
}

describe('7. isolation between jobs', () => {
  it('globals of one job are gone in the next', async () => {
    await isolated('secret = 42', "'secret' not in globals()");
  });

  it('shadowed or patched builtins do not leak', async () => {
    await isolated('len = lambda x: 0\nprint = None', 'len([1, 2]) == 2 and callable(print)');
    await isolated(
      'import builtins\ntry:\n    builtins.len = lambda x: 0\nexcept Exception:\n    pass',
      'len([1, 2]) == 2',
    );
  });

  it('replaced modules do not leak', async () => {
    await isolated("import sys\nsys.modules['math'] = type(sys)('math')", "__import__('math').sqrt(4) == 2.0");
    await isolated(
      "import sys\nsys.path.insert(0, '/tmp')\nopen('/tmp/heapq.py', 'w').write('X = 1')",
      "not hasattr(__import__('heapq'), 'X')",
    );
    await isolated('import math\ntry:\n    math.pi = 3\nexcept Exception:\n    pass', "__import__('math').pi > 3.14");
    await isolated(
      'import collections\ntry:\n    collections.Counter.most_common = None\nexcept Exception:\n    pass',
      "__import__('collections').Counter('aab').most_common(1) == [('a', 2)]",
    );
  });

  it('files written in the in-memory FS are gone', async () => {
    await isolated(
      "open('/tmp/note.txt', 'w').write('x')\nimport os\nos.mkdir('/tmp/d')",
      "not __import__('os').path.exists('/tmp/note.txt') and not __import__('os').path.exists('/tmp/d')",
    );
    await isolated(
      "open('/home/pyodide/.rc', 'w').write('x')",
      "not __import__('os').path.exists('/home/pyodide/.rc')",
    );
  });

  it('the recursion limit, cwd and environment are restored', async () => {
    await isolated('import sys\nsys.setrecursionlimit(60)', "__import__('sys').getrecursionlimit() == 1000");
    await isolated(
      "import os\nos.chdir('/')\nos.environ['EVIL'] = '1'",
      "__import__('os').getcwd() == '/tmp/work' and 'EVIL' not in __import__('os').environ",
    );
    await isolated(
      'import decimal\ndecimal.getcontext().prec = 2',
      "str(__import__('decimal').Decimal(1) / 3) == '0.3333333333333333333333333333'",
    );
    await isolated(
      "import warnings\nwarnings.simplefilter('error')",
      "len(__import__('warnings').filters) == 0 or __import__('warnings').filters[0][0] != 'error'",
    );
  });

  it('a ground-truth validation after a hostile job sees a clean interpreter', async () => {
    await pool().judge({
      code: "import sys\nsys.setrecursionlimit(40)\nopen('/tmp/x', 'w').write('1')\nlen = None\ndef f(n):\n    return 0\n",
      entryPoint: 'f',
      tests: ['assert f(1) == 0'],
    });
    const v = await pool().validate('def f(n):\n    return n if n < 2 else f(n - 1) + f(n - 2)\n', 'f', [
      { text: 'assert f(20) == 6765', call: 'f(20)', expected: '6765' },
    ]);
    expect(v[0]).toMatchObject({ callOk: true, valid: true, gtOutput: '6765' });
  });
});
