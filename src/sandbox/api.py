# Sandbox entry points the worker calls, one phase of a job at a time (the worker restores the whole interpreter
# between phases): E evaluates test arguments and expected values with no candidate defined; C defines the
# candidate (the worker then calls it itself, worker-call.ts); S replays dataset statement tests against what C
# recorded, with no candidate code. Every entry returns a tuple that the worker turns into plain data with marshal
# (C code, exact types only) and reads as data: nothing here decides a verdict, the worker's JS compares values.
_ST = {'kinds': (), 'fns': (), 'base': None}
# Filled in only by the breach test fixture (worker-boot.ts): handed to every candidate as `BREACH`.
_BREACH = {}


def _guarded(fn, *args, **kwargs):
    """Run untrusted code with the audit hook armed: ('v', value) | ('t',) | ('e', type, message)."""
    prev = _H.active  # noqa: F821 (harness.py)
    _H.active = True  # noqa: F821
    try:
        return ('v', fn(*args, **kwargs))
    except _KI:  # noqa: F821
        return ('t',)
    except _BaseException as e:  # noqa: F821
        d = _err(e)  # noqa: F821
        return ('e', d['e'], d['m'])
    finally:
        _H.active = prev  # noqa: F821


_CAP = {'bytes': 1 << 20}


def _too_big(v):
    """Cheap size estimate before marshal copies a value (the worker checks the marshalled length again)."""
    stack, total, n = [v], 0, 0
    while stack:
        x = stack.pop()
        n += 1
        t = type(x)
        if t is str or t is bytes or t is bytearray:
            total += len(x)
        elif t is list or t is tuple or t is set or t is frozenset:
            total += 8 * len(x)
            if n < 100_000:
                stack.extend(x)
        elif t is dict:
            total += 16 * len(x)
            if n < 100_000:
                stack.extend(x.keys())
                stack.extend(x.values())
        else:
            total += 8
        if total > _CAP['bytes']:
            return True
    return False


def _value(r, want_repr=False):
    if r[0] != 'v':
        return r
    if _too_big(r[1]):
        return ('e', 'ResultTooLarge', f'result is larger than {_CAP["bytes"]} bytes')
    if want_repr:
        rr = _guarded(repr, r[1])
        return ('v', r[1], rr[1] if rr[0] == 'v' and type(rr[1]) is str and len(rr[1]) <= _CAP['bytes'] else None)
    return r


def begin(setup, cap):
    _H.active = False  # noqa: F821
    _CAP['bytes'] = cap
    job = _Job(setup)  # noqa: F821
    _JOB['state'] = job  # noqa: F821
    if setup:
        r = _guarded(exec, setup, job.ns)
        if r[0] != 'v':
            return r
    _ST['base'] = dict(job.ns)
    return ('ok',)


def namespace():
    """The job's namespace dict, taken by the worker before any candidate code runs (it looks the entry up there)."""
    return _JOB['state'].ns  # noqa: F821


def classify(tests_json, entry):
    """Phase E, harness code only: kinds of all tests, and their argument/expected lambdas compiled in one go."""
    ns = _JOB['state'].ns  # noqa: F821
    shadowed = frozenset(k for k in ns if k not in ('__builtins__', '__name__'))
    try:
        kinds, codes = prepare(_json.loads(tests_json), entry, shadowed)  # noqa: F821 (suite.py)
        fns = ()
        for code in codes:
            fns += eval(code, ns)
    except (SyntaxError, RecursionError, MemoryError) as e:
        return ('e', _type_name(type(e)), 'tests could not be compiled')  # noqa: F821
    _ST['kinds'], _ST['fns'] = kinds, fns
    out, j = [], 0
    for k in kinds:
        if k[0] == 'c':
            out.append(('c', k[1], k[4], j))
            j += 2
        elif k[0] == 's':
            out.append(('s', tuple(k[2])))
        else:
            out.append(('x', k[1]['e'], k[1]['m']))
    return ('ok', tuple(out))


def _plain(r, what):
    if r[0] != 'v':
        return r
    try:
        _marshal.dumps(r[1], 2)  # noqa: F821
    except (ValueError, TypeError):
        return ('e', 'Unsupported' + what, f'the {what.lower()} is not plain data of builtin types')
    return _value(r)


def evaluate(j):
    """Arguments ((args...), {kwargs}) and expected value of one call test, each ('v', x) | ('e', ...) | ('t',)."""
    fns = _ST['fns']
    args = _plain(_guarded(fns[j]), 'Argument')
    if args[0] == 't':
        return ('t',)
    exp = _plain(_guarded(fns[j + 1]), 'Expected')
    return ('ok', args, exp)


def define(code, entry):
    try:
        compiled = screen(code, 'exec')  # noqa: F821 (guard.py)
    except SyntaxError as e:
        return ('e', 'SyntaxError', f'{e.msg} (line {e.lineno})')
    except SandboxViolation as e:  # noqa: F821
        return ('e', 'SandboxViolation', str(e))
    except (RecursionError, MemoryError) as e:
        return ('e', _type_name(type(e)), 'the code is too large or too deeply nested')  # noqa: F821
    ns = _JOB['state'].ns  # noqa: F821
    if _BREACH:
        ns['BREACH'] = _BREACH
    r = _guarded(exec, compiled, ns)
    # The hook stays armed for the rest of phase C (the worker's own calls of the candidate); defence in depth only.
    _H.active = True  # noqa: F821
    if r[0] != 'v':
        return r
    if entry and not callable(ns.get(entry)):
        return ('e', 'NameError', f'the code does not define a function {entry}()')
    return ('ok',)


