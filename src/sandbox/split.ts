// Fast split of a one-line `assert <call> == <expected>` into its two source parts, so the worker can skip
// building a Python AST (the slowest step in wasm). Conservative: anything unusual returns null and the
// harness parses that test with `ast` instead. Screening never depends on this split (harness does it on text).

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Tokens at the top level of the assert that bind looser than or as loose as `==`: then use the real parser. */
const LOOSE_WORDS = new Set(['and', 'or', 'not', 'in', 'is', 'if', 'else', 'lambda', 'for', 'async', 'await', 'yield']);

interface Scan {
  /** The text with string literals and bracket contents blanked to spaces (same length). */
  masked: string;
}

/** Blanks strings and the insides of brackets; null when the line is not simple enough to trust. */
function mask(src: string): Scan | null {
  let out = '';
  let depth = 0;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === '"' || c === "'") {
      // Prefixes like r/b/f/u are letters just before the quote: f-strings and raw strings go the slow way.
      const prev = src[i - 1] ?? ' ';
      if (/[A-Za-z]/.test(prev)) return null;
      if (src.startsWith(c.repeat(3), i)) return null;
      let j = i + 1;
      while (j < src.length && src[j] !== c) {
        if (src[j] === '\\') j++;
        j++;
      }
      if (j >= src.length) return null;
      out += depth > 0 ? ' '.repeat(j - i + 1) : `${c}${' '.repeat(j - i - 1)}${c}`;
      i = j;
      continue;
    }
    if (c === '#' || c === '\\' || c === '\n' || c === '\r' || c === ';') return null;
    if (c === '(' || c === '[' || c === '{') {
      out += depth === 0 ? c : ' ';
      depth++;
      continue;
    }
    if (c === ')' || c === ']' || c === '}') {
      depth--;
      if (depth < 0) return null;
      out += depth === 0 ? c : ' ';
      continue;
    }
    out += depth > 0 ? ' ' : c;
  }
  return depth === 0 ? { masked: out } : null;
}

/** [call, expected] source texts, or null when the test should go through Python's parser. */
export function splitAssert(test: string): [string, string] | null {
  if (!/^[\x20-\x7e]*$/.test(test)) return null;
  const m = /^\s*assert\s+/.exec(test);
  if (!m) return null;
  const body = test.slice(m[0].length);
  const scan = mask(body);
  if (!scan) return null;
  const top = scan.masked;
  const eq = top.indexOf('==');
  if (eq < 0 || top.indexOf('==', eq + 2) >= 0) return null;
  if (/[<>!]=?|:=|,|:/.test(top.replace('==', '  '))) return null;
  if (/=/.test(top.replace('==', '  '))) return null;
  const words = top.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? [];
  if (words.some((w) => LOOSE_WORDS.has(w))) return null;
  const left = body.slice(0, eq).trim();
  const right = body.slice(eq + 2).trim();
  const leftMasked = top.slice(0, eq).trim();
  // The call side must be a primary ending in a call: name(.name)* followed by trailers, the last one `(...)`.
  const shape =
    /^([A-Za-z_][A-Za-z0-9_]*(?:\s*\.\s*[A-Za-z_][A-Za-z0-9_]*)*)\s*((?:\(\s*\)|\[\s*\]|\.\s*[A-Za-z_][A-Za-z0-9_]*)*)$/.exec(
      leftMasked.replace(/\(\s*\)/g, '()').replace(/\[\s*\]/g, '[]'),
    );
  if (!shape || !shape[2].replace(/\s+/g, '').endsWith('()')) {
    // `assert 3 == f(1)`: let the parser decide which side is the call.
    return null;
  }
  if (!IDENT.test(shape[1].split('.')[0].trim()) || !right) return null;
  return [left, right];
}
