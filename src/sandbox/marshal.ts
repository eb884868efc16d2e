// Decodes CPython `marshal.dumps(value, 2)` bytes into the sandbox's tagged plain data (compare.ts `Tree`).
// marshal is C code with exact type checks (a subclass or a custom __eq__ is refused there, before any Python
// runs), and the worker calls it through a reference taken at boot, so this is the one way values leave Python.
import type { Tree } from './compare';

export class MarshalError extends Error {}

const MAX_SAFE = 2n ** 53n;

function intTree(v: bigint): Tree {
  if (v <= MAX_SAFE && v >= -MAX_SAFE) return ['i', Number(v)];
  return ['I', v < 0n ? '-' + (-v).toString(16) : v.toString(16)];
}

/** A float in the tree: finite numbers as numbers, the rest as strings so the tree survives JSON. */
export function floatTree(x: number): Tree {
  if (Number.isNaN(x)) return ['f', 'nan'];
  if (x === Infinity) return ['f', 'inf'];
  if (x === -Infinity) return ['f', '-inf'];
  return ['f', x];
}

/**
 * UTF-8 with lone surrogates allowed (marshal writes str with "surrogatepass"). A str that holds a surrogate code
 * point becomes ['u', code points]: as a JS string it could not be told from a different str (a surrogate pair is
 * one code point in Python, two in '\ud83d\ude00').
 */
function decodeUtf8(b: Uint8Array, start: number, end: number): Tree {
  let ascii = true;
  for (let i = start; i < end; i++) if (b[i] > 127) ascii = false;
  if (ascii) {
    let s = '';
    for (let i = start; i < end; i += 8192) s += String.fromCharCode(...b.subarray(i, Math.min(end, i + 8192)));
    return s;
  }
  const units: number[] = [];
  const cps: number[] = [];
  let lone = false;
  let out = '';
  for (let i = start; i < end;) {
    const c = b[i];
    const len = c < 0x80 ? 1 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
    let cp = len === 1 ? c : c & (0xff >> (len + 1));
    for (let k = 1; k < len; k++) cp = (cp << 6) | (b[i + k] & 0x3f);
    i += len;
    cps.push(cp);
    if (cp >= 0xd800 && cp <= 0xdfff) lone = true;
    if (cp > 0xffff) {
      cp -= 0x10000;
      units.push(0xd800 + (cp >> 10), 0xdc00 + (cp & 0x3ff));
    } else units.push(cp);
    if (units.length > 8000) out += String.fromCharCode(...units.splice(0));
  }
  return lone ? ['u', cps.join(',')] : out + String.fromCharCode(...units);
}

/** Decodes one marshalled value; refuses code objects, references and anything that is not plain data. */
export function unmarshal(bytes: Uint8Array, maxNodes = 2_000_000): Tree {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let pos = 0;
  let nodes = 0;
  const need = (n: number) => {
    if (pos + n > bytes.length) throw new MarshalError('truncated marshal data');
  };
  const i32 = () => {
    need(4);
    const v = view.getInt32(pos, true);
    pos += 4;
    return v;
  };
  const f64 = () => {
    need(8);
    const v = view.getFloat64(pos, true);
    pos += 8;
    return v;
  };
  const count = () => {
    const n = i32();
    if (n < 0 || n > bytes.length) throw new MarshalError('bad length');
    return n;
  };
  const read = (depth: number): Tree | undefined => {
    if (++nodes > maxNodes || depth > 2100) throw new MarshalError('value too large or too deep');
    need(1);
    const code = String.fromCharCode(bytes[pos++] & 0x7f);
    switch (code) {
      case '0':
        return undefined;
      case 'N':
        return null;
      case 'F':
        return false;
      case 'T':
        return true;
      case 'i':
        return ['i', i32()];
      case 'l': {
        const n = i32();
        const size = Math.abs(n);
        need(2 * size);
        let v = 0n;
        for (let k = size - 1; k >= 0; k--) v = (v << 15n) | BigInt(view.getUint16(pos + 2 * k, true));
        pos += 2 * size;
        return intTree(n < 0 ? -v : v);
      }
      case 'g':
        return floatTree(f64());
      case 'y': {
        const re = f64();
        return ['c', floatTree(re), floatTree(f64())];
      }
      case 's': {
        const n = count();
        need(n);
        let hex = '';
        for (let k = pos; k < pos + n; k++) hex += bytes[k].toString(16).padStart(2, '0');
        pos += n;
        return ['y', hex];
      }
      case 'u':
      case 't':
      case 'a':
      case 'A':
      case 'z':
      case 'Z': {
        let n: number;
        if (code === 'z' || code === 'Z') {
          need(1);
          n = bytes[pos++];
        } else n = count();
        need(n);
        const s = decodeUtf8(bytes, pos, pos + n);
        pos += n;
        return s;
      }
      case '(':
      case ')':
      case '[':
      case '<':
      case '>': {
        let n: number;
        if (code === ')') {
          need(1);
          n = bytes[pos++];
        } else n = count();
        const tag = code === '[' ? 'l' : code === '(' || code === ')' ? 't' : 'S';
        const out: Tree[] = [];
        for (let k = 0; k < n; k++) {
          const v = read(depth + 1);
          if (v === undefined) throw new MarshalError('unexpected NULL');
          out.push(v);
        }
        return [tag, ...out];
      }
      case '{': {
        const out: Tree[] = [];
        for (;;) {
          const k = read(depth + 1);
          if (k === undefined) break;
          const v = read(depth + 1);
          if (v === undefined) throw new MarshalError('unexpected NULL');
          out.push(k, v);
        }
        return ['d', ...out];
      }
      default:
        throw new MarshalError(`not plain data (marshal type '${code}')`);
    }
  };
  const v = read(0);
  if (v === undefined || pos !== bytes.length) throw new MarshalError('bad marshal data');
  return v;
}

