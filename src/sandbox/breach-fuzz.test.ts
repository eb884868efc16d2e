// Tests that assume the breach: the candidate is handed the harness's globals, Pyodide's core module, the real sys and
// builtins (the `breach` fixture), enumerates every namespace it can reach (the harness's module dict, builtins, every
// module in sys.modules, Pyodide's core) and replaces every entry, callable or value, with an adversarial stand-in.
// It names no helper: whatever the harness's functions are called, all of them are replaced. A wrong candidate must
// never be `passed`, and the next honest job's verdicts must be unchanged.
import { describe, expect, it } from 'vitest';
import { ADD, statuses, usePool } from './test-helpers';

const pool = usePool({ breach: true, spares: 1 });

/** The stand-ins: each shape the worker protocol has used, raising, huge, self-referencing, shared state, JS. */
const STAND_INS = `
PROTOCOL = [('p',), ('f',), ('t',), ('ok',), ('v', 2), ('v', 2, '2'), ('v', [3], '[3]'), ('e', 'Timeout', ''),
            ('ok', ('v', ((4,), {})), ('v', 4)), ('ok', (('c', 'f', True, 0),) * 8), '{"p":1}', '{"f":1}', ('p', 1)]
def make(kind, i):
    if kind == 0:
        shape = PROTOCOL[i % len(PROTOCOL)]
        return lambda *a, **k: shape
    k = kind - 1
    if k == 0:
        def boom(*a, **kw):
            raise RuntimeError('stand-in')
        return boom
    if k == 1:
        return lambda *a, **kw: [0] * 3_000_000
    if k == 2:
        def loop(*a, **kw):
            x = []
            x.append(x)
            return ('v', x)
        return loop
    if k == 3:
        def mutate(*a, **kw):
            for d in SPACES:
                try:
                    d[1]['__stand_in_state__'] = i
                except BaseException:
                    pass
            return ('p',)
        return mutate
    def js(*a, **kw):
        try:
            core = BREACH['core']
            proto = core.to_js([1]).constructor.prototype
            setattr(proto, 'push', core.create_proxy(lambda *x: 0))
        except BaseException:
            pass
        return ('p',)
    return js
`;

/**
 * Candidate source: a wrong `f`; every entry of the chosen namespaces is replaced by stand-in `kind` while the code
 * is defined or inside f's first call (alternating with the seed).
 */
function attacker(select: string, kind: number, seed: number): string {
  return `
RB = BREACH['builtins']
getattr_, vars_ = RB.getattr, RB.vars
import random
rng = random.Random(${seed})
SPACES = [('harness', BREACH['harness']), ('builtins', vars_(RB)), ('core', vars_(BREACH['core']))]
for name, m in sorted(BREACH['sys'].modules.items()):
    try:
        SPACES.append(('module ' + name, vars_(m)))
    except BaseException:
        pass
${STAND_INS}
def chosen():
    sel = ${JSON.stringify(select)}
    if sel.startswith('modules:'):
        a, b = (int(x) for x in sel[8:].split(','))
        mods = [s for s in SPACES if s[0].startswith('module ')]
        return mods[a * len(mods) // b:(a + 1) * len(mods) // b]
    if sel == 'sample':
        return SPACES
    return [s for s in SPACES if s[0] == sel]
sample = ${JSON.stringify(select)} == 'sample'
def attack():
    replaced = 0
    for label, d in chosen():
        for key in list(d):
            if key in ('__builtins__', '__name__') or (sample and rng.random() > 0.1):
                continue
            try:
                d[key] = make(${kind}, replaced)
                replaced += 1
            except BaseException:
                pass
# While being defined, or inside its first call (then the worker's own path runs right after it).
DONE = []
if ${kind} % 2 == ${seed} % 2:
    DONE.append(attack())
def f(x=None, **k):
    if not DONE:
        DONE.append(1)
        attack()
    return None
`;
}

/** Tests the wrong candidate (returns None) must fail: JS-read literals, Python-evaluated ones, keyword arguments. */
const TESTS = [
  'assert f(1) == 2',
  'assert f(2) == [3]',
  "assert f(3) == {'a': (1, 2.5)}",
  'assert f(4) == 2 * 3',
  "assert f('x') == 'ab'.upper()",
  'assert f(list(range(3))) == [0, 1, 2]',
  "assert f(x=5) == b'five'",
  'assert f(6) == 1.5',
];

