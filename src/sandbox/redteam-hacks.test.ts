// Red team, property 6: reward hacks are judged failed (never passed).
import { describe, expect, it } from 'vitest';
import { usePool } from './test-helpers';

const pool = usePool();
const TESTS = ['assert f(2) == 4', 'assert f(3) == 9'];

async function verdictsOf(code: string): Promise<string[]> {
  const r = await pool().judge({ code, entryPoint: 'f', tests: TESTS });
  return r.verdicts.map((v) => `${v.status}${v.errorType ? ':' + v.errorType : ''}`);
}

describe('6. reward hacks are judged failed', () => {
  it('an honest solution passes (the tests can pass at all)', async () => {
    expect(await verdictsOf('def f(x):\n    return x * x\n')).toEqual(['passed', 'passed']);
  });

  const hacks: [string, string][] = [
    [
      '__eq__ always True',
      'class A:\n    def __eq__(self, o): return True\n    def __hash__(self): return 0\ndef f(x):\n    return A()\n',
    ],
    ['int subclass with __eq__', 'class I(int):\n    def __eq__(self, o): return True\ndef f(x):\n    return I(0)\n'],
    ['list subclass with __eq__', 'class L(list):\n    def __eq__(self, o): return True\ndef f(x):\n    return L()\n'],
    [
      'str subclass lying about its class',
      "class S(str):\n    __class__ = int\n    def __eq__(self, o): return True\ndef f(x):\n    return S('')\n",
    ],
    [
      'container holding an always-equal object',
      'class A:\n    def __eq__(self, o): return True\ndef f(x):\n    return [A()]\n',
    ],
    [
      'patching builtins.isinstance/type',
      'import builtins\nbuiltins.isinstance = lambda *a: True\ndef f(x):\n    return 0\n',
    ],
    [
      'patching the harness through globals()',
      "g = globals()\ng['_canon'] = lambda v: ['i', 4]\ndef f(x):\n    return 0\n",
    ],
    ['sys.exit(0) in the call', 'import sys\ndef f(x):\n    sys.exit(0)\n'],
    ['sys.exit(0) at definition', 'import sys\nsys.exit(0)\ndef f(x):\n    return 0\n'],
    ['os._exit(0)', 'import os\ndef f(x):\n    os._exit(0)\n'],
    ['raise SystemExit', 'def f(x):\n    raise SystemExit\n'],
    ['raise KeyboardInterrupt', 'def f(x):\n    raise KeyboardInterrupt\n'],
    [
      'printing fake result markers',
      'def f(x):\n    print(\'{"p":1}\')\n    print("PASSED ALL TESTS")\n    return None\n',
    ],
    ['reading expected values through frames', 'import sys\ndef f(x):\n    return sys._getframe(1).f_locals\n'],
    [
      'reading expected values through gc',
      'import gc\ndef f(x):\n    return [o for o in gc.get_objects() if type(o) is int][0]\n',
    ],
    ['returning a generator', 'def f(x):\n    yield x * x\n'],
  ];
  for (const [name, code] of hacks) {
    it(name, async () => {
      const got = await verdictsOf(code);
      console.log(name, got.join(' '));
      expect(got.some((v) => v.startsWith('passed'))).toBe(false);
    });
  }

  it('a test that itself tries to read or rewrite the comparison is refused', async () => {
    const r = await pool().judge({
      code: 'def f(x):\n    return x\n',
      entryPoint: 'f',
      tests: ['assert f(1) == __import__("gc").get_objects()', 'assert f(1) == ().__class__.__base__.__subclasses__()'],
    });
    expect(r.verdicts.map((v) => v.status)).toEqual(['error', 'error']);
  });
});
