# Sandbox guard: the AST screen for candidate/test code, the sanitised builtins, read-only module proxies
# and the audit hook. Loaded once per worker before harness.py; defines names harness.py uses.
import ast as _ast
import builtins as _builtins
import sys as _sys
import types as _types

_ModuleType = _types.ModuleType


class SandboxViolation(Exception):
    """Raised when candidate code tries to leave the sandbox or touch shared state."""


_SandboxViolation = SandboxViolation

# Dunder attributes ordinary solutions use; every other `__x__` (globals, subclasses, code, dict, mro, ...)
# is an escape gadget.
_OK_DUNDERS = frozenset(
    '__init__ __name__ __qualname__ __doc__ __class__ __module__ __len__ __iter__ __next__ __contains__ '
    '__getitem__ __setitem__ __delitem__ __eq__ __ne__ __lt__ __le__ __gt__ __ge__ __hash__ __str__ __repr__ '
    '__bool__ __call__ __enter__ __exit__ __add__ __sub__ __mul__ __truediv__ __floordiv__ __mod__ __pow__ '
    '__neg__ __pos__ __abs__ __radd__ __rsub__ __rmul__ __and__ __or__ __xor__ __invert__ __lshift__ '
    '__rshift__ __index__ __int__ __float__ __round__ __reversed__ __missing__ __new__ __post_init__ '
    '__annotations__ __format__ __matmul__ __divmod__ __iadd__ __isub__ __imul__'.split()
)
_OK_PRIVATE = frozenset(('_replace', '_asdict', '_fields', '_make', '_field_defaults'))
_BAD_NAMES = frozenset(('__builtins__', '__loader__', '__spec__'))


def _attr_ok(name):
    if not name.startswith('_'):
        return True
    if name.startswith('__') and name.endswith('__'):
        return name in _OK_DUNDERS
    return name in _OK_PRIVATE


def _check_attr_name(name):
    if type(name) is not str:
        raise TypeError('attribute name must be str')
    if not _attr_ok(name):
        raise _SandboxViolation(f"attribute '{name}' is not allowed in the sandbox")


class _Screen(_ast.NodeTransformer):
    """Rejects escape gadgets and inserts a guard before every attribute store (no monkeypatching of
    classes the job did not create)."""

    def visit_Attribute(self, node):
        if not _attr_ok(node.attr):
            base = node.value
            dunder = node.attr.startswith('__') and node.attr.endswith('__')
            if not (type(base) is _ast.Name and base.id in ('self', 'cls') and not dunder):
                raise _SandboxViolation(f"attribute '{node.attr}' is not allowed in the sandbox")
        self.generic_visit(node)
        return node

    def visit_Name(self, node):
        if node.id in _BAD_NAMES or node.id.startswith('__sbx'):
            raise _SandboxViolation(f"name '{node.id}' is not allowed in the sandbox")
        return node

    def visit_alias(self, node):
        if node.name.startswith('_') and node.name != '__future__':
            raise _SandboxViolation(f"import of '{node.name}' is not allowed in the sandbox")
        return node

    def visit_ImportFrom(self, node):
        if node.level:
            raise _SandboxViolation('relative imports are not allowed in the sandbox')
        if node.module and node.module.startswith('_') and node.module != '__future__':
            raise _SandboxViolation(f"import of '{node.module}' is not allowed in the sandbox")
        self.generic_visit(node)
        return node

    def _guarded(self, node, targets):
        bases = []

        def collect(t):
            if type(t) is _ast.Attribute:
                bases.append(t.value)
            elif type(t) in (_ast.Tuple, _ast.List):
                for e in t.elts:
                    collect(e)
            elif type(t) is _ast.Starred:
                collect(t.value)

        for t in targets:
            collect(t)
        self.generic_visit(node)
        if not bases:
            return node
        checks = [
            _ast.Expr(_ast.Call(_ast.Name('__sbx_chk__', _ast.Load()), [b], [])) for b in bases
        ]
        return checks + [node]

    def visit_Assign(self, node):
        return self._guarded(node, node.targets)

    def visit_AugAssign(self, node):
        return self._guarded(node, [node.target])

    def visit_AnnAssign(self, node):
        return self._guarded(node, [node.target])

    def visit_Delete(self, node):
        return self._guarded(node, node.targets)

    def visit_For(self, node):
        return self._guarded(node, [node.target])

    def visit_AsyncFor(self, node):
        return self._guarded(node, [node.target])

    def visit_With(self, node):
        return self._guarded(node, [i.optional_vars for i in node.items if i.optional_vars is not None])

    def visit_AsyncWith(self, node):
        return self.visit_With(node)


