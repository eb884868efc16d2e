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


def _x_depth(line):
    """Bracket depth change of one line, ignoring strings and comments (enough to find continuation lines)."""
    depth, quote, i, n = 0, '', 0, len(line)
    while i < n:
        c = line[i]
        if quote:
            if c == '\\':
                i += 1
            elif c == quote:
                quote = ''
        elif c in '"\'':
            quote = c
        elif c == '#':
            break
        elif c in '([{':
            depth += 1
        elif c in ')]}':
            depth -= 1
        i += 1
    return depth


def _x_statements(text):
    """[(node, source)] for each statement, plus lines that parse in no way; tolerant of stray prose.
    Linear: one parse of the whole text, or per line (a line with open brackets takes the lines that close them)."""
    try:
        mod = _xast.parse(text)
        lines = text.split('\n')
        return [(n, _segment(lines, n)) for n in mod.body], []  # noqa: F821 (suite.py)
    except SyntaxError:
        pass
    lines = text.split('\n')
    out, bad, i, n = [], [], 0, len(lines)
    while i < n:
        s = lines[i].strip()
        if not s or s.startswith('#'):
            i += 1
            continue
        j, depth = i + 1, _x_depth(lines[i])
        while depth > 0 and j < min(n, i + 40):
            depth += _x_depth(lines[j])
            j += 1
        if s.endswith(':'):
            while j < min(n, i + 40) and (not lines[j].strip() or lines[j][:1] in ' \t'):
                j += 1
        chunk = _textwrap.dedent('\n'.join(lines[i:j]))
        try:
            mod = _xast.parse(chunk)
        except SyntaxError:
            bad.append({'line': lines[i][:200], 'reason': 'syntax error'})
            i += 1
            continue
        clines = chunk.split('\n')
        out.extend((nd, _segment(clines, nd)) for nd in mod.body)  # noqa: F821
        i = j
    return out, bad


def _x_strip_fences(raw):
    return '\n'.join(ln for ln in raw.replace('\r\n', '\n').split('\n') if not ln.strip().startswith('```'))


_X_INLINE_CAP = 2000


def _x_inlined_size(node, env):
    return sum(len(env[n.id]) for n in _xast.walk(node) if type(n) is _xast.Name and n.id in env)


def extract(raw, entry, k):
    """JSON {tests, rejected}; every statement the text holds lands in one of them, whatever it contains."""
    try:
        stmts, rejected = _x_statements(_x_strip_fences(raw))
    except (RecursionError, MemoryError, ValueError) as e:
        lines = [ln for ln in raw.split('\n') if ln.strip()]
        why = f'extraction failed: {type(e).__name__}'
        return _json.dumps({'tests': [], 'rejected': [{'line': ln[:200], 'reason': why} for ln in lines]})  # noqa: F821
    env, bad_vars, tests, seen = {}, set(), [], set()

    def reject(src, reason):
        rejected.append({'line': src[:200], 'reason': reason})

    for node, src in stmts:
        try:
            _x_one(node, src, entry, k, env, bad_vars, tests, seen, reject)
        except (RecursionError, MemoryError) as e:
            if type(node) is _xast.Assign and len(node.targets) == 1 and type(node.targets[0]) is _xast.Name:
                bad_vars.add(node.targets[0].id)
                env.pop(node.targets[0].id, None)
            reject(src, f'too deeply nested or too large ({type(e).__name__})')
    return _json.dumps({'tests': tests, 'rejected': rejected})  # noqa: F821 (harness.py)


def _x_one(node, src, entry, k, env, bad_vars, tests, seen, reject):
    """One statement: inline an assignment, or keep / reject an assert (reason given)."""
    if True:  # noqa: SIM108 (kept as one block: every branch ends in exactly one outcome)
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
            elif _x_inlined_size(node.value, env) + len(src) > _X_INLINE_CAP:
                bad_vars.add(name)
                env.pop(name, None)
                reject(src, 'assignment expands too much when inlined')
            else:
                env[name] = _xast.unparse(_XInline(env).visit(node.value))
                bad_vars.discard(name)
            return
        if t is not _xast.Assert:
            if t in (_xast.Import, _xast.ImportFrom):
                reason = 'import statement (not a test)'
            elif t in (_xast.FunctionDef, _xast.AsyncFunctionDef, _xast.ClassDef):
                reason = 'definition (not a test)'
            else:
                reason = 'not an assert statement'
            reject(src, reason)
            return
        test = node.test
        if not (type(test) is _xast.Compare and len(test.ops) == 1 and type(test.ops[0]) is _xast.Eq):
            reject(src, 'assert is not of the form <call> == <expected>')
            return
        left, right = test.left, test.comparators[0]
        if _x_is_entry_call(left, entry) and not _x_calls_entry(right, entry):
            call, exp = left, right
        elif _x_is_entry_call(right, entry) and not _x_calls_entry(left, entry):
            call, exp = right, left
        elif _x_calls_entry(left, entry) and _x_calls_entry(right, entry):
            reject(src, f'expected value calls {entry}')
            return
        else:
            reject(src, f'left side is not a call to {entry}')
            return
        if (_x_names(call) | _x_names(exp)) & bad_vars:
            reject(src, 'uses a variable that could not be inlined')
            return
        if _x_inlined_size(test, env) + len(src) > _X_INLINE_CAP:
            reject(src, 'test expands too much when inlined')
            return
        call_s = _xast.unparse(_XInline(env).visit(call))
        exp_s = _xast.unparse(_XInline(env).visit(exp))
        text = f'assert {call_s} == {exp_s}'
        if text in seen:
            reject(src, 'duplicate')
            return
        if len(tests) >= k:
            reject(src, f'beyond the first {k} tests')
            return
        seen.add(text)
        tests.append({'text': text, 'call': call_s, 'expected': exp_s})
