# Test extraction from a tester's raw text with Python's ast: keep `assert <call to entry> == <expr>`,
# inline simple `x = ...` assignments, normalise with ast.unparse, dedupe, keep the first K, explain rejects.
import ast as _xast
import textwrap as _textwrap


def _x_is_entry_call(node, entry):
    return type(node) is _xast.Call and type(node.func) is _xast.Name and node.func.id == entry


def _x_calls_entry(node, entry):
    return any(_x_is_entry_call(n, entry) for n in _xast.walk(node))


def _x_names(node):
    return {n.id for n in _xast.walk(node) if type(n) is _xast.Name and type(n.ctx) is _xast.Load}


class _XInline(_xast.NodeTransformer):
    def __init__(self, env):
        self.env = env

    def visit_Name(self, node):
        if type(node.ctx) is _xast.Load and node.id in self.env:
            return _xast.parse(self.env[node.id], mode='eval').body
        return node


def _x_statements(text):
    """[(node, source)] for each statement, plus lines that parse in no way; tolerant of stray prose."""
    try:
        mod = _xast.parse(text)
        return [(n, _xast.get_source_segment(text, n) or _xast.unparse(n)) for n in mod.body], []
    except SyntaxError:
        pass
    lines = text.split('\n')
    out, bad, i, n = [], [], 0, len(lines)
    while i < n:
        s = lines[i].strip()
        if not s or s.startswith('#'):
            i += 1
            continue
        found = None
        for j in range(i + 1, min(n, i + 40) + 1):
            chunk = _textwrap.dedent('\n'.join(lines[i:j]))
            try:
                found = (_xast.parse(chunk), chunk, j)
                break
            except SyntaxError:
                continue
        if found is None:
            bad.append({'line': lines[i][:200], 'reason': 'syntax error'})
            i += 1
            continue
        mod, chunk, j = found
        out.extend((nd, _xast.get_source_segment(chunk, nd) or _xast.unparse(nd)) for nd in mod.body)
        i = j
    return out, bad


def _x_strip_fences(raw):
    return '\n'.join(ln for ln in raw.replace('\r\n', '\n').split('\n') if not ln.strip().startswith('```'))


def extract(raw, entry, k):
    stmts, rejected = _x_statements(_x_strip_fences(raw))
    env, bad_vars, tests, seen = {}, set(), [], set()

    def reject(src, reason):
        rejected.append({'line': src[:200], 'reason': reason})

    for node, src in stmts:
        t = type(node)
        if t is _xast.Assign and len(node.targets) == 1 and type(node.targets[0]) is _xast.Name:
            name = node.targets[0].id
            if _x_calls_entry(node.value, entry):
                bad_vars.add(name)
                env.pop(name, None)
                reject(src, f'assignment calls {entry}; only simple assignments are inlined')
            elif _x_names(node.value) & bad_vars:
                bad_vars.add(name)
                reject(src, 'assignment uses a variable that could not be inlined')
            else:
                env[name] = _xast.unparse(_XInline(env).visit(node.value))
                bad_vars.discard(name)
            continue
        if t is not _xast.Assert:
            if t in (_xast.Import, _xast.ImportFrom):
                reason = 'import statement (not a test)'
            elif t in (_xast.FunctionDef, _xast.AsyncFunctionDef, _xast.ClassDef):
                reason = 'definition (not a test)'
            else:
                reason = 'not an assert statement'
            reject(src, reason)
            continue
        test = node.test
        if not (type(test) is _xast.Compare and len(test.ops) == 1 and type(test.ops[0]) is _xast.Eq):
            reject(src, 'assert is not of the form <call> == <expected>')
            continue
        left, right = test.left, test.comparators[0]
        if _x_is_entry_call(left, entry) and not _x_calls_entry(right, entry):
            call, exp = left, right
        elif _x_is_entry_call(right, entry) and not _x_calls_entry(left, entry):
            call, exp = right, left
        elif _x_calls_entry(left, entry) and _x_calls_entry(right, entry):
            reject(src, f'expected value calls {entry}')
            continue
        else:
            reject(src, f'left side is not a call to {entry}')
            continue
        if (_x_names(call) | _x_names(exp)) & bad_vars:
            reject(src, 'uses a variable that could not be inlined')
            continue
        call_s = _xast.unparse(_XInline(env).visit(call))
        exp_s = _xast.unparse(_XInline(env).visit(exp))
        text = f'assert {call_s} == {exp_s}'
        if text in seen:
            reject(src, 'duplicate')
            continue
        if len(tests) >= k:
            reject(src, f'beyond the first {k} tests')
            continue
        seen.add(text)
        tests.append({'text': text, 'call': call_s, 'expected': exp_s})
    return _json.dumps({'tests': tests, 'rejected': rejected})  # noqa: F821 (harness.py)
