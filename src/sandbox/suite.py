# Test-suite preparation, built for speed (the wasm compiler is slow): one parse for all tests, screening only
# where the text could hold a gadget, literal expected values read straight from the AST, and all calls compiled
# as one tuple of lambdas. Prepared suites are cached by their JSON text.
import ast as _sast
import bisect as _bisect
import re as _sre

_NoneType = type(None)
_SUITES = {}
_LIT_SCALARS = (int, float, complex, str, bytes, bool, _NoneType)
_NO_ARGS = _sast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])


def _scalar(v):
    t = type(v)
    if t is str or t is bool or v is None:
        return v
    if t is int:
        return ['i', v] if -_MAX_SAFE <= v <= _MAX_SAFE else ['I', format(v, 'x')]  # noqa: F821 (harness.py)
    if t is float:
        return _enc_float(v)  # noqa: F821
    return _canon(v)  # noqa: F821 (complex, bytes)


_MISSING = object()


def _literal_tree(node):
    """Canonical tree of a plain literal read from the AST (no compile, no eval), or _MISSING to evaluate it."""
    t = type(node)
    if t is _sast.Constant:
        return _scalar(node.value) if type(node.value) in _LIT_SCALARS else _MISSING
    if t is _sast.UnaryOp and type(node.op) is _sast.USub and type(node.operand) is _sast.Constant:
        v = node.operand.value
        return _scalar(-v) if type(v) in (int, float, complex) else _MISSING
    if t is _sast.List or t is _sast.Tuple:
        items = ['l' if t is _sast.List else 't']
        for e in node.elts:
            sub = _literal_tree(e)
            if sub is _MISSING:
                return _MISSING
            items.append(sub)
        return items
    if t is _sast.Dict:
        # Only str/int keys, all distinct: anything else (1 vs 1.0 vs True) is left to Python's own dict.
        seen, items = set(), ['d']
        for k, v in zip(node.keys, node.values):
            if type(k) is not _sast.Constant or type(k.value) not in (str, int) or k.value in seen:
                return _MISSING
            seen.add(k.value)
            sub = _literal_tree(v)
            if sub is _MISSING:
                return _MISSING
            items += [_scalar(k.value), sub]
        return items
    return _MISSING


# Every screened construct in an expression needs `._` (private attribute), `__` (bad names), an import, or a
# comprehension target; comments, continuations and non-ASCII (NFKC maps U+FF3F to '_') could hide them.
_GADGET_TEXT = _sre.compile(r'\.\s*_|__|import|\bfor\b|#|\\')


def _may_hide_gadgets(src):
    return not src.isascii() or _GADGET_TEXT.search(src) is not None


def _segment(lines, node):
    """Source text of an expression node (offsets are UTF-8 byte columns)."""
    if node.lineno == node.end_lineno:
        line = lines[node.lineno - 1]
        if line.isascii():
            return line[node.col_offset:node.end_col_offset]
        return line.encode()[node.col_offset:node.end_col_offset].decode()
    return _sast.get_source_segment('\n'.join(lines), node)


def _lambdas(segments):
    # One compile from text for all of them: the wasm compiler's fixed cost dominates, and text beats AST input.
    return compile('(' + ''.join(f'lambda: ({seg}\n),' for seg in segments) + ')', '<tests>', 'eval')


def _split(tests):
    """Statements of each test from one parse of the joined text; None when that mapping is not clean."""
    starts, line = [], 1
    for t in tests:
        starts.append(line)
        line += t.count('\n') + 1
    try:
        mod = _sast.parse('\n'.join(tests))
    except SyntaxError:
        return None
    groups = [[] for _ in tests]
    for st in mod.body:
        i = _bisect.bisect_right(starts, st.lineno) - 1
        if i != _bisect.bisect_right(starts, st.end_lineno) - 1:
            return None
        groups[i].append(st)
    return None if any(not g for g in groups) else groups


