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

/**
 * Freezes every object reachable from the global object's properties and from `roots` through own properties (data values, getters, setters) and prototypes,
 * without calling any getter: the realm's intrinsics (Array.prototype, Object, Error, ...) and the prototypes of
 * Pyodide's proxies, so JS objects a job reaches from Python (Pyodide's core can make them) cannot be changed for
 * the next job. `writable` names properties that stay writable but not configurable (Error.stackTraceLimit: Pyodide
 * sets it around every error it creates); such objects are sealed instead of frozen, so nothing can be added.
 * Returns how many objects it froze.
 */
export function freezeRealm(roots: unknown[], writable: [object, string][] = []): number {
  const keep = new Map<object, Set<string>>();
  for (const [o, k] of writable) keep.set(o, (keep.get(o) ?? new Set()).add(k));
  // The global object itself stays as it is (hosts define globals lazily); Python has no handle on it.
  const seen = new Set<object>([globalThis]);
  const todo: unknown[] = [...roots];
  for (const key of Reflect.ownKeys(globalThis)) {
    const d = Object.getOwnPropertyDescriptor(globalThis, key);
    todo.push(d?.value, d?.get, d?.set);
  }
  const isObj = (x: unknown): x is object => (typeof x === 'object' && x !== null) || typeof x === 'function';
  while (todo.length) {
    const o = todo.pop();
    if (!isObj(o) || seen.has(o)) continue;
    seen.add(o);
    todo.push(Object.getPrototypeOf(o));
    for (const key of Reflect.ownKeys(o)) {
      const d = Object.getOwnPropertyDescriptor(o, key);
      if (!d) continue;
      todo.push(d.value, d.get, d.set);
    }
    const open = keep.get(o);
    if (!open) {
      try {
        Object.freeze(o);
        continue;
      } catch {
        /* typed arrays with elements: seal what can be sealed below */
      }
    }
    for (const key of Reflect.ownKeys(o)) {
      const d = Object.getOwnPropertyDescriptor(o, key);
      if (!d || !d.configurable) continue;
      const fixed = 'value' in d && !(typeof key === 'string' && open?.has(key)) ? { writable: false } : {};
      try {
        Object.defineProperty(o, key, { ...fixed, configurable: false });
      } catch {
        /* an exotic object refusing it: left as it is */
      }
    }
    Object.preventExtensions(o);
  }
  return seen.size;
}