/** UTF-8 of a JS string, lone surrogates written as their 3-byte form (marshal reads str with "surrogatepass"). */
function encodeUtf8(s: string, out: number[]): void {
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
      }
    }
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
}

/**
 * Plain tagged data as `marshal.dumps(value, 2)` bytes, for the worker to hand to the C `marshal.loads` it took at
 * boot: test arguments become Python objects with no Python code (the harness's or a job's) in between.
 */
export function marshalEncode(t: Tree): Uint8Array {
  const out: number[] = [];
  const i32 = (v: number) => out.push(v & 255, (v >>> 8) & 255, (v >>> 16) & 255, (v >>> 24) & 255);
  const f64 = (v: number) => {
    const b = new Uint8Array(new Float64Array([v]).buffer);
    for (const x of b) out.push(x);
  };
  const num = (x: unknown) => (typeof x === 'number' ? x : x === 'inf' ? Infinity : x === '-inf' ? -Infinity : NaN);
  const big = (v: bigint) => {
    if (v >= -(2n ** 31n) && v < 2n ** 31n) {
      out.push(0x69);
      i32(Number(v));
      return;
    }
    const digits: number[] = [];
    for (let a = v < 0n ? -v : v; a > 0n; a >>= 15n) digits.push(Number(a & 0x7fffn));
    out.push(0x6c);
    i32(v < 0n ? -digits.length : digits.length);
    for (const d of digits) out.push(d & 255, d >> 8);
  };
  const seq = (code: string, items: unknown[]) => {
    out.push(code.charCodeAt(0));
    i32(items.length);
    for (const x of items) put(x as Tree);
  };
  const put = (x: Tree): void => {
    if (x === null) return void out.push(0x4e);
    if (x === true) return void out.push(0x54);
    if (x === false) return void out.push(0x46);
    if (typeof x === 'string') {
      const b: number[] = [];
      encodeUtf8(x, b);
      out.push(0x75);
      i32(b.length);
      for (const c of b) out.push(c);
      return;
    }
    const items = x.slice(1);
    switch (x[0]) {
      case 'u': {
        const b: number[] = [];
        for (const cp of (x[1] as string).split(',').map(Number)) encodeUtf8(String.fromCodePoint(cp), b);
        out.push(0x75);
        i32(b.length);
        for (const c of b) out.push(c);
        return;
      }
      case 'i':
        return big(BigInt(x[1] as number));
      case 'I': {
        const h = x[1] as string;
        return big(h.startsWith('-') ? -BigInt('0x' + h.slice(1)) : BigInt('0x' + h));
      }
      case 'f':
        out.push(0x67);
        return f64(num(x[1]));
      case 'c':
        out.push(0x79);
        f64(num((x[1] as unknown[])[1]));
        return f64(num((x[2] as unknown[])[1]));
      case 'y': {
        const h = x[1] as string;
        out.push(0x73);
        i32(h.length / 2);
        for (let k = 0; k < h.length; k += 2) out.push(parseInt(h.slice(k, k + 2), 16));
        return;
      }
      case 'l':
        return seq('[', items);
      case 't':
        return seq('(', items);
      case 'S':
        return seq('<', items);
      case 'd':
        out.push(0x7b);
        for (const v of items) put(v as Tree);
        return void out.push(0x30);
      default:
        throw new MarshalError(`cannot encode tag ${String(x[0])}`);
    }
  };
  put(t);
  return Uint8Array.from(out);
}