def _key(name, args, kwargs):
    return _json.dumps([name, _canon(list(args)), _canon(dict(kwargs))])  # noqa: F821


def _test_ns(names, bind):
    ns = dict(_ST['base'])
    ns['__builtins__'] = dict(_PRISTINE_BUILTINS)  # noqa: F821
    for n in names:
        if n not in ns and n not in ns['__builtins__']:
            bind(ns, n)
    return ns


def record(src, names):
    """Phase C for a statement test: run it with each candidate name it uses replaced by a recorder of plain
    arguments and plain results. Its own outcome here is ignored: the log is what phase S replays."""
    cand = _JOB['state'].ns  # noqa: F821
    log = []

    def bind(ns, n):
        if n not in cand:
            return
        v = cand[n]
        if not callable(v):
            try:
                _marshal.dumps(v, 2)  # noqa: F821
                log.append((_json.dumps(['=', n]), ('v', v)))  # noqa: F821
                ns[n] = _from_tree(_canon(v))  # noqa: F821
            except (ValueError, TypeError, _CanonError):  # noqa: F821
                pass
            return

        def rec(*args, **kwargs):
            key = _key(n, args, kwargs)
            a2 = [_from_tree(_canon(a)) for a in args]  # noqa: F821
            k2 = {k: _from_tree(_canon(x)) for k, x in kwargs.items()}  # noqa: F821
            try:
                out = v(*a2, **k2)
            except _KI:  # noqa: F821
                raise
            except _BaseException as e:  # noqa: F821
                d = _err(e)  # noqa: F821
                log.append((key, ('e', d['e'], d['m'])))
                raise
            try:
                _marshal.dumps(out, 2)  # noqa: F821
                copy = _from_tree(_canon(out))  # noqa: F821
            except (ValueError, TypeError, _CanonError):  # noqa: F821
                log.append((key, ('e', 'TypeError', 'result is not plain data of builtin types')))
                raise TypeError('result is not plain data of builtin types')
            log.append((key, ('v', out)))
            return copy

        ns[n] = rec

    ns = _test_ns(names, bind)
    r = _guarded(exec, _compile_stmt(src), ns)
    if r[0] == 't':
        return r
    return _value(('v', tuple(log)))


def _compile_stmt(src):
    return compile_tree(_aast.parse(src), 'exec')  # noqa: F821


class _ReplayMiss(BaseException):
    pass


_EXC = {k: v for k, v in __import__('builtins').__dict__.items() if type(v) is type and issubclass(v, BaseException)}


def replay(src, names, log_json):
    """Phase S: the statement test against the recorded calls only; its outcome is the verdict."""
    calls, values = {}, {}
    for key, out in _json.loads(log_json):  # noqa: F821
        k = _json.loads(key)  # noqa: F821
        if k[0] == '=':
            values[k[1]] = out
        else:
            calls.setdefault(key, []).append(out)
    miss = []

    def bind(ns, n):
        if n in values:
            ns[n] = _from_tree(values[n][1])  # noqa: F821
            return

        def rep(*args, **kwargs):
            key = _key(n, args, kwargs)
            q = calls.get(key)
            if not q:
                miss.append(key)
                raise _ReplayMiss(f'{n}() was called with arguments the candidate never saw')
            out = q.pop(0) if len(q) > 1 else q[0]
            if out[0] == 'e':
                exc = _EXC.get(out[1], RuntimeError)
                raise exc(out[2]) if exc is not KeyboardInterrupt else RuntimeError(out[2])
            return _from_tree(out[1])  # noqa: F821

        ns[n] = rep

    ns = _test_ns(names, bind)
    try:
        code = _compile_stmt(src)
    except (SyntaxError, SandboxViolation) as e:  # noqa: F821
        return ('e', _type_name(type(e)), str(e))  # noqa: F821
    r = _guarded(exec, code, ns)
    if miss:
        return ('e', 'ReplayMismatch', 'the test called the candidate differently than when it was recorded')
    if r[0] == 'v':
        return ('p',)
    if r[0] == 'e' and r[1] == 'AssertionError':
        return ('f',)
    return r


def flush():
    """Push buffered output to the worker's capped writers (before the interpreter is restored)."""
    for s in (_sys.stdout, _sys.stderr):  # noqa: F821
        try:
            s.flush()
        except _BaseException:  # noqa: F821
            pass
    return ''


import ast as _aast  # noqa: E402

{  # noqa: F821
    'begin': begin, 'namespace': namespace, 'classify': classify, 'evaluate': evaluate, 'define': define,
    'record': record,
    'replay': replay, 'flush': flush, 'extract': extract, 'dumps': _marshal.dumps,  # noqa: F821
}
