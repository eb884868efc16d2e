// Reads `assert name(<literals>) == <literal>` in JS, straight into the harness's tagged data, so such tests need
// no Python parse, compile or eval (the wasm compiler is the sandbox's bottleneck). Anything it is not sure about
// returns undefined and takes the Python path; it never decides security questions.
import { hashKey, type Tree } from './compare';
import { floatTree } from './marshal';
import { splitAssert } from './split';

export interface LiteralTest {
  fn: string;
  args: Tree[];
  kwargs: Record<string, Tree>;
  expected: Tree;
}

class Fail extends Error {}

// Sticky: matched at `lastIndex` without slicing the rest of the text (reading stays linear).
const WORD = /[A-Za-z_][A-Za-z0-9_]*/y;
const KWARG = /\s*([A-Za-z_][A-Za-z0-9_]*)\s*=(?!=)/y;
const NUM = /(?:0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)/y;

const MAX_SAFE = 2n ** 53n;
const SIMPLE_ESCAPES: Record<string, string> = {
  '\\': '\\',
  "'": "'",
  '"': '"',
  n: '\n',
  t: '\t',
  r: '\r',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
  '0': '\0',
};

class Reader {
  i = 0;
  constructor(readonly s: string) {}

  ws(): void {
    while (this.s[this.i] === ' ' || this.s[this.i] === '\t') this.i++;
  }

  eat(c: string): boolean {
    this.ws();
    if (this.s.startsWith(c, this.i)) {
      this.i += c.length;
      return true;
    }
    return false;
  }

  end(): boolean {
    this.ws();
    return this.i >= this.s.length;
  }

  value(): Tree {
    this.ws();
    const c = this.s[this.i];
    if (c === '-' || c === '+') {
      this.i++;
      const v = this.value();
      // Only numbers take a sign here (`+True` is the int 1 in Python, not a bool: left to Python).
      if (!Array.isArray(v) || (v[0] !== 'i' && v[0] !== 'I' && v[0] !== 'f')) throw new Fail();
      if (c === '+') return v;
      if (v[0] === 'i') return ['i', -(v[1] as number) || 0];
      if (v[0] === 'I')
        return intTree(
          -BigInt((v[1] as string).startsWith('-') ? '-0x' + (v[1] as string).slice(1) : '0x' + (v[1] as string)),
        );
      return floatTree(-floatOf(v[1]));
    }
    if (c === "'" || c === '"') return this.str();
    if (c === '[') return this.seq('[', ']', 'l');
    if (c === '(') return this.paren();
    if (c === '{') return this.brace();
    if (c !== undefined && /[0-9.]/.test(c)) return this.num();
    WORD.lastIndex = this.i;
    const word = WORD.exec(this.s)?.[0];
    if (word === 'True' || word === 'False' || word === 'None') {
      this.i += word.length;
      return word === 'None' ? null : word === 'True';
    }
    throw new Fail();
  }

  num(): Tree {
    NUM.lastIndex = this.i;
    const m = NUM.exec(this.s);
    if (!m) throw new Fail();
    const t = m[0];
    this.i += t.length;
    if (/^[A-Za-z0-9_.]/.test(this.s[this.i] ?? ' ')) throw new Fail(); // 1j, 1_000, 1.real, ...
    if (/^0[xXoObB]/.test(t)) return intTree(BigInt(t.toLowerCase()));
    if (/[.eE]/.test(t)) return floatTree(Number(t));
    if (t.length > 1 && t.startsWith('0') && /[1-9]/.test(t)) throw new Fail(); // 007 is a SyntaxError
    return intTree(BigInt(t));
  }