def _check_tree(tree):
    """One cheap pass over the tree: raises on escape gadgets; True when attribute stores need guards."""
    stores = False
    for node in _ast.walk(tree):
        t = type(node)
        if t is _ast.Attribute:
            if not _attr_ok(node.attr):
                base = node.value
                dunder = node.attr.startswith('__') and node.attr.endswith('__')
                if not (type(base) is _ast.Name and base.id in ('self', 'cls') and not dunder):
                    raise _SandboxViolation(f"attribute '{node.attr}' is not allowed in the sandbox")
            if type(node.ctx) is not _ast.Load:
                stores = True
        elif t is _ast.Name:
            if node.id in _BAD_NAMES or node.id.startswith('__sbx'):
                raise _SandboxViolation(f"name '{node.id}' is not allowed in the sandbox")
        elif t is _ast.alias:
            if node.name.startswith('_') and node.name != '__future__':
                raise _SandboxViolation(f"import of '{node.name}' is not allowed in the sandbox")
        elif t is _ast.ImportFrom:
            if node.level:
                raise _SandboxViolation('relative imports are not allowed in the sandbox')
            if node.module and node.module.startswith('_') and node.module != '__future__':
                raise _SandboxViolation(f"import of '{node.module}' is not allowed in the sandbox")
        elif t is _ast.comprehension:
            if any(type(n) is _ast.Attribute for n in _ast.walk(node.target)):
                raise _SandboxViolation('attribute targets in comprehensions are not allowed in the sandbox')
    return stores


def compile_tree(tree, mode):
    """Screen and compile a parsed tree; the guard-inserting rewrite runs only when there are attribute stores."""
    if _check_tree(tree):
        tree = _ast.fix_missing_locations(_Screen().visit(tree))
    return compile(tree, '<candidate>', mode)


def screen(src, mode='exec'):
    """Parse, screen and compile untrusted source; raises SyntaxError or SandboxViolation."""
    tree = _ast.parse(src, '<candidate>', mode)
    if not _check_tree(tree):
        return compile(src, '<candidate>', mode)  # from text: much cheaper than from an AST in wasm
    return compile(_ast.fix_missing_locations(_Screen().visit(tree)), '<candidate>', mode)


_BLOCKED_MODULES = frozenset(
    'js pyodide pyodide_js _pyodide _pyodide_core micropip ctypes _ctypes gc inspect pickle _pickle marshal '
    'code codeop importlib _imp imp _testcapi _testinternalcapi faulthandler tracemalloc sys_monitoring '
    'subprocess _posixsubprocess socket _socket ssl webbrowser urllib http ftplib smtplib multiprocessing '
    'threading _thread pdb bdb trace cProfile profile _xxsubinterpreters _interpreters concurrent asyncio '
    'pyodide_http _pyodide_util _emscripten_info zipimport runpy pkgutil site sysconfig signal _signal atexit'.split()
)


def _blocked(name):
    return name.partition('.')[0] in _BLOCKED_MODULES


_real_import = _builtins.__import__
_proxies = {}  # id(real module) -> read-only proxy (shared across jobs: they are immutable)


class _ROModule(_ModuleType):
    def __setattr__(self, name, value):
        raise _SandboxViolation(f"module '{self.__name__}' is read-only in the sandbox")

    def __delattr__(self, name):
        raise _SandboxViolation(f"module '{self.__name__}' is read-only in the sandbox")


def _proxy(mod):
    p = _proxies.get(id(mod))
    real = mod.__dict__
    if p is not None and p[1] == len(real):
        return p[0]
    ro = p[0] if p is not None else _ROModule(mod.__name__)
    _proxies[id(mod)] = (ro, len(real), mod)
    d = object.__getattribute__(ro, '__dict__')
    d.clear()
    for k, v in real.items():
        if k.startswith('_') and k not in ('__name__', '__doc__'):
            continue  # private module state is not the candidate's business
        if type(v) is _ModuleType:
            if _blocked(v.__name__):
                continue
            v = _proxy(v)
        d[k] = v
    for k, v in _OVERRIDES.get(mod.__name__, {}).items():
        d[k] = v
    return ro


def _sandbox_import(name, globals=None, locals=None, fromlist=(), level=0):
    if level != 0:
        raise ImportError('relative imports are not allowed in the sandbox')
    if type(name) is not str or _blocked(name) or name.startswith('_'):
        raise ImportError(f"import of '{name}' is not allowed in the sandbox")
    _real_import(name, None, None, (), 0)
    job = _JOB['state']
    if name == 'sys' or name.startswith('sys.'):
        return job.sys_proxy()
    if name == 'builtins':
        return job.builtins_proxy()
    target = name if fromlist else name.partition('.')[0]
    mod = _sys.modules[target]
    if fromlist:
        for f in fromlist:
            if type(f) is str and not f.startswith('_') and f not in mod.__dict__:
                sub = f'{name}.{f}'
                if _blocked(sub):
                    continue
                try:
                    _real_import(sub, None, None, (), 0)
                except ImportError:
                    pass
    return _proxy(mod)


