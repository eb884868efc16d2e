# Sandbox harness: per-job namespaces, the audit hook (defence in depth: the worker restores a snapshot of the
# whole interpreter before every job, so nothing here has to undo anything), plain tagged data for arguments.
import json as _json
import marshal as _marshal
import os as _os
import sys as _sys

_KI = KeyboardInterrupt
_BaseException = BaseException
_type_name = type.__dict__['__name__'].__get__
_exc_args = BaseException.__dict__['args'].__get__
_INF = float('inf')
_MAX_SAFE = 2**53
_WRITABLE = ('/tmp', '/home/pyodide')
_DEFAULT_RECURSION = 1000

_os.chdir('/tmp/work')
_sys.set_int_max_str_digits(0)
_sys.setrecursionlimit(_DEFAULT_RECURSION)
# Modules candidates commonly use are imported now so their first use costs nothing per job.
for _m in (
    'math collections itertools functools heapq bisect re string typing random fractions operator copy json '
    'dataclasses enum statistics decimal datetime array cmath numbers abc hashlib textwrap unicodedata'.split()
):
    try:
        __import__(_m)
    except ImportError:
        pass

_PRISTINE_BUILTINS = make_builtins()  # noqa: F821 (guard.py)
import warnings as _warnings  # noqa: E402,F401 (imported before the snapshot)


class _Job:
    """What one job may change; begin() throws it away and restores the process state."""

    def __init__(self, setup):
        self.classes = set()
        self.ns = self.fresh_ns()
        self._sys = None
        self._bi = None
        self.setup = setup

    def fresh_ns(self):
        return {'__name__': '__candidate__', '__builtins__': dict(_PRISTINE_BUILTINS)}

    def sys_proxy(self):
        if self._sys is None:
            ro = _ROModule('sys')  # noqa: F821 (guard.py)
            d = object.__getattribute__(ro, '__dict__')
            for k, v in _sys.__dict__.items():
                if not k.startswith('_') and k not in ('modules', 'audit', 'addaudithook', 'settrace', 'setprofile',
                                                       'monitoring', 'remote_exec', 'activate_stack_trampoline'):
                    d[k] = v
            for k in ('path', 'meta_path', 'path_hooks'):
                d[k] = list(getattr(_sys, k))
            d['path_importer_cache'] = {}
            d['argv'] = ['']
            mods = {}
            for k, m in list(_sys.modules.items()):
                if type(m) is _ModuleType and not _blocked(k) and not k.startswith('_'):  # noqa: F821
                    mods[k] = self.builtins_proxy() if k == 'builtins' else (self.sys_proxy_stub(ro) if k == 'sys' else _proxy(m))  # noqa: F821
            d['modules'] = mods
            self._sys = ro
        return self._sys

    def sys_proxy_stub(self, ro):
        return ro

    def builtins_proxy(self):
        if self._bi is None:
            ro = _ROModule('builtins')  # noqa: F821
            object.__getattribute__(ro, '__dict__').update(self.ns['__builtins__'])
            self._bi = ro
        return self._bi


class _Hook:
    """Audit-hook state, reachable only from the hook's closure and this module's private names."""

    active = False


_H = _Hook()
_BLOCK_WHEN_ACTIVE = frozenset(
    'sys._getframe sys._current_frames '
    'sys._current_exceptions sys.addaudithook sys.settrace sys.setprofile sys.monitoring.register_callback '
    'sys.monitoring.use_tool_id code.__new__ function.__new__ marshal.loads marshal.load gc.get_objects '
    'gc.get_referrers gc.get_referents gc.get_freeze_count os.system os.exec os.posix_spawn os.spawn os.fork '
    'os.forkpty os.kill os.killpg subprocess.Popen socket.connect socket.bind socket.__new__ urllib.Request '
    'webbrowser.open ctypes.dlopen ctypes.cdata sys.remote_exec cpython.remote_debugger_script'.split()
)
_FS_EVENTS = frozenset(
    'os.remove os.rename os.mkdir os.rmdir os.symlink os.link os.truncate os.chmod os.chown os.utime '
    'os.mkfifo os.mknod shutil.rmtree shutil.copyfile shutil.copymode shutil.copystat shutil.move '
    'shutil.make_archive shutil.unpack_archive os.chflags os.lchmod os.lchown os.removexattr os.setxattr'.split()
)
_FRAME_ATTRS = frozenset(('tb_frame', 'gi_frame', 'cr_frame', 'ag_frame', 'f_back', 'gi_yieldfrom', 'cr_await'))
_WRITE_FLAGS = _os.O_WRONLY | _os.O_RDWR | _os.O_CREAT | _os.O_TRUNC | _os.O_APPEND


