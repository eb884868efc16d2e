// Red team, property 5: no reach outside the sandbox (JS bridge modules, proxies, host files, env, network).
import { describe, expect, it } from 'vitest';
import { usePool } from './test-helpers';

const pool = usePool();

/** Runs `body` as f() and returns what came back: a verdict status plus the message, or the compile error. */
async function attempt(code: string): Promise<string> {
  const r = await pool().judge({ code, entryPoint: 'f', tests: ["assert f() == 'escaped'"] });
  const v = r.verdicts[0];
  return r.compileError ?? `${v.status}: ${v.errorType ?? ''} ${v.message ?? ''}`;
}

describe('5. no reach outside the sandbox', () => {
  for (const [name, code] of [
    ['import js', 'import js\ndef f(): return "escaped"'],
    ['import pyodide', 'import pyodide\ndef f(): return "escaped"'],
    ['import pyodide_js', 'import pyodide_js\ndef f(): return "escaped"'],
    ['pyodide.ffi', 'from pyodide.ffi import to_js\ndef f(): return "escaped"'],
    ["__import__('js')", "def f():\n    __import__('js')\n    return 'escaped'"],
    ['_pyodide_core', "def f():\n    __import__('_pyodide_core')\n    return 'escaped'"],
    ['importlib', "def f():\n    __import__('importlib').import_module('js')\n    return 'escaped'"],
    ['sys.modules', "import sys\ndef f():\n    sys.modules['pyodide'].ffi\n    return 'escaped'"],
    ['signal (a SIGINT handler would disarm the soft stop)', 'import signal\ndef f(): return "escaped"'],
  ] as const) {
    it(`${name} is refused`, async () => {
      const out = await attempt(code);
      expect(out).toMatch(/ImportError|KeyError|not allowed/);
      expect(out).not.toMatch(/^passed/);
    });
  }

  it('no JsProxy is reachable: subclasses, globals of harness functions, gc, frames are all blocked', async () => {
    for (const code of [
      "def f():\n    return [c for c in ().__class__.__base__.__subclasses__() if 'Js' in c.__name__]",
      "def f():\n    return [c for c in getattr(object, '__subclasses__')() if 'Js' in c.__name__]",
      "import operator\ndef f():\n    return operator.attrgetter('__globals__')(f)",
      'import gc\ndef f():\n    return gc.get_objects()',
      'import sys\ndef f():\n    return sys._getframe(1).f_globals',
      'import sys\ndef f():\n    try:\n        1 / 0\n    except ZeroDivisionError:\n        return sys.exc_info()[2].tb_frame.f_back.f_globals',
      'def f():\n    exec("r = ().__class__.__base__.__subclasses__()")\n    return \'escaped\'',
      'def f():\n    return eval("[].__class__.__mro__")',
    ]) {
      expect(await attempt(code)).toMatch(/SandboxViolation|ImportError|not allowed/);
    }
  });

  it('the JS realm of a worker has no code generation, process, require or network left', async () => {
    // Even if Python obtained a JS proxy, `.constructor.constructor(src)` and eval must refuse.
    const report = await pool().probeRealm();
    console.log('worker realm probe', JSON.stringify(report));
    expect(Object.keys(report).length).toBeGreaterThan(5);
    for (const [capability, available] of Object.entries(report))
      expect([capability, available]).toEqual([capability, false]);
  });

  it('host files, host environment and network are out of reach', async () => {
    process.env.SANDBOX_SECRET_SENTINEL = 'hunter2';
    expect(await attempt("def f():\n    return open('/etc/hostname').read()")).toMatch(/FileNotFoundError/);
    expect(await attempt("def f():\n    return open('/proc/self/environ').read()")).toMatch(/^(error|failed)/);
    const env = await pool().judge({
      code: "import os\ndef f():\n    return 'SANDBOX_SECRET_SENTINEL' in os.environ or 'hunter2' in str(os.environ)",
      entryPoint: 'f',
      tests: ['assert f() == False'],
    });
    expect(env.verdicts[0].status).toBe('passed');
    expect(
      await attempt("import socket\ndef f():\n    socket.create_connection(('example.com', 80))\n    return 'escaped'"),
    ).toMatch(/not allowed|Error/);
    expect(
      await attempt("import urllib.request\ndef f():\n    return urllib.request.urlopen('http://example.com').read()"),
    ).toMatch(/not allowed|Error/);
    expect(
      await attempt("def f():\n    open('/lib/python3.14/evil.py', 'w').write('x')\n    return 'escaped'"),
    ).toMatch(/PermissionError/);
  });
});
