// Red team, issue 13 (3, 4 and the mixing property): nothing a job does survives it, whatever route it takes.
import { describe, expect, it } from 'vitest';
import { freshSeed, mulberry32 } from '../testing/random';
import { statuses, usePool } from './test-helpers';
import type { JudgeRequest } from './types';

const pool = usePool({ spares: 1 });

describe('3. writes outside the writable roots, through dir_fd', () => {
  it('a module planted in site-packages with os.open(dir_fd=...) is not importable by a later job', async () => {
    const attack =
      "import os, sys\ntry:\n    d = [p for p in sys.path if p.endswith('site-packages')][0]\n    fd = os.open(d, os.O_RDONLY)\n    w = os.open('planted13.py', os.O_WRONLY | os.O_CREAT, dir_fd=fd)\n    os.write(w, b'X = 1\\n')\n    os.close(w)\nexcept Exception:\n    pass\ndef f():\n    return 1\n";
    await pool().judge({ code: attack, entryPoint: 'f', tests: ['assert f() == 1'] });
    const later = await pool().judge({
      code: "def f():\n    try:\n        import planted13\n        return 'planted'\n    except ImportError:\n        return 'clean'\n",
      entryPoint: 'f',
      tests: ["assert f() == 'clean'"],
    });
    expect(statuses(later)).toEqual(['passed']);
  });
});

describe('4. state that crosses jobs through the garbage collector', () => {
  it("a self-re-arming __del__ that exec()s into the running job's namespace changes nothing later", async () => {
    const attack =
      'class R:\n    def __init__(self):\n        self.me = self\n    def __del__(self):\n        try:\n            exec("len = lambda x: 42")\n        except Exception:\n            pass\n        R()\nfor _i in range(50):\n    R()\ndef f():\n    return 1\n';
    await pool().judge({ code: attack, entryPoint: 'f', tests: ['assert f() == 1'] });
    for (let i = 0; i < 3; i++) {
      const r = await pool().judge({
        code: 'def f():\n    junk = [[{} for _ in range(50)] for _ in range(400)]\n    return len([1, 2])\n',
        entryPoint: 'f',
        tests: ['assert f() == 2'],
      });
      expect(statuses(r)).toEqual(['passed']);
    }
  });
});

// Poisoning jobs: each tries a different way to change what later jobs see.
const POISON: JudgeRequest[] = [
  {
    code: 'import builtins\ntry:\n    builtins.len = lambda x: 0\nexcept Exception:\n    pass\nlen = lambda x: 0\ndef f(x):\n    return 0\n',
    entryPoint: 'f',
    tests: ['assert f(1) == 1'],
  },
  {
    code: "import functools\nclass O: pass\no = O(); functools.update_wrapper(o, getattr, assigned=('__globals__',), updated=())\nG = vars(o)['__globals__']\nfor k in list(G):\n    if not k.startswith('__'):\n        G[k] = None\ndef f(x):\n    return 0\n",
    entryPoint: 'f',
    tests: ['assert f(1) == 1'],
  },
  {
    code: "import sys, os\nsys.setrecursionlimit(50)\nos.chdir('/')\nopen('/tmp/work/x', 'w').write('1')\ndef f(x):\n    return 0\n",
    entryPoint: 'f',
    tests: ['assert f(1) == 1'],
  },
  {
    code: 'class R:\n    def __init__(self):\n        self.me = self\n    def __del__(self):\n        try:\n            exec("sorted = lambda *a, **k: [9]")\n        except Exception:\n            pass\n        R()\nfor _i in range(30):\n    R()\ndef f(x):\n    return 0\n',
    entryPoint: 'f',
    tests: ['assert f(1) == 1'],
  },
  {
    code: 'def f(x):\n    return x\n',
    entryPoint: 'f',
    tests: [
      "assert f(vars(__import__('functools').update_wrapper(type('O', (), {})(), getattr, assigned=('__globals__',), updated=()))['__globals__'].clear() or 1) == 1",
    ],
  },
  {
    code: 'import math\ntry:\n    math.pi = 3\nexcept Exception:\n    pass\ndef f(x):\n    return 0\n',
    entryPoint: 'f',
    tests: ['assert f(1) == 1'],
  },
];

function honestJob(rand: () => number, i: number): JudgeRequest {
  const n = Math.floor(rand() * 50);
  const variants: JudgeRequest[] = [
    {
      code: `def f(x):\n    return sorted(x) + [len(x), ${n}]\n`,
      entryPoint: 'f',
      tests: [
        `assert f([3, 1]) == [1, 3, 2, ${n}]`,
        `assert f([${n}]) == [${n}, 1, ${n}]`,
        `assert f([]) == [0, ${n}]`,
      ],
    },
    {
      code: `import math\ndef f(x):\n    return math.floor(x * math.pi) + ${n}\n`,
      entryPoint: 'f',
      tests: [`assert f(1) == ${3 + n}`, `assert f(2.0) == ${6 + n}`, `assert f(0) == ${n}`],
    },
    {
      code: `def f(n):\n    return n if n < 2 else f(n - 1) + f(n - 2)\n`,
      entryPoint: 'f',
      tests: ['assert f(20) == 6765', `assert f(${n % 15}) == f(${n % 15})`, 'assert f(3) == 2'],
    },
    {
      code: `import os\ndef f(x):\n    return [os.getcwd(), os.path.exists('/tmp/work/x'), x]\n`,
      entryPoint: 'f',
      tests: [`assert f(${i}) == ['/tmp/work', False, ${i}]`],
    },
    {
      code: 'def f(x):\n    return x\n',
      entryPoint: 'f',
      tests: [`assert f(${n}) == ${n}`, 'assert f(sorted([2, 1])) == [1, 2]', 'assert f(len([1, 2, 3])) == 3'],
    },
  ];
  return variants[Math.floor(rand() * variants.length)];
}

describe('mixing property', () => {
  it('a random mix of poisoning and honest jobs gives the honest jobs exactly the verdicts they get alone', async () => {
    const seed = freshSeed();
    const rand = mulberry32(seed);
    const honest = Array.from({ length: 24 }, (_, i) => honestJob(rand, i));
    const alone: string[][] = [];
    for (const h of honest) alone.push(statuses(await pool().judge(h)));
    const mix: { req: JudgeRequest; h?: number }[] = honest.map((req, h) => ({ req, h }));
    for (let i = 0; i < 16; i++) mix.push({ req: POISON[Math.floor(rand() * POISON.length)] });
    for (let i = mix.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [mix[i], mix[j]] = [mix[j], mix[i]];
    }
    const results = await Promise.all(mix.map((m) => pool().judge(m.req)));
    const diffs = mix.flatMap((m, k) =>
      m.h === undefined || statuses(results[k]).join() === alone[m.h].join()
        ? []
        : [`${m.h}: ${statuses(results[k]).join()} vs ${alone[m.h].join()}`],
    );
    console.log(`seed ${seed}: ${mix.length} jobs, ${diffs.length} honest jobs changed`);
    expect(diffs).toEqual([]);
    expect(alone.flat().filter((s) => s !== 'passed')).toEqual([]);
  }, 300_000);
});
