// CPython `==` on plain tagged data (as marshal gives it): exact ints, exact floats (NaN is not NaN), int vs float
// by exact value, unordered sets and dict keys by the same equality. No tolerance: a dataset that wants one says so
// in its own checker (a statement test). Runs in JS, where no candidate or test code can reach it.
// A str holding lone surrogates (which a JS string cannot tell from a pair) is ['u', code points joined by ','].
export type Tree = null | boolean | string | [string, ...unknown[]];

/** The Python-escaped text of a ['u', ...] string's code points. */
export function strFromCodePoints(cps: string): string {
  return cps
    .split(',')
    .map(Number)
    .map((c) =>
      c >= 0xd800 && c <= 0xdfff
        ? `\\u${c.toString(16)}`
        : c === 39 || c === 92
          ? `\\${String.fromCharCode(c)}`
          : String.fromCodePoint(c),
    )
    .join('');
}

type Num = { kind: 'int'; v: bigint } | { kind: 'float'; v: number } | { kind: 'complex'; re: number; im: number };

function floatOf(x: unknown): number {
  if (typeof x === 'number') return x;
  if (x === 'inf') return Infinity;
  if (x === '-inf') return -Infinity;
  return NaN;
}

function hexToBig(h: string): bigint {
  return h.startsWith('-') ? -BigInt('0x' + h.slice(1)) : BigInt('0x' + h);
}

/** bool, int, float and complex all compare numerically in Python. */
function asNum(t: Tree): Num | null {
  if (typeof t === 'boolean') return { kind: 'int', v: t ? 1n : 0n };
  if (!Array.isArray(t)) return null;
  switch (t[0]) {
    case 'i':
      return { kind: 'int', v: BigInt(t[1] as number) };
    case 'I':
      return { kind: 'int', v: hexToBig(t[1] as string) };
    case 'f':
      return { kind: 'float', v: floatOf(t[1]) };
    case 'c':
      return { kind: 'complex', re: floatOf((t[1] as unknown[])[1]), im: floatOf((t[2] as unknown[])[1]) };
    default:
      return null;
  }
}

/** int == float the way CPython does it: by exact value, never by rounding the int to a float. */
function intEqFloat(i: bigint, f: number): boolean {
  return Number.isFinite(f) && Number.isInteger(f) && BigInt(f) === i;
}

function realEq(a: Num, b: Num): boolean {
  if (a.kind === 'int' && b.kind === 'int') return a.v === b.v;
  if (a.kind === 'int' && b.kind === 'float') return intEqFloat(a.v, b.v);
  if (a.kind === 'float' && b.kind === 'int') return intEqFloat(b.v, a.v);
  return a.kind === 'float' && b.kind === 'float' && a.v === b.v;
}

function numEqual(a: Num, b: Num): boolean {
  if (a.kind === 'complex' || b.kind === 'complex') {
    const c = (n: Num): [Num, number] => (n.kind === 'complex' ? [{ kind: 'float', v: n.re }, n.im] : [n, 0]);
    const [ra, ia] = c(a);
    const [rb, ib] = c(b);
    return ia === ib && realEq(ra, rb);
  }
  return realEq(a, b);
}

/**
 * A key equal for exactly the values Python's == (and hash) treat as the same set member or dict key. NaN gets a
 * key of its own every time: two NaN objects are never the same key across the JS boundary.
 */
let nanCount = 0;
export function hashKey(t: Tree): string {
  const n = asNum(t);
  if (n) {
    let re: Num = n;
    if (n.kind === 'complex') {
      // A NaN in either part makes the value equal to nothing, itself included (no identity crosses into JS).
      if (Number.isNaN(n.re) || Number.isNaN(n.im)) return `nan${nanCount++}`;
      if (n.im !== 0) return `c${n.re}|${n.im}`;
      re = { kind: 'float', v: n.re };
    }
    if (re.kind === 'int') return `n${re.v}`;
    const v = (re as { v: number }).v;
    if (Number.isNaN(v)) return `nan${nanCount++}`;
    return Number.isFinite(v) && Number.isInteger(v) ? `n${BigInt(v)}` : `f${v}`;
  }
  if (t === null) return 'N';
  if (typeof t === 'string') return 's' + JSON.stringify(t);
  if (!Array.isArray(t)) return `?${nanCount++}`;
  const items = t.slice(1) as Tree[];
  if (t[0] === 'y' || t[0] === 'u') return t[0] + String(t[1]);
  if (t[0] === 't') return `t(${items.map(hashKey).join(',')})`;
  if (t[0] === 'S') return `S{${items.map(hashKey).sort().join(',')}}`;
  return `?${nanCount++}`;
}

