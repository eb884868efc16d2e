// Python `==` on plain tagged data (as produced by the harness's _canon), with a tolerance for floats.
// Runs on the main thread: the candidate cannot influence it, and never sees the expected values.
export type Tree = null | boolean | string | [string, ...unknown[]];

export const REL_TOL = 1e-6;
export const ABS_TOL = 1e-9;

type Num = { re: number; im: number; big?: bigint };

function floatOf(x: unknown): number {
  if (typeof x === 'number') return x;
  if (x === 'nan') return NaN;
  if (x === 'inf') return Infinity;
  if (x === '-inf') return -Infinity;
  return NaN;
}

function hexToBig(h: string): bigint {
  return h.startsWith('-') ? -BigInt('0x' + h.slice(1)) : BigInt('0x' + h);
}

/** bool, int, float and complex all compare numerically in Python. */
function asNum(t: Tree): Num | null {
  if (typeof t === 'boolean') return { re: t ? 1 : 0, im: 0, big: t ? 1n : 0n };
  if (!Array.isArray(t)) return null;
  switch (t[0]) {
    case 'i':
      return { re: t[1] as number, im: 0, big: BigInt(t[1] as number) };
    case 'I': {
      const big = hexToBig(t[1] as string);
      return { re: Number(big), im: 0, big };
    }
    case 'f':
      return { re: floatOf(t[1]), im: 0 };
    case 'c':
      return { re: floatOf((t[1] as unknown[])[1]), im: floatOf((t[2] as unknown[])[1]) };
    default:
      return null;
  }
}

export function close(a: number, b: number): boolean {
  if (a === b) return true;
  if (Number.isNaN(a) && Number.isNaN(b)) return true;
  if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
  return Math.abs(a - b) <= Math.max(ABS_TOL, REL_TOL * Math.max(Math.abs(a), Math.abs(b)));
}

function numEqual(a: Num, b: Num): boolean {
  if (a.big !== undefined && b.big !== undefined) return a.big === b.big;
  return close(a.re, b.re) && close(a.im, b.im);
}

/** Unordered matching (sets, dict keys): quadratic, so only for modest sizes; large ones compare exactly. */
function matchUnordered(a: Tree[], b: Tree[], eq: (x: Tree, y: Tree) => boolean): boolean {
  if (a.length !== b.length) return false;
  if (a.length > 256) {
    const key = (x: Tree) => JSON.stringify(x);
    const sa = a.map(key).sort();
    const sb = b.map(key).sort();
    return sa.every((x, i) => x === sb[i]);
  }
  const used = new Array<boolean>(b.length).fill(false);
  outer: for (const x of a) {
    for (let j = 0; j < b.length; j++) {
      if (!used[j] && eq(x, b[j])) {
        used[j] = true;
        continue outer;
      }
    }
    return false;
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
  if (kind === 'y') return ta[1] === tb[1];
  const ia = ta.slice(1) as Tree[];
  const ib = tb.slice(1) as Tree[];
  if (kind === 'l' || kind === 't') return ia.length === ib.length && ia.every((x, i) => pyEqual(x, ib[i]));
  if (kind === 'S') return matchUnordered(ia, ib, pyEqual);
  if (kind === 'd') {
    const pairs = (xs: Tree[]) => xs.filter((_, i) => i % 2 === 0).map((k, i) => ['t', k, xs[2 * i + 1]] as Tree);
    // A dict pair matches when its key and value both match: keys are unique, so this is dict equality.
    return matchUnordered(pairs(ia), pairs(ib), (x, y) => {
      const [, kx, vx] = x as [string, Tree, Tree];
      const [, ky, vy] = y as [string, Tree, Tree];
      return pyEqual(kx, ky) && pyEqual(vx, vy);
    });
  }
  return false;
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
      return String(t[1]);
    case 'c':
      return `complex(${render(t[1] as Tree)}, ${render(t[2] as Tree)})`;
    case 'y':
      return `bytes.fromhex('${t[1] as string}')`;
    case 'l':
      return `[${items.map(render).join(', ')}]`;
    case 't':
      return `(${items.map(render).join(', ')}${items.length === 1 ? ',' : ''})`;
    case 'S':
      return items.length ? `{${items.map(render).join(', ')}}` : 'set()';
    case 'd':
      return `{${items.filter((_, i) => i % 2 === 0).map((k, i) => `${render(k)}: ${render(items[2 * i + 1])}`).join(', ')}}`;
    default:
      return '?';
  }
}
