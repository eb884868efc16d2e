# Phase E of a judge job (no candidate in the interpreter): split each test into the called name, its arguments
# and its expected value, decide which can be evaluated together (pure expressions that cannot change shared
# state) and which need an interpreter of their own, and evaluate them. Values leave through marshal in the worker.
import ast as _sast

_NoneType = type(None)
# Builtins a pure expression may call: none of them runs code from a string, reaches frames or globals, or writes.
_PURE_NAMES = frozenset(
    'abs all any ascii bin bool bytearray bytes chr complex dict divmod enumerate filter float frozenset hex int '
    'isinstance iter len list map max min next oct ord pow range repr reversed round set slice sorted str sum '
    'tuple zip True False None'.split()
)
_PURE_NODES = (
    _sast.Expression, _sast.Constant, _sast.List, _sast.Tuple, _sast.Set, _sast.Dict, _sast.BinOp, _sast.UnaryOp,
    _sast.BoolOp, _sast.Compare, _sast.IfExp, _sast.Call, _sast.Name, _sast.Attribute, _sast.Subscript, _sast.Slice,
    _sast.Starred, _sast.keyword, _sast.ListComp, _sast.SetComp, _sast.DictComp, _sast.GeneratorExp,
    _sast.comprehension, _sast.Lambda, _sast.arguments, _sast.arg, _sast.Load, _sast.Store, _sast.operator,
    _sast.unaryop, _sast.boolop, _sast.cmpop, _sast.expr_context,
)
_BAD_ATTRS = frozenset(('format', 'format_map'))


def _pure(nodes, shadowed):
    """True when the expressions only use literals, operators, comprehensions, lambdas and _PURE_NAMES builtins."""
    bound = set()
    for node in nodes:
        for n in _sast.walk(node):
            if type(n) is _sast.Name and type(n.ctx) is _sast.Store:
                bound.add(n.id)
            elif type(n) is _sast.arg:
                bound.add(n.arg)
    if bound & (_PURE_NAMES | shadowed):
        return False
    for node in nodes:
        for n in _sast.walk(node):
            if not isinstance(n, _PURE_NODES):
                return False
            t = type(n)
            if t is _sast.Name and type(n.ctx) is _sast.Load and n.id not in _PURE_NAMES and n.id not in bound:
                return False
            if t is _sast.Attribute and (n.attr.startswith('_') or n.attr in _BAD_ATTRS):
                return False
    return True


def _segment(lines, node):
    """Source text of a node from per-line slices (offsets are UTF-8 byte columns); linear in the node's size."""
    if node.lineno == node.end_lineno:
        line = lines[node.lineno - 1]
        if line.isascii():
            return line[node.col_offset:node.end_col_offset]
        return line.encode()[node.col_offset:node.end_col_offset].decode()
    first = lines[node.lineno - 1].encode()[node.col_offset:].decode()
    last = lines[node.end_lineno - 1].encode()[:node.end_col_offset].decode()
    return '\n'.join([first, *lines[node.lineno:node.end_lineno - 1], last])


def _names(node):
    return {n.id for n in _sast.walk(node) if type(n) is _sast.Name}


def _classify(src, entry, shadowed):
    """('c', fn, args_src, expected_src, pure) | ('s', code, names) | ('x', error)."""
    body = _sast.parse(src).body
    if len(body) == 1 and type(body[0]) is _sast.Assert and body[0].msg is None:
        t = body[0].test
        if type(t) is _sast.Compare and len(t.ops) == 1 and type(t.ops[0]) is _sast.Eq:
            left, right = t.left, t.comparators[0]
            if type(left) is not _sast.Call and type(right) is _sast.Call:
                left, right = right, left  # `assert 3 == f(1)`
            if type(left) is _sast.Call and type(left.func) is _sast.Name and left.func.id == entry:
                fn = left.func.id
                inner = [*left.args, *[k.value for k in left.keywords], right]
                if not any(fn in _names(n) for n in inner):
                    lines = src.split('\n')
                    call = _segment(lines, left)
                    args = call[len(_segment(lines, left.func)):]
                    if _may_hide_gadgets(src):
                        _check_tree(body[0])  # noqa: F821 (guard.py)
                    return ('c', fn, args, _segment(lines, right), _pure(inner, shadowed))
    names = sorted({n.id for st in body for n in _sast.walk(st) if type(n) is _sast.Name})
    return ('s', compile_tree(_sast.Module(body, []), 'exec'), names)  # noqa: F821


_GADGET_TEXT = __import__('re').compile(r'\.\s*_|__|import|\bfor\b|#|\\')


def _may_hide_gadgets(src):
    return not src.isascii() or _GADGET_TEXT.search(src) is not None


def prepare(tests, entry, shadowed):
    """Classify every test and compile the argument/expected lambdas of the call tests, in one go when they all
    compile; otherwise each test on its own, so one that cannot be compiled (too deeply nested, too large) is an
    error of that test alone."""
    kinds, parts = [], []
    for src in tests:
        try:
            k = _classify(src, entry, shadowed)
        except SyntaxError as e:
            k = ('x', {'e': 'SyntaxError', 'm': f'{e.msg} (line {e.lineno})'})
        except SandboxViolation as e:  # noqa: F821
            k = ('x', {'e': 'SandboxViolation', 'm': str(e)})
        except (RecursionError, MemoryError) as e:
            k = ('x', {'e': _type_name(type(e)), 'm': 'test too large or too deeply nested'})  # noqa: F821
        if k[0] == 'c':
            parts.append((len(kinds), f'lambda: (lambda *a, **k: (a, k)){k[2]}\n,lambda: ({k[3]}\n)'))
        kinds.append(k)
    if not parts:
        return kinds, []
    try:
        return kinds, [compile('(' + ','.join(p for _, p in parts) + ',)', '<tests>', 'eval')]
    except (SyntaxError, RecursionError, MemoryError, ValueError):
        pass
    codes = []
    for i, p in parts:
        try:
            codes.append(compile('(' + p + ',)', '<tests>', 'eval'))
        except (SyntaxError, RecursionError, MemoryError, ValueError) as e:
            kinds[i] = ('x', {'e': _type_name(type(e)), 'm': 'test too large or too deeply nested to compile'})  # noqa: F821
    return kinds, codes