def _path_ok(p):
    if type(p) is int:
        return True
    if type(p) is bytes:
        p = p.decode('utf-8', 'replace')
    if type(p) is not str:
        return False
    p = _os.path.normpath(_os.path.join(_os.getcwd(), p))
    return any(p == r or p.startswith(r + '/') for r in _WRITABLE)


def _make_hook(h, blocked_import, violation):
    def hook(event, args):
        if event == 'import':
            if blocked_import(args[0]):
                raise ImportError(f"import of '{args[0]}' is not allowed in the sandbox")
            return
        if not h.active:
            return
        if event in _BLOCK_WHEN_ACTIVE:
            raise violation(f'{event} is not allowed in the sandbox')
        if event == 'object.__getattr__':
            # Frames are the way to the harness's locals; stdlib code may read other audited attributes.
            if args[1] in _FRAME_ATTRS:
                raise violation(f'reading {args[1]} is not allowed in the sandbox')
            return
        if event == 'open':
            mode, flags = args[1], args[2]
            writing = (type(mode) is str and any(c in mode for c in 'wax+')) or (
                type(flags) is int and flags & _WRITE_FLAGS
            )
            if writing:
                if not _path_ok(args[0]):
                    raise PermissionError(f'writing {args[0]!r} is not allowed in the sandbox')
        elif event in _FS_EVENTS:
            for p in args[:2]:
                if type(p) in (str, bytes) and not _path_ok(p):
                    raise PermissionError(f'{event} on {p!r} is not allowed in the sandbox')

    return hook


_sys.addaudithook(_make_hook(_H, _blocked, SandboxViolation))  # noqa: F821


class _CanonError(Exception):
    pass


_CONTAINERS = {list: 'l', tuple: 't', set: 'S', frozenset: 'S'}


def _enc_float(v):
    return ['f', v] if v == v and v != _INF and v != -_INF else ['f', repr(v)]


def _canon(x):
    """Plain tagged data for a value built only from exact builtin types; never runs the value's own code."""
    root = []
    stack = [(x, root, 0)]
    n = 0
    while stack:
        v, out, depth = stack.pop()
        n += 1
        if n > 200_000 or depth > 500:
            raise _CanonError('result is too large, too deep or cyclic')
        t = type(v)
        if v is None or t is bool or t is str:
            out.append(v)
        elif t is int:
            out.append(['i', v] if -_MAX_SAFE <= v <= _MAX_SAFE else ['I', format(v, 'x')])
        elif t is float:
            out.append(_enc_float(v))
        elif t is complex:
            out.append(['c', _enc_float(v.real), _enc_float(v.imag)])
        elif t is bytes or t is bytearray:
            out.append(['y', v.hex()])
        elif t in _CONTAINERS:
            node = [_CONTAINERS[t]]
            out.append(node)
            items = list(v) if t is not list else v[:]
            for e in reversed(items):
                stack.append((e, node, depth + 1))
        elif t is dict:
            node = ['d']
            out.append(node)
            for k, e in reversed(list(dict.items(v))):
                stack.append((e, node, depth + 1))
                stack.append((k, node, depth + 1))
        else:
            raise _CanonError(f'result has non-builtin type {_type_name(t)}')
    return root[0]


def _from_tree(t):
    if type(t) is not list:
        return t
    tag = t[0]
    if tag == 'i':
        return t[1]
    if tag == 'I':
        return int(t[1], 16)
    if tag == 'f':
        return float(t[1])
    if tag == 'c':
        return complex(_from_tree(t[1]), _from_tree(t[2]))
    if tag == 'y':
        return bytes.fromhex(t[1])
    items = [_from_tree(e) for e in t[1:]]
    if tag == 'l':
        return items
    if tag == 't':
        return tuple(items)
    if tag == 'S':
        return set(items)
    return dict(zip(items[0::2], items[1::2]))


def _err(e):
    name = _type_name(type(e))
    try:
        args = _exc_args(e)
        if len(args) == 1 and type(args[0]) is str:
            msg = args[0]
        elif args and all(type(a) in (str, int, float) for a in args):
            msg = str(args)
        else:
            msg = ''
    except _BaseException:
        msg = ''
    return {'e': name, 'm': msg[:500]}