function setEqual(a: Tree[], b: Tree[]): boolean {
  if (a.length !== b.length) return false;
  const counts = new Map<string, number>();
  for (const x of a) counts.set(hashKey(x), (counts.get(hashKey(x)) ?? 0) + 1);
  for (const y of b) {
    const k = hashKey(y);
    const c = counts.get(k);
    if (!c) return false;
    counts.set(k, c - 1);
  }
  return true;
}

export function pyEqual(a: Tree, b: Tree): boolean {
  if (a === null || b === null) return a === b;
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  const na = asNum(a);
  const nb = asNum(b);
  if (na || nb) return !!na && !!nb && numEqual(na, nb);
  const ta = a as unknown[];
  const tb = b as unknown[];
  const kind = ta[0];
  if (kind !== tb[0]) return false;
  if (kind === 'y' || kind === 'u') return ta[1] === tb[1];
  const ia = ta.slice(1) as Tree[];
  const ib = tb.slice(1) as Tree[];
  if (kind === 'l' || kind === 't') return ia.length === ib.length && ia.every((x, i) => pyEqual(x, ib[i]));
  if (kind === 'S') return setEqual(ia, ib);
  if (kind === 'd') {
    if (ia.length !== ib.length) return false;
    const byKey = new Map<string, Tree>();
    for (let i = 0; i < ib.length; i += 2) byKey.set(hashKey(ib[i]), ib[i + 1]);
    for (let i = 0; i < ia.length; i += 2) {
      const k = hashKey(ia[i]);
      if (!byKey.has(k) || !pyEqual(ia[i + 1], byKey.get(k) as Tree)) return false;
    }
    return true;
  }
  return false;
}

/** Same value and same types, float bits included (a repr that reads back as this exact value). */
export function sameTree(a: Tree, b: Tree): boolean {
  if (!Array.isArray(a) || !Array.isArray(b)) return a === b;
  if (a.length !== b.length || a[0] !== b[0]) return false;
  for (let i = 1; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (typeof x === 'number' && typeof y === 'number') {
      if (!Object.is(x, y)) return false;
    } else if (!sameTree(x as Tree, y as Tree)) return false;
  }
  return true;
}

/** A short Python-like rendering for messages (not a faithful repr). */
export function preview(t: Tree, max = 120): string {
  const s = render(t);
  return s.length > max ? s.slice(0, max) + '…' : s;
}

function render(t: Tree): string {
  if (t === null) return 'None';
  if (typeof t === 'boolean') return t ? 'True' : 'False';
  if (typeof t === 'string') return JSON.stringify(t);
  const items = t.slice(1) as Tree[];
  switch (t[0]) {
    case 'i':
      return String(t[1]);
    case 'I':
      return hexToBig(t[1] as string).toString();
    case 'f':
      return typeof t[1] === 'number' && Number.isInteger(t[1]) ? `${t[1]}.0` : String(t[1]);
    case 'c':
      return `complex(${render(t[1] as Tree)}, ${render(t[2] as Tree)})`;
    case 'y':
      return `bytes.fromhex('${t[1] as string}')`;
    case 'u':
      return `'${strFromCodePoints(t[1] as string)}'`;
    case 'l':
      return `[${items.map(render).join(', ')}]`;
    case 't':
      return `(${items.map(render).join(', ')}${items.length === 1 ? ',' : ''})`;
    case 'S':
      return items.length ? `{${items.map(render).join(', ')}}` : 'set()';
    case 'd':
      return `{${items
        .filter((_, i) => i % 2 === 0)
        .map((k, i) => `${render(k)}: ${render(items[2 * i + 1])}`)
        .join(', ')}}`;
    default:
      return '?';
  }
}