  str(): Tree {
    const q = this.s[this.i];
    if (this.s.startsWith(q.repeat(3), this.i)) throw new Fail();
    let out = '';
    let j = this.i + 1;
    for (; j < this.s.length && this.s[j] !== q; j++) {
      if (this.s[j] !== '\\') {
        // A run of plain characters at once (string building stays linear); a raw line break ends no literal.
        let k = j;
        while (k < this.s.length && this.s[k] !== q && this.s[k] !== '\\') k++;
        const run = this.s.slice(j, k);
        if (/[\n\r]/.test(run)) throw new Fail();
        out += run;
        j = k - 1;
        continue;
      }
      const e = this.s[++j];
      if (e in SIMPLE_ESCAPES && !(e === '0' && /[0-7]/.test(this.s[j + 1] ?? ''))) out += SIMPLE_ESCAPES[e];
      else if (e === 'x' || e === 'u' || e === 'U') {
        const len = e === 'x' ? 2 : e === 'u' ? 4 : 8;
        const hex = this.s.slice(j + 1, j + 1 + len);
        if (!new RegExp(`^[0-9a-fA-F]{${len}}$`).test(hex)) throw new Fail();
        const cp = parseInt(hex, 16);
        if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) throw new Fail();
        out += String.fromCodePoint(cp);
        j += len;
      } else throw new Fail();
    }
    if (j >= this.s.length) throw new Fail();
    this.i = j + 1;
    this.ws();
    if (this.s[this.i] === "'" || this.s[this.i] === '"') throw new Fail(); // implicit concatenation
    return out;
  }

  items(close: string): { items: Tree[]; trailingComma: boolean } {
    const items: Tree[] = [];
    let trailingComma = false;
    while (!this.eat(close)) {
      if (items.length && !trailingComma) throw new Fail();
      items.push(this.value());
      trailingComma = this.eat(',');
    }
    return { items, trailingComma };
  }

  seq(open: string, close: string, tag: string): Tree {
    this.eat(open);
    return [tag, ...this.items(close).items];
  }

  paren(): Tree {
    this.eat('(');
    const { items, trailingComma } = this.items(')');
    if (items.length === 1 && !trailingComma) return items[0];
    return ['t', ...items];
  }

  brace(): Tree {
    this.eat('{');
    if (this.eat('}')) return ['d'];
    const first = this.value();
    if (this.eat(':')) {
      const keys: Tree[] = [];
      const vals: Tree[] = [];
      const at = new Map<string, number>();
      let k: Tree = first;
      for (;;) {
        hashable(k);
        const v = this.value();
        const h = hashKey(k);
        const seen = at.get(h);
        if (seen !== undefined)
          vals[seen] = v; // a repeated key keeps its first spelling and its last value
        else {
          at.set(h, keys.length);
          keys.push(k);
          vals.push(v);
        }
        if (this.eat('}')) break;
        if (!this.eat(',')) throw new Fail();
        if (this.eat('}')) break;
        k = this.value();
        if (!this.eat(':')) throw new Fail();
      }
      return ['d', ...keys.flatMap((key, i) => [key, vals[i]])];
    }
    const elems: Tree[] = [first];
    while (this.eat(',')) {
      if (this.eat('}')) return set(elems);
      elems.push(this.value());
    }
    if (!this.eat('}')) throw new Fail();
    return set(elems);
  }
}

function intTree(v: bigint): Tree {
  if (v <= MAX_SAFE && v >= -MAX_SAFE) return ['i', Number(v)];
  return ['I', v < 0n ? '-' + (-v).toString(16) : v.toString(16)];
}

function hashable(t: Tree): void {
  if (Array.isArray(t) && (t[0] === 'l' || t[0] === 'd' || t[0] === 'S')) throw new Fail();
  if (Array.isArray(t) && t[0] === 't') (t.slice(1) as Tree[]).forEach(hashable);
  if (Array.isArray(t) && t[0] === 'f' && (Number.isNaN(t[1]) || t[1] === 'nan')) throw new Fail();
}

function set(elems: Tree[]): Tree {
  const out: Tree[] = [];
  const seen = new Set<string>();
  for (const e of elems) {
    hashable(e);
    const h = hashKey(e);
    if (!seen.has(h)) {
      seen.add(h);
      out.push(e);
    }
  }
  return ['S', ...out];
}

function floatOf(x: unknown): number {
  return typeof x === 'number' ? x : x === 'inf' ? Infinity : x === '-inf' ? -Infinity : NaN;
}

/** A Python literal expression as tagged data, or undefined when it is not a plain literal we can read. */
export function parseLiteral(src: string): Tree | undefined {
  try {
    const r = new Reader(src);
    const v = r.value();
    return r.end() ? v : undefined;
  } catch (e) {
    if (e instanceof Fail || e instanceof SyntaxError || e instanceof RangeError) return undefined;
    throw e;
  }
}

/** `assert name(literal args, k=literal) == literal`, read without Python; undefined otherwise. */
export function literalTest(test: string): LiteralTest | undefined {
  const parts = splitAssert(test);
  if (!parts) return undefined;
  const m = /^([A-Za-z_][A-Za-z0-9_]*)\s*\(([\s\S]*)\)$/.exec(parts[0]);
  if (!m || m[1].startsWith('_')) return undefined;
  const expected = parseLiteral(parts[1]);
  if (expected === undefined) return undefined;
  try {
    const r = new Reader(m[2]);
    const args: Tree[] = [];
    const kwargs: Record<string, Tree> = {};
    while (!r.end()) {
      KWARG.lastIndex = r.i;
      const kw = KWARG.exec(r.s);
      if (kw) {
        if (kw[1] in kwargs || kw[1].startsWith('_')) return undefined;
        r.i += kw[0].length;
        kwargs[kw[1]] = r.value();
      } else {
        if (Object.keys(kwargs).length) return undefined;
        args.push(r.value());
      }
      if (!r.eat(',') && !r.end()) return undefined;
    }
    return { fn: m[1], args, kwargs, expected };
  } catch (e) {
    if (e instanceof Fail || e instanceof SyntaxError || e instanceof RangeError) return undefined;
    throw e;
  }
}