async function honestUnchanged(): Promise<void> {
  expect(statuses(await pool().judge(ADD))).toEqual(['passed', 'failed']);
  const none = {
    code: 'def f(x):\n    return None\n',
    entryPoint: 'f',
    tests: ['assert f(1) == None', 'assert f(1) == 0'],
  };
  expect(statuses(await pool().judge(none))).toEqual(['passed', 'failed']);
}

/** The same, one entry of the harness's namespace at a time (its index in sorted order), with shape `shape`. */
function oneEntry(index: number, shape: number, atDefine: boolean): string {
  return `
H = BREACH['harness']
${STAND_INS}
SPACES = []
KEYS = sorted(k for k in H if k not in ('__builtins__', '__name__'))
def attack():
    H[KEYS[${index}]] = make(0, ${shape})
DONE = []
if ${atDefine ? 'True' : 'False'}:
    DONE.append(attack())
def f(x=None, **k):
    if not DONE:
        DONE.append(1)
        attack()
    return None
`;
}

const SELECTIONS = ['harness', 'builtins', 'core', 'sample', ...Array.from({ length: 6 }, (_, a) => `modules:${a},6`)];
/** 0: each shape of the protocol in turn over the entries; 1 raise; 2 huge; 3 self-referencing; 4 shared state; 5 JS. */
const KINDS = 6;

describe('the candidate owns the interpreter: a wrong candidate is never passed, the next job is unchanged', () => {
  it('the fixture really hands over the harness globals and Pyodide core', async () => {
    const code =
      "H = BREACH['harness']\nC = BREACH['core']\ndef f():\n    return [type(H).__name__, len(H) > 20, callable(C.to_js)]";
    const r = await pool().judge({ code, entryPoint: 'f', tests: ["assert f() == ['dict', True, True]"] });
    expect(statuses(r)).toEqual(['passed']);
  });

  it('each entry of the harness namespace alone replaced by each protocol shape', async () => {
    const count = await pool().judge({
      code: "H = BREACH['harness']\ndef f():\n    return len([k for k in H if k not in ('__builtins__', '__name__')])",
      entryPoint: 'f',
      tests: ['assert f() == 0'],
    });
    const n = Number(/got (\d+)/.exec(count.verdicts[0].message ?? '')?.[1]);
    expect(n).toBeGreaterThan(50);
    const tests = ['assert f(1) == 2', "assert f('x') == 'ab'.upper()", "assert f(x=5) == b'five'"];
    for (let index = 0; index < n; index++) {
      for (const shape of [0, 4, 5 + (index % 8)]) {
        const atDefine = (index + shape) % 2 === 0;
        const r = await pool().judge({
          code: oneEntry(index, shape, atDefine),
          entryPoint: 'f',
          tests,
          trustedTests: atDefine,
        });
        const passed = r.verdicts.flatMap((v, i) => (v.status === 'passed' ? [tests[i]] : []));
        expect({ index, shape, passed }).toEqual({ index, shape, passed: [] });
      }
      if (index % 10 === 9) await honestUnchanged();
    }
    await honestUnchanged();
  }, 600_000);

  for (const select of SELECTIONS)
    it(`every entry of ${select} replaced by each stand-in`, async () => {
      for (let kind = 0; kind < KINDS; kind++) {
        const seed = 1000 * kind + select.length + SELECTIONS.indexOf(select);
        // Both ways of preparing Python-evaluated tests (one interpreter each, or shared), on alternate jobs.
        const trustedTests = (kind + SELECTIONS.indexOf(select)) % 2 === 1;
        const r = await pool().judge({
          code: attacker(select, kind, seed),
          entryPoint: 'f',
          tests: TESTS,
          trustedTests,
        });
        const passed = r.verdicts.flatMap((v, i) => (v.status === 'passed' ? [TESTS[i]] : []));
        expect({ select, kind, passed }).toEqual({ select, kind, passed: [] });
        await honestUnchanged();
      }
    }, 600_000);
});