def _safe_getattr(obj, name, *default):
    _check_attr_name(name)
    return getattr(obj, name, *default)


def _safe_hasattr(obj, name):
    _check_attr_name(name)
    return hasattr(obj, name)


def _safe_setattr(obj, name, value):
    _check_attr_name(name)
    _chk(obj)
    return setattr(obj, name, value)


def _safe_delattr(obj, name):
    _check_attr_name(name)
    _chk(obj)
    return delattr(obj, name)


def _safe_vars(*args):
    if not args:
        raise _SandboxViolation('vars() without an argument is not allowed in the sandbox')
    d = vars(args[0])
    return dict(d) if isinstance(args[0], _ModuleType) else d


def _chk(obj):
    """Attribute stores are allowed on instances and on classes this job created, never on shared classes."""
    if isinstance(obj, type) and obj not in _JOB['state'].classes:
        raise _SandboxViolation(f"class '{obj.__name__}' is shared; it cannot be modified in the sandbox")
    if isinstance(obj, _ModuleType):
        raise _SandboxViolation('modules are read-only in the sandbox')


_real_build_class = _builtins.__build_class__


def _build_class(*args, **kw):
    cls = _real_build_class(*args, **kw)
    _JOB['state'].classes.add(cls)
    return cls


def _screened(fn, mode):
    def run(src, *args):
        if type(src) is not str:
            raise _SandboxViolation(f'{fn.__name__}() accepts only source strings in the sandbox')
        g = args[0] if args else _JOB['state'].ns
        return fn(screen(src, mode), g, *args[1:])

    return run


def _safe_compile(*_a, **_k):
    raise _SandboxViolation('compile() is not allowed in the sandbox')


def _removed(name):
    def f(*_a, **_k):
        raise _SandboxViolation(f'{name}() is not allowed in the sandbox')

    return f


def make_builtins():
    """The pristine builtins dict a job's namespace gets a copy of."""
    b = {k: v for k, v in _builtins.__dict__.items() if not k.startswith('_')}
    b.update(
        __name__='builtins',
        __import__=_sandbox_import,
        __build_class__=_build_class,
        __sbx_chk__=_chk,
        getattr=_safe_getattr,
        hasattr=_safe_hasattr,
        setattr=_safe_setattr,
        delattr=_safe_delattr,
        vars=_safe_vars,
        eval=_screened(eval, 'eval'),
        exec=_screened(exec, 'exec'),
        compile=_safe_compile,
        globals=lambda: dict(_JOB['state'].ns),
        locals=_removed('locals'),
        breakpoint=_removed('breakpoint'),
        help=_removed('help'),
        input=_removed('input'),
        open=_sandbox_open,
        SandboxViolation=_SandboxViolation,
    )
    return b


def _sandbox_open(file, mode='r', *args, **kw):
    if type(file) is not str:
        raise _SandboxViolation('open() accepts only str paths in the sandbox')
    return _real_open(file, mode, *args, **kw)


_real_open = _builtins.open


def _attrgetter(*names):
    for n in names:
        for part in n.split('.') if type(n) is str else (n,):
            _check_attr_name(part)
    return _OP_ATTRGETTER(*names)


def _methodcaller(name, *a, **k):
    _check_attr_name(name)
    return _OP_METHODCALLER(name, *a, **k)


import operator as _operator  # noqa: E402
import time as _time  # noqa: E402

_REAL_SLEEP = _time.sleep
_MONO = _time.monotonic


def _sleep(secs):
    """time.sleep in short slices, so the watchdog's interrupt (checked between bytecodes) stops it softly."""
    secs = float(secs)
    if secs < 0:
        raise ValueError('sleep length must be non-negative')
    end = _MONO() + secs
    while True:
        left = end - _MONO()
        if left <= 0:
            return
        _REAL_SLEEP(min(left, 0.005))


_OP_ATTRGETTER = _operator.attrgetter
_OP_METHODCALLER = _operator.methodcaller
_OVERRIDES = {
    'operator': {'attrgetter': _attrgetter, 'methodcaller': _methodcaller},
    'string': {'Formatter': None},
    'time': {'sleep': _sleep},
}
_JOB = {'state': None}
