// The JS realm under the breach (the candidate owns the interpreter and Pyodide's core module): whatever it does to
// JS objects it can reach from Python (intrinsics, Pyodide's proxy classes, errors) is not seen by the next job.
import { describe, expect, it } from 'vitest';
import { ADD, statuses, usePool } from './test-helpers';

const pool = usePool({ breach: true });

/**
 * Python run as the candidate: tries to change JS objects it can reach (a new property everywhere; with `methods`,
 * the methods the worker itself calls too), and returns what it managed to change.
 */
const attack = (methods: boolean) => `
METHODS = ${methods ? 'True' : 'False'}
core = BREACH['core']
done = []
def attempt(name, fn):
    try:
        fn()
        done.append(name)
    except BaseException as e:
        pass
arr = core.to_js([1, 2])
proxy = core.create_proxy(lambda *a: 'forged')
targets = {'Array.prototype': lambda: arr.constructor.prototype, 'Array': lambda: arr.constructor,
           'PyProxy prototype': lambda: proxy.constructor.prototype, 'PyProxy class': lambda: proxy.constructor,
           'Map.prototype': lambda: core.to_js({1: 2}).constructor.prototype,
           'Object.prototype': lambda: arr.constructor.prototype.constructor.prototype}
for tname, get in targets.items():
    def set_attr(t=get):
        setattr(t(), 'polluted', proxy)
    def replace_methods(t=get):
        o = t()
        for k in ('push', 'slice', 'toJs', 'get', 'destroy', 'toString', 'call', 'apply', 'has', 'set'):
            try:
                setattr(o, k, proxy)
                done.append(tname + '.' + k)
            except BaseException:
                pass
    attempt(tname + '.polluted', set_attr)
    if METHODS:
        replace_methods()
def f(x):
    return done
`;

const SEE = `
core = BREACH['core']
def f(x):
    arr = core.to_js([1, 2])
    seen = []
    for t in (arr, arr.constructor, arr.constructor.prototype, core.create_proxy(len).constructor.prototype):
        try:
            seen.append(str(getattr(t, 'polluted')))
        except BaseException:
            pass
    return seen
`;

describe('JS realm: nothing a job does to JS objects reaches the next job', () => {
  it('a property added from Python to intrinsics and proxy classes is refused and not seen by the next job', async () => {
    const r = await pool().judge({ code: attack(false), entryPoint: 'f', tests: ['assert f(0) == []'] });
    expect(r.verdicts[0].message ?? '').toBe('');
    const after = await pool().judge({ code: SEE, entryPoint: 'f', tests: ['assert f(0) == []'] });
    expect([after.verdicts[0].message ?? '', pool().stats.respawns]).toEqual(['', 0]);
    expect(statuses(after)).toEqual(['passed']);
  });

  it('methods the worker calls cannot be replaced from Python: verdicts of the next jobs are unchanged', async () => {
    const r = await pool().judge({ code: attack(true), entryPoint: 'f', tests: ['assert f(0) == []'] });
    expect(r.verdicts[0].message ?? '').toBe('');
    expect(statuses(await pool().judge(ADD))).toEqual(['passed', 'failed']);
    const wrong = {
      code: 'def f(x):\n    return None\n',
      entryPoint: 'f',
      tests: ['assert f(1) == 2', 'assert f(1) == None'],
    };
    expect(statuses(await pool().judge(wrong))).toEqual(['failed', 'passed']);
    expect(pool().stats.respawns).toBe(0);
  });
});
