// Python values in TS and their repr(): test arguments and expected values are written as Python literals.
/** A Python tuple (TS arrays are lists). */
export class PyTuple {
  constructor(readonly items: Py[]) {}
}

/** A Python dict with insertion order (keys are ints or strs). */
export class PyDict {
  constructor(readonly entries: [Py, Py][]) {}
}

export type Py = number | string | boolean | null | Py[] | PyTuple | PyDict;

export const tuple = (...items: Py[]): PyTuple => new PyTuple(items);
export const dict = (entries: [Py, Py][]): PyDict => new PyDict(entries);

/** Python's repr for str: single quotes unless the text holds ' and no ". */
function strRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    if (ch === '\\') out += '\\\\';
    else if (ch === quote) out += '\\' + ch;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch < ' ' || ch > '~') throw new Error(`non-ASCII/control char in generated string: ${JSON.stringify(s)}`);
    else out += ch;
  }
  return out + quote;
}

export function pyRepr(v: Py): string {
  if (v === null) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'number') {
    // Curriculum values are ints; a float here would make repr() ambiguous between TS and Python.
    if (!Number.isSafeInteger(v)) throw new Error(`non-integer or unsafe number in curriculum: ${v}`);
    return String(v);
  }
  if (typeof v === 'string') return strRepr(v);
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(', ')}]`;
  if (v instanceof PyTuple)
    return v.items.length === 1 ? `(${pyRepr(v.items[0])},)` : `(${v.items.map(pyRepr).join(', ')})`;
  return `{${v.entries.map(([k, x]) => `${pyRepr(k)}: ${pyRepr(x)}`).join(', ')}}`;
}

/** A call expression `f(a, b)`. */
export function pyCall(fn: string, args: readonly Py[]): string {
  return `${fn}(${args.map(pyRepr).join(', ')})`;
}

/** Python truthiness/equality is not needed here: expected values are compared by the sandbox, in Python. */
export function pyAssert(fn: string, args: readonly Py[], expected: Py): string {
  return `assert ${pyCall(fn, args)} == ${pyRepr(expected)}`;
}
