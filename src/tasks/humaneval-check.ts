// A HumanEval `check(candidate)` as hidden tests: each self-contained top-level assert becomes a test of its own
// (renamed to the entry point), and whatever else mentions the candidate (loops, asserts on names the check defines,
// multi-line statements) becomes one statement test that runs those statements in order, so every assert of
// `check` is judged and none is cut from the names it needs.

/** Python words that are never names a test could define. */
const KEYWORDS = new Set(
  (
    'False None True and as assert async await break class continue def del elif else except finally for from ' +
    'global if import in is lambda nonlocal not or pass raise return try while with yield'
  ).split(' '),
);

/** `s` with every string literal blanked (same length), so brackets, `#` and words inside strings are not seen. */
function blankStrings(s: string): string {
  let out = '';
  for (let i = 0; i < s.length;) {
    const q = /^([rbfuRBFU]{0,2})('''|"""|'|")/.exec(s.slice(i));
    const prev = i > 0 ? s[i - 1] : '';
    if (q && !/\w/.test(prev)) {
      const end = s.indexOf(q[2], i + q[0].length);
      let j = i + q[0].length;
      if (q[2].length === 1) {
        while (j < s.length && s[j] !== q[2] && s[j] !== '\n') j += s[j] === '\\' ? 2 : 1;
      } else j = end < 0 ? s.length : end;
      j = Math.min(s.length, j + q[2].length);
      out += q[0] + ' '.repeat(Math.max(0, j - i - q[0].length - q[2].length)) + q[2];
      i = j;
      continue;
    }
    if (s[i] === '#') {
      const nl = s.indexOf('\n', i);
      const j = nl < 0 ? s.length : nl;
      out += ' '.repeat(j - i);
      i = j;
      continue;
    }
    out += s[i++];
  }
  return out.slice(0, s.length);
}

const indentOf = (line: string): number => line.length - line.trimStart().length;

/** Bracket depth after `code` (strings and comments already blanked). */
function depth(code: string): number {
  let d = 0;
  for (const c of code) d += '([{'.includes(c) ? 1 : ')]}'.includes(c) ? -1 : 0;
  return d;
}

/** The logical statements of a block at one indentation: each with its continuation and nested lines. */
function statements(lines: string[]): string[] {
  const out: string[] = [];
  let cur: string[] = [];
  let open = 0;
  let base = -1;
  for (const line of lines) {
    if (!line.trim() || (!open && line.trim().startsWith('#'))) {
      if (cur.length && open) cur.push(line);
      continue;
    }
    const blank = blankStrings(line);
    if (base < 0) base = indentOf(line);
    const continues = open > 0 || (cur.length > 0 && (indentOf(line) > base || /\\\s*$/.test(cur[cur.length - 1])));
    if (!continues && cur.length) {
      out.push(cur.join('\n'));
      cur = [];
    }
    cur.push(line);
    open = Math.max(0, open + depth(blank));
  }
  if (cur.length) out.push(cur.join('\n'));
  return out;
}

/** Names a statement binds at its top: assignment targets, loop variables, imports, defs, `as` names. */
function boundNames(stmt: string): string[] {
  const code = blankStrings(stmt);
  const names: string[] = [];
  const words = (s: string) => s.match(/[A-Za-z_]\w*/g) ?? [];
  for (const m of code.matchAll(/^\s*((?:[A-Za-z_][\w.[\]\s,()*]*?=\s*)+)(?!=)/gm))
    names.push(...words(m[1].replace(/\[[^\]]*\]/g, '')));
  for (const m of code.matchAll(/\b(?:for|def|class)\s+([\w\s,()*]+?)(?:\bin\b|\(|:)/g)) names.push(...words(m[1]));
  for (const m of code.matchAll(/\bimport\s+([\w\s,.]+)/g))
    names.push(...m[1].split(',').map((x) => (x.trim().split(/\s+as\s+/)[1] ?? x.trim().split('.')[0]).trim()));
  for (const m of code.matchAll(/\bas\s+([A-Za-z_]\w*)/g)) names.push(m[1]);
  for (const m of code.matchAll(/([A-Za-z_]\w*)\s*:=/g)) names.push(m[1]);
  return names.filter((n) => n && !KEYWORDS.has(n));
}

/** Names a statement reads (attribute names and keyword-argument names aside). */
function usedNames(stmt: string): Set<string> {
  const code = blankStrings(stmt);
  const out = new Set<string>();
  for (const m of code.matchAll(/(?<![\w.])([A-Za-z_]\w*)(?!\s*=[^=])/g)) if (!KEYWORDS.has(m[1])) out.add(m[1]);
  return out;
}

/** `assert <test>, <message>` → `assert <test>` (the message is not part of what is judged). */
function dropMessage(stmt: string): string {
  const code = blankStrings(stmt);
  let d = 0;
  for (let i = 0; i < code.length; i++) {
    const c = code[i];
    if ('([{'.includes(c)) d++;
    else if (')]}'.includes(c)) d--;
    else if (c === ',' && d === 0) return stmt.slice(0, i).trimEnd();
  }
  return stmt.trimEnd();
}

/** Every `param` read in `stmt` (outside strings) → `entryPoint`. */
function rename(stmt: string, param: string, entryPoint: string): string {
  const code = blankStrings(stmt);
  let out = '';
  let last = 0;
  for (const m of code.matchAll(new RegExp(`(?<![\\w.])${param}\\b`, 'g'))) {
    out += stmt.slice(last, m.index) + entryPoint;
    last = (m.index ?? 0) + param.length;
  }
  return out + stmt.slice(last);
}

/** The lines of `def check(...)`'s body, and the test file's other top-level statements. */
function split(test: string): { body: string[]; param: string; module: string[] } {
  const lines = test.split('\n');
  const at = lines.findIndex((l) => /^def\s+check\s*\(/.test(l));
  if (at < 0) return { body: [], param: 'candidate', module: [] };
  const param = /^def\s+check\s*\(\s*([A-Za-z_]\w*)/.exec(lines[at])?.[1] ?? 'candidate';
  let end = at + 1;
  while (end < lines.length && (!lines[end].trim() || /^\s/.test(lines[end]))) end++;
  const module = statements([...lines.slice(0, at), ...lines.slice(end)]).filter((s) => !/^\s*METADATA\s*=/.test(s));
  return { body: lines.slice(at + 1, end), param, module };
}

/**
 * Hidden tests of a HumanEval record's `test` field: one per self-contained top-level `assert` that calls the
 * candidate (renamed to `entryPoint`, message dropped), plus at most one statement test
 * `for candidate in [entryPoint]:` holding the test file's other top-level code and every statement of `check` that
 * was not taken as its own test, in order, when any of them mentions the candidate.
 */
export function humanEvalTests(test: string, entryPoint: string): string[] {
  const { body, param, module } = split(test);
  const stmts = statements(body);
  const local = new Set<string>([...module, ...stmts].flatMap(boundNames));
  local.delete(param);
  const own: string[] = [];
  const rest: string[] = [];
  for (const s of stmts) {
    const flat = s.trim();
    const self =
      /^assert\b/.test(flat) &&
      !flat.includes('\n') &&
      usedNames(flat).has(param) &&
      ![...usedNames(flat)].some((n) => local.has(n));
    if (self) own.push(rename(dropMessage(flat), param, entryPoint));
    else rest.push(s);
  }
  const mentions = rest.some((s) => usedNames(s).has(param));
  if (!mentions) return own;
  const pad = (s: string, from: number) =>
    s
      .split('\n')
      .map((l) => (l.trim() ? `    ${l.slice(Math.min(from, indentOf(l)))}` : ''))
      .join('\n');
  const baseIndent = stmts.length ? indentOf(stmts[0]) : 4;
  const block = [...module.map((s) => pad(s, 0)), ...rest.map((s) => pad(s, baseIndent))];
  return [...own, `for ${param} in [${entryPoint}]:\n${block.join('\n')}`];
}
