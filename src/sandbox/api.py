# Sandbox entry points called by the worker, one job at a time: begin, prep (expected values), define
# (candidate), run (one test). Every call returns JSON; nothing here hands the candidate a JS object.
import ast as _aast

_ST = {'suite': None, 'exp_fns': (), 'calls': (), 'exp_ns': None}
_CODE_CACHE = {}


def _cached(key, make):
    c = _CODE_CACHE.get(key)
    if c is None:
        if len(_CODE_CACHE) > 4096:
            _CODE_CACHE.clear()
        try:
            c = ('ok', make())
        except SyntaxError as e:
            c = ('err', {'e': 'SyntaxError', 'm': f'{e.msg} (line {e.lineno})'})
        except SandboxViolation as e:  # noqa: F821 (guard.py)
            c = ('err', {'e': 'SandboxViolation', 'm': str(e)})
        _CODE_CACHE[key] = c
    return c


def _guarded(fn, *args, **kwargs):
    """Run untrusted code with the audit hook armed. Returns (value, None) | (None, 'T') | (None, error)."""
    _H.active = True  # noqa: F821 (harness.py)
    try:
        return fn(*args, **kwargs), None
    except _KI:  # noqa: F821
        return None, 'T'
    except _BaseException as e:  # noqa: F821
        return None, e
    finally:
        _H.active = False  # noqa: F821


def flush():
    """Push buffered output to the worker's capped writers (once per job, after its last step)."""
    for s in (_sys.stdout, _sys.stderr):  # noqa: F821
        try:
            s.flush()
        except _BaseException:  # noqa: F821
            pass
    return ''


def begin(setup):
    _H.active = False  # noqa: F821
    _restore()  # noqa: F821
    job = _Job(setup)  # noqa: F821
    _JOB['state'] = job  # noqa: F821
    _ST.update(suite=None, exp_fns=(), calls=())
    _ST['exp_ns'] = {'__name__': '__expected__', '__builtins__': dict(_PRISTINE_BUILTINS)}  # noqa: F821
    if setup:
        for ns in (job.ns, _ST['exp_ns']):
            _, err = _guarded(exec, setup, ns)
            if err is not None:
                return _json.dumps(_err(err) if err != 'T' else {'t': 1})  # noqa: F821
    return '{}'


def prep(tests_json, start, stop):
    """Prepare the suite, then evaluate the expected values of tests start..stop-1 without the candidate.
    The worker asks for one test per step, so a hard stop is charged to the right test."""
    s = suite_for(tests_json)  # noqa: F821 (suite.py)
    _ST['suite'] = s
    if start == 0 and s.code is not None:
        # Only builds lambdas (nothing user-written runs yet), but armed anyway: defence in depth.
        fns, err = _guarded(eval, s.code, _ST['exp_ns'])
        if err is not None:
            return _json.dumps([{'k': 'x', 'e': 'Internal', 'm': 'tests did not compile'}] * (min(stop, len(s.kinds)) - start))  # noqa: F821
        _ST['exp_fns'] = fns
    out = []
    for i in range(start, min(stop, len(s.kinds))):
        kind = s.kinds[i]
        if kind == 's':
            out.append({'k': 's'})
            continue
        if kind != 'c':
            out.append({'k': 'x', **kind[1]})
            continue
        if s.exp_index[i] is None:
            out.append({'k': 'c', 'x': s.lit[i]})
            continue
        val, err = _guarded(_ST['exp_fns'][s.exp_index[i]])
        if err == 'T':
            out.append({'k': 'c', 't': 1})
            break
        if err is not None:
            out.append({'k': 'c', **_err(err)})  # noqa: F821
            continue
        try:
            out.append({'k': 'c', 'x': _canon(val)})  # noqa: F821
        except _CanonError as e:  # noqa: F821
            out.append({'k': 'c', 'e': 'UnsupportedExpected', 'm': str(e)})
    return _json.dumps(out)  # noqa: F821


def define(code, entry):
    kind, compiled = _cached(('d', code), lambda: screen(code, 'exec'))  # noqa: F821
    if kind == 'err':
        return _json.dumps(compiled)  # noqa: F821
    ns = _JOB['state'].ns  # noqa: F821
    _, err = _guarded(exec, compiled, ns)
    if err == 'T':
        return '{"t":1}'
    if err is not None:
        return _json.dumps(_err(err))  # noqa: F821
    if entry and not callable(ns.get(entry)):
        return _json.dumps({'e': 'NameError', 'm': f'the code does not define a function {entry}()'})  # noqa: F821
    suite = _ST['suite']
    if suite is not None and suite.code is not None:
        calls, err = _guarded(eval, suite.code, ns)  # lambdas whose globals are the candidate's namespace
        if err is not None:
            return _json.dumps({'e': 'Internal', 'm': 'tests did not compile'})  # noqa: F821
        _ST['calls'] = calls
    return '{}'


def _result(val, err, want_repr):
    if err == 'T':
        return '{"t":1}'
    if err is not None:
        return _json.dumps(_err(err))  # noqa: F821
    try:
        tree = _canon(val)  # noqa: F821
    except _CanonError as e:  # noqa: F821
        return _json.dumps({'e': 'UnsupportedResult', 'm': str(e), 'bad': 1})  # noqa: F821
    res = {'v': tree}
    if want_repr:
        try:
            res['r'] = repr(_from_tree(tree))  # noqa: F821
        except _BaseException:  # noqa: F821
            pass
    return _json.dumps(res)  # noqa: F821


def call(name, payload, want_repr):
    """A literal test read by the worker: `name(*args, **kwargs)` with fresh copies of the arguments."""
    ns = _JOB['state'].ns  # noqa: F821
    fn = ns.get(name)
    if fn is None:
        fn = ns['__builtins__'].get(name)
    if fn is None:
        return _json.dumps({'e': 'NameError', 'm': f"name '{name}' is not defined"})  # noqa: F821
    d = _json.loads(payload)  # noqa: F821
    args = [_from_tree(a) for a in d['a']]  # noqa: F821
    kwargs = {k: _from_tree(v) for k, v in d['k'].items()}  # noqa: F821
    val, err = _guarded(fn, *args, **kwargs)
    return _result(val, err, want_repr)


def run(i, want_repr):
    """Run test i against the defined candidate; the comparison with the expected value happens in JS."""
    s = _ST['suite']
    ns = _JOB['state'].ns  # noqa: F821
    if s.kinds[i] == 's':
        _, err = _guarded(exec, s.stmt[i], ns)
        if err is None:
            return '{"p":1}'
        if err == 'T':
            return '{"t":1}'
        if type(err) is AssertionError:
            return '{"f":1}'
        return _json.dumps(_err(err))  # noqa: F821
    val, err = _guarded(_ST['calls'][s.call_index[i]])
    return _result(val, err, want_repr)


{'begin': begin, 'prep': prep, 'define': define, 'run': run, 'call': call, 'flush': flush, 'extract': extract}  # noqa: F821
