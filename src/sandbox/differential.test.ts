// Differential tests against CPython (/usr/bin/python3, one process per file): thousands of generated value pairs
// (random and adversarial: surrogates, combining characters, -0.0, NaN, big ints, nested containers, keys equal across
// int/float/bool, bytes, odd literal syntax) must get the verdict CPython's `==` gives, through compare.ts and through
// the real sandbox; and the JS literal reader must read exactly what ast.literal_eval (or eval) reads, or decline.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { pyEqual, sameTree, type Tree } from './compare';
import { parseLiteral } from './literal';
import { unmarshal } from './marshal';
import { usePool } from './test-helpers';

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Python source of a random value; `odd` picks unusual spellings of the same kinds of value. */
function gen(r: () => number, depth = 0): string {
  const pick = <T>(xs: T[]): T => xs[Math.floor(r() * xs.length)];
  const k = Math.floor(r() * (depth > 2 ? 6 : 10));
  switch (k) {
    case 0:
      return pick(['0', '1', '-1', '2', '7', 'True', 'False', '1_000', '0x1F', '0o17', '0b101', '00', '-0', '+3']);
    case 1:
      return pick(['2**53', '2**53 + 1', '-(2**64)', '10**30', '12345678901234567890', '-9007199254740993']);
    case 2:
      return pick([
        '0.0',
        '-0.0',
        '1.0',
        '1.5',
        '.5',
        '1.',
        '1e3',
        '2.5e-3',
        '1e400',
        "float('nan')",
        "float('inf')",
        "-float('inf')",
        '9007199254740993.0',
        '0.1 + 0.2',
        '0.30000000000000004',
        '1e16',
        '1E+2',
      ]);
    case 3:
      return pick([
        "'a'",
        '"a"',
        "'é'",
        "'e\\u0301'",
        "'\\u00e9'",
        "'\\ud83d\\ude00'",
        "'😀'",
        "'\\U0001F600'",
        "'\\ud800'",
        "'a' 'b'",
        "'ab'",
        "r'\\n'",
        "'\\\\n'",
        "'\\n'",
        "'\\x41'",
        "'A'",
        "''",
        "u'x'",
        "'x'",
        "'\\t'",
        "'\\0'",
        "'tab\\there'",
      ]);
    case 4:
      return pick(["b''", "b'a'", "b'\\x00'", 'bytes(1)', "b'\\xff'", "bytearray(b'a')", "'a'.encode()"]);
    case 5:
      return pick(['None', 'None', '1j', 'complex(1, 0)', 'complex(0, -0.0)', '(1+2j)']);
    case 6:
      return `[${Array.from({ length: Math.floor(r() * 4) }, () => gen(r, depth + 1)).join(', ')}${r() < 0.2 ? ',' : ''}]`;
    case 7: {
      const n = Math.floor(r() * 4);
      const items = Array.from({ length: n }, () => gen(r, depth + 1));
      return n === 1 ? `(${items[0]},)` : `(${items.join(', ')}${n > 1 && r() < 0.2 ? ',' : ''})`;
    }
    case 8: {
      const keys = ['1', '1.0', 'True', '0', 'False', '-0.0', "'1'", '(1, 2)', '(1.0, 2.0)', 'None', "b'1'", '2**64'];
      const n = Math.floor(r() * 4);
      return `{${Array.from({ length: n }, () => `${pick(keys)}: ${gen(r, depth + 1)}`).join(', ')}}`;
    }
    default: {
      const elems = ['1', '1.0', 'True', '2', "'a'", '(1, 2)', 'frozenset({1})', '-0.0', '0', "float('nan')"];
      const n = Math.floor(r() * 4);
      return n === 0 ? 'set()' : `{${Array.from({ length: n }, () => pick(elems)).join(', ')}}`;
    }
  }
}

/** Near-miss partner of a value: often the same source, an equal value spelled differently, or a small change. */
function partner(r: () => number, a: string): string {
  const x = r();
  if (x < 0.3) return a;
  if (x < 0.5)
    return a
      .replace(/\bTrue\b/g, '1')
      .replace(/(?<![\w.])1(?![\w.])/g, '1.0')
      .replace(/\[/g, '(')
      .replace(/\]/g, ',)');
  if (x < 0.65) return a.replace(/-0\.0/g, '0.0').replace(/\(1, 2\)/g, '(1.0, 2)');
  return gen(r);
}

const ORACLE = `
import ast, json, marshal, sys
out = []
for kind, a, b in json.load(sys.stdin):
    try:
        if kind == 'eq':
            out.append(eval(a) == eval(b))
        else:
            try:
                v = ast.literal_eval(a)
            except Exception:
                v = eval(a)
            out.append(marshal.dumps(v, 2).hex())
    except Exception as e:
        out.append(None)
print(json.dumps(out))
`;

function cpython(items: [string, string, string][]): (boolean | string | null)[] {
  const r = spawnSync('/usr/bin/python3', ['-I', '-c', ORACLE], { input: JSON.stringify(items), encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as (boolean | string | null)[];
}

/** Exact types and float bits (sameTree), with set members and dict items in a canonical order. */
function canon(t: Tree): Tree {
  if (!Array.isArray(t)) return t;
  const items = (t.slice(1) as Tree[]).map((x) => (Array.isArray(x) ? canon(x) : x));
  if (t[0] === 'S') return ['S', ...items.sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1))];
  if (t[0] === 'd') {
    const pairs: [Tree, Tree][] = [];
    for (let i = 0; i < items.length; i += 2) pairs.push([items[i], items[i + 1]]);
    pairs.sort((a, b) => (JSON.stringify(a[0]) < JSON.stringify(b[0]) ? -1 : 1));
    return ['d', ...pairs.flat()];
  }
  if (t[0] === 'f' || t[0] === 'c' || t[0] === 'i' || t[0] === 'I' || t[0] === 'y' || t[0] === 'u') return t;
  return [t[0], ...items];
}