def _classify(src, body):
    if len(body) == 1 and type(body[0]) is _sast.Assert:
        t = body[0].test
        if type(t) is _sast.Compare and len(t.ops) == 1 and type(t.ops[0]) is _sast.Eq:
            left, right = t.left, t.comparators[0]
            if type(left) is not _sast.Call and type(right) is _sast.Call:
                left, right = right, left  # `assert 3 == f(1)`
            if type(left) is _sast.Call:
                if _may_hide_gadgets(src):
                    _check_tree(body[0])  # noqa: F821 (guard.py)
                return ('c', left, right)
    return ('s', compile_tree(_sast.Module(body, []), 'exec'))  # noqa: F821


class _Suite:
    # code: one code object building (calls..., expected...) lambdas; evaluated once per namespace.
    __slots__ = ('kinds', 'stmt', 'lit', 'call_index', 'exp_index', 'code', 'n_calls')


def _new_suite(n):
    s = _Suite()
    s.kinds, s.stmt, s.lit = [None] * n, [None] * n, [None] * n
    s.call_index, s.exp_index = [None] * n, [None] * n
    s.code, s.n_calls = None, 0
    return s


def _prepare_fast(tests, splits):
    """Every test pre-split by the worker and free of gadget text: no Python AST at all, one compile."""
    if len(splits) != len(tests) or any(sp is None or _may_hide_gadgets(t) for t, sp in zip(tests, splits)):
        return None
    s = _new_suite(len(tests))
    for i in range(len(tests)):
        # The code builds (calls..., expected...): expected lambdas start after the calls.
        s.kinds[i], s.call_index[i], s.exp_index[i] = 'c', i, len(tests) + i
    s.n_calls = len(tests)
    try:
        s.code = _lambdas([sp[0] for sp in splits] + [sp[1] for sp in splits])
    except SyntaxError:
        return None
    return s


def _prepare(tests):
    s = _new_suite(len(tests))
    groups = _split(tests)
    calls, exps = [], []
    for i, src in enumerate(tests):
        try:
            body = groups[i] if groups is not None else _sast.parse(src).body
            c = _classify(src, body)
        except SyntaxError as e:
            s.kinds[i] = ('x', {'e': 'SyntaxError', 'm': f'{e.msg} (line {e.lineno})'})
            continue
        except SandboxViolation as e:  # noqa: F821
            s.kinds[i] = ('x', {'e': 'SandboxViolation', 'm': str(e)})
            continue
        if c[0] == 's':
            s.kinds[i] = 's'
            s.stmt[i] = c[1]
            continue
        # Node positions are relative to the text that was parsed: the joined suite or this test alone.
        lines = src.split('\n') if groups is None else None
        s.kinds[i] = 'c'
        s.call_index[i] = len(calls)
        calls.append((c[1], lines))
        lit = _literal_tree(c[2])
        if lit is _MISSING:
            s.exp_index[i] = len(exps)
            exps.append((c[2], lines))
        else:
            s.lit[i] = lit
    joined = '\n'.join(tests).split('\n')
    seg = lambda pair: _segment(pair[1] if pair[1] is not None else joined, pair[0])  # noqa: E731
    s.n_calls = len(calls)
    for i in range(len(tests)):
        if s.exp_index[i] is not None:
            s.exp_index[i] += s.n_calls
    parts = [seg(p) for p in calls] + [seg(p) for p in exps]
    s.code = _lambdas(parts) if parts else None
    return s


def suite_for(suite_json):
    """suite_json: {"t": tests, "s": per-test [call, expected] splits from the worker, or null}."""
    s = _SUITES.get(suite_json)
    if s is None:
        if len(_SUITES) > 512:
            _SUITES.clear()
        d = _json.loads(suite_json)  # noqa: F821
        s = _prepare_fast(d['t'], d['s']) or _prepare(d['t'])
        _SUITES[suite_json] = s
    return s
