// Plain tagged data back to Python source: the values a test's call received on the ground truth, written as a
// call of literals, so a later judge job passes the candidate those same values (not the expression again).
import { strFromCodePoints, type Tree } from './compare';

function str(s: string): string {
  let out = "'";
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    if (ch === "'" || ch === '\\') out += '\\' + ch;
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else if (c >= 0xd800 && c <= 0xdfff) out += `\\u${c.toString(16)}`;
    else out += ch;
  }
  return out + "'";
}

function float(x: unknown): string {
  if (x === 'nan' || (typeof x === 'number' && Number.isNaN(x))) return "float('nan')";
  if (x === 'inf' || x === Infinity) return "float('inf')";
  if (x === '-inf' || x === -Infinity) return "float('-inf')";
  const v = x as number;
  if (Object.is(v, -0)) return '-0.0';
  const s = String(v);
  return /[.e]/.test(s) ? s.replace('e+', 'e') : `${s}.0`;
}

/** Python source that evaluates to exactly this value (same types, same float bits). */
export function treeSource(t: Tree): string {
  if (t === null) return 'None';
  if (t === true) return 'True';
  if (t === false) return 'False';
  if (typeof t === 'string') return str(t);
  const items = t.slice(1) as Tree[];
  switch (t[0]) {
    case 'i':
      return String(t[1]);
    case 'I': {
      const h = t[1] as string;
      return (h.startsWith('-') ? -BigInt('0x' + h.slice(1)) : BigInt('0x' + h)).toString();
    }
    case 'f':
      return float(t[1]);
    case 'c':
      return `complex(${float((t[1] as unknown[])[1])}, ${float((t[2] as unknown[])[1])})`;
    case 'y':
      return `bytes.fromhex('${t[1] as string}')`;
    case 'u':
      return `'${strFromCodePoints(t[1] as string)}'`;
    case 'l':
      return `[${items.map(treeSource).join(', ')}]`;
    case 't':
      return items.length === 1 ? `(${treeSource(items[0])},)` : `(${items.map(treeSource).join(', ')})`;
    case 'S':
      return items.length ? `{${items.map(treeSource).join(', ')}}` : 'set()';
    case 'd': {
      const parts: string[] = [];
      for (let i = 0; i < items.length; i += 2) parts.push(`${treeSource(items[i])}: ${treeSource(items[i + 1])}`);
      return `{${parts.join(', ')}}`;
    }
    default:
      throw new Error(`no source for tag ${String(t[0])}`);
  }
}

/** `fn(arg, ..., name=value)` from a call prep's argument trees. */
export function callSource(fn: string, args: Tree, kwargs: Tree): string {
  const a = Array.isArray(args) ? (args.slice(1) as Tree[]).map(treeSource) : [];
  const kw = Array.isArray(kwargs) ? (kwargs.slice(1) as Tree[]) : [];
  for (let i = 0; i < kw.length; i += 2) a.push(`${String(kw[i])}=${treeSource(kw[i + 1])}`);
  return `${fn}(${a.join(', ')})`;
}