const hexBytes = (h: string) => Uint8Array.from(h.match(/../g) ?? [], (b) => parseInt(b, 16));
const r = rng(46);
/** Pairs where a comparison of JS values could go wrong, besides the generated ones. */
const ADVERSARIAL: [string, string][] = [
  ["'\\ud83d\\ude00'", "'😀'"],
  ["['\\ud83d\\ude00']", "['\\U0001F600']"],
  ["'\\ud83d\\ude00'", "'\\ud83d' '\\ude00'"],
  ["{complex(float('nan'), 1): 1}", "{complex(float('nan'), 1): 1}"],
  ["{complex(float('nan'), 1)}", "{complex(float('nan'), 1)}"],
  ["{(float('nan'), 1)}", "{(float('nan'), 1)}"],
  ["[float('nan')]", "[float('nan')]"],
  ['{1: 2, True: 3}', '{1.0: 3}'],
  ['{frozenset({1, 2}): 0}', '{frozenset({2.0, True}): 0}'],
  ['2**63', '9223372036854775808.0'],
  ['2**53 + 1', 'float(2**53 + 1)'],
  ['-0.0', '0'],
  ["b'a'", "bytearray(b'a')"],
  ["'e\\u0301'", "'\\u00e9'"],
  ['complex(1, 0)', '1'],
  ['complex(1, -0.0)', 'True'],
];
const PAIRS: [string, string][] = [
  ...ADVERSARIAL,
  ...Array.from({ length: 3000 }, (): [string, string] => {
    const a = gen(r);
    return [a, partner(r, a)];
  }),
];
const SOURCES = [...new Set(PAIRS.flat())];
const oracle = cpython([
  ...PAIRS.map(([a, b]): [string, string, string] => ['eq', a, b]),
  ...SOURCES.map((s): [string, string, string] => ['lit', s, '']),
  ...PAIRS.map(([a]): [string, string, string] => ['lit', a, '']),
  ...PAIRS.map(([, b]): [string, string, string] => ['lit', b, '']),
]);
const eq = oracle.slice(0, PAIRS.length) as (boolean | null)[];
const lit = new Map(SOURCES.map((s, i) => [s, oracle[PAIRS.length + i] as string | null]));
const treeOf = (s: string): Tree | undefined => {
  const h = lit.get(s);
  return typeof h === 'string' ? unmarshal(hexBytes(h)) : undefined;
};

describe('differential against CPython', () => {
  it('compare.ts: CPython == on the marshalled values, for every generated pair', () => {
    let n = 0;
    const wrong: string[] = [];
    PAIRS.forEach(([a, b], i) => {
      const ta = treeOf(a);
      const tb = treeOf(b);
      if (ta === undefined || tb === undefined || eq[i] === null) return;
      n++;
      if (pyEqual(ta, tb) !== eq[i]) wrong.push(`${a} == ${b}: CPython ${String(eq[i])}`);
    });
    expect(n).toBeGreaterThan(2000);
    expect(wrong).toEqual([]);
  });

  it('literal.ts reads what ast.literal_eval reads (or declines), never something else', () => {
    let read = 0;
    const wrong: string[] = [];
    for (const s of SOURCES) {
      const want = treeOf(s);
      const got = parseLiteral(s);
      if (got === undefined) continue;
      read++;
      if (want === undefined || !sameTree(canon(got), canon(want))) wrong.push(`${s}: JS ${JSON.stringify(got)}`);
    }
    expect(read).toBeGreaterThan(SOURCES.length / 4);
    expect(wrong).toEqual([]);
  });
});

describe('differential against CPython through the real sandbox', () => {
  const pool = usePool();
  it('the verdict of assert f() == b is CPython a == b', async () => {
    const picked = PAIRS.map((p, i) => [p, i] as const).filter(([, i]) => eq[i] !== null && i % 5 === 0);
    const wrong: string[] = [];
    for (let at = 0; at < picked.length; at += 150) {
      const chunk = picked.slice(at, at + 150);
      const code = `V = [\n${chunk.map(([[a]]) => `    ${a},`).join('\n')}\n]\ndef f(i):\n    return V[i]\n`;
      const tests = chunk.map(([[, b]], j) => `assert f(${j}) == ${b}`);
      const res = await pool().judge({ code, entryPoint: 'f', tests, trustedTests: true });
      res.verdicts.forEach((v, j) => {
        const [[a, b], i] = chunk[j];
        if (v.status === 'error' && v.errorType === 'UnsupportedResult') return; // bytearray/complex-free pairs only
        if ((v.status === 'passed') !== eq[i]) wrong.push(`${a} == ${b}: CPython ${String(eq[i])}, lab ${v.status}`);
      });
    }
    expect(picked.length).toBeGreaterThan(400);
    expect(wrong).toEqual([]);
  }, 300_000);
});
