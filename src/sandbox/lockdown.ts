// Removes JS code generation from a sandbox worker's realm once Pyodide is up, so a JS object that leaks into
// Python (a JsProxy) cannot be turned into arbitrary JS through `.constructor.constructor('...')` or eval.
function refuse(): never {
  throw new EvalError('code generation is disabled in the sandbox');
}

export function disableCodeGeneration(): void {
  const ctors = [
    Function,
    Object.getPrototypeOf(async function () {}).constructor,
    Object.getPrototypeOf(function* () {}).constructor,
    Object.getPrototypeOf(async function* () {}).constructor,
  ] as { prototype: object }[];
  for (const F of ctors) {
    Object.defineProperty(F.prototype, 'constructor', { value: refuse, writable: false, configurable: false });
  }
  // `Function.prototype` must stay the real one (Pyodide's PyProxy instanceof check reads it through the global).
  (refuse as unknown as { prototype: unknown }).prototype = Function.prototype;
  const g = globalThis as Record<string, unknown>;
  for (const name of ['eval', 'Function']) {
    Object.defineProperty(g, name, { value: refuse, writable: false, configurable: false });
  }
}

/** Deletes (or blanks) globals a sandbox worker no longer needs after boot. */
export function removeGlobals(names: readonly string[]): void {
  const g = globalThis as Record<string, unknown>;
  for (const name of names) {
    try {
      delete g[name];
    } catch {
      /* non-configurable: blank it below */
    }
    if (name in g) {
      try {
        Object.defineProperty(g, name, { value: undefined, writable: false, configurable: false });
      } catch {
        /* best effort */
      }
    }
  }
}
