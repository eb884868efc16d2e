// JSONL importers: HumanEval (`task_id, prompt, entry_point, canonical_solution, test`) and MBPP (`text, code,
// task_id, test_list, test_setup_code, challenge_test_list`) records → Problem, plus how to verify each in the sandbox.
import { humanEvalTests } from './humaneval-check';
import type { Problem } from './types';

export { humanEvalTests };

export type ImportFormat = 'humaneval' | 'mbpp';

export interface ImportLineError {
  /** 1-based line number in the file. */
  line: number;
  message: string;
}

/** The reference solution and tests exactly as the dataset runs them (HumanEval: its `check(candidate)`). */
export interface VerifySpec {
  code: string;
  entryPoint: string;
  tests: string[];
  setupCode?: string;
}

export interface ImportedItem {
  line: number;
  format: ImportFormat;
  problem: Problem;
  verify: VerifySpec;
}

export interface ImportResult {
  items: ImportedItem[];
  errors: ImportLineError[];
}

type Rec = Record<string, unknown>;

function str(rec: Rec, key: string, optional = false): string {
  const v = rec[key];
  if (v === undefined || v === null) {
    if (optional) return '';
    throw new Error(`missing field "${key}"`);
  }
  if (typeof v === 'number' && key === 'task_id') return String(v);
  if (typeof v !== 'string') throw new Error(`field "${key}" must be a string`);
  return v;
}

function strList(rec: Rec, key: string, optional = false): string[] {
  const v = rec[key];
  if (v === undefined || v === null) {
    if (optional) return [];
    throw new Error(`missing field "${key}"`);
  }
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string'))
    throw new Error(`field "${key}" must be a list of strings`);
  return v as string[];
}

/** `>>> call` followed by its output line in a docstring → `assert call == output`. */
export function docstringExamples(prompt: string, entryPoint: string): string[] {
  const lines = prompt.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length - 1; i++) {
    const m = /^\s*>>>\s*(.+)$/.exec(lines[i]);
    const result = lines[i + 1].trim();
    if (!m || !result || result.startsWith('>>>') || result.startsWith('"""')) continue;
    if (!m[1].startsWith(`${entryPoint}(`)) continue;
    out.push(`assert ${m[1].trim()} == ${result}`);
  }
  return out;
}

export function humanEvalToItem(rec: Rec, line: number): ImportedItem {
  const id = str(rec, 'task_id');
  const prompt = str(rec, 'prompt');
  const entryPoint = str(rec, 'entry_point');
  const canonical = str(rec, 'canonical_solution');
  const test = str(rec, 'test');
  if (!/def\s+check\s*\(/.test(test)) throw new Error('field "test" must define check(candidate)');
  const solution = prompt + canonical;
  const hidden = humanEvalTests(test, entryPoint);
  const examples = docstringExamples(prompt, entryPoint);
  const problem: Problem = {
    id,
    family: 'humaneval',
    prompt,
    entryPoint,
    solution,
    hiddenTests: hidden,
    publicTests: examples.length ? examples : hidden.filter((t) => !t.includes('\n')).slice(0, 2),
    split: 'heldout',
    source: 'humaneval',
  };
  return {
    line,
    format: 'humaneval',
    problem,
    verify: { code: solution, entryPoint, tests: [`${test}\ncheck(${entryPoint})`] },
  };
}

export function mbppToItem(rec: Rec, line: number): ImportedItem {
  const id = `MBPP/${str(rec, 'task_id')}`;
  const text = str(rec, 'text');
  const code = str(rec, 'code');
  const tests = strList(rec, 'test_list');
  const challenge = strList(rec, 'challenge_test_list', true);
  const setupCode = str(rec, 'test_setup_code', true);
  if (!tests.length) throw new Error('field "test_list" is empty');
  const called =
    /^\s*assert\s+\(?\s*(?:not\s+)?\(?\s*(?:set|sorted|abs|round|math\.isclose)?\(?\s*([A-Za-z_]\w*)\s*\(/.exec(
      tests[0],
    );
  const defs = [...code.matchAll(/^def\s+([A-Za-z_]\w*)\s*\(/gm)].map((m) => m[1]);
  const entryPoint = called && defs.includes(called[1]) ? called[1] : defs[defs.length - 1];
  if (!entryPoint) throw new Error('no function definition found in "code"');
  const sig =
    new RegExp(`^def\\s+${entryPoint}\\s*\\([^\\n]*:\\s*$`, 'm').exec(code)?.[0] ?? `def ${entryPoint}(*args):`;
  const prompt = `${sig}\n    """${text.replace(/"""/g, "'''")}\n    ${tests[0]
    .replace(/^assert\s+/, '>>> ')
    .split('==')[0]
    .trim()}\n    """\n`;
  const problem: Problem = {
    id,
    family: 'mbpp',
    prompt,
    entryPoint,
    solution: code,
    hiddenTests: [...tests, ...challenge],
    publicTests: tests.slice(0, 1),
    split: 'heldout',
    source: 'mbpp',
    ...(setupCode ? { setupCode } : {}),
  };
  return {
    line,
    format: 'mbpp',
    problem,
    verify: { code, entryPoint, tests: [...tests, ...challenge], ...(setupCode ? { setupCode } : {}) },
  };
}

/** Parses a whole JSONL file; every malformed line becomes an error naming it, the rest still imports. */
export function importJsonl(text: string, format?: ImportFormat): ImportResult {
  const items: ImportedItem[] = [];
  const errors: ImportLineError[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = i + 1;
    if (!raw.trim()) return;
    let rec: unknown;
    try {
      rec = JSON.parse(raw);
    } catch (e) {
      errors.push({ line, message: `line ${line}: invalid JSON (${e instanceof Error ? e.message : String(e)})` });
      return;
    }
    if (!rec || typeof rec !== 'object' || Array.isArray(rec)) {
      errors.push({ line, message: `line ${line}: expected a JSON object` });
      return;
    }
    const r = rec as Rec;
    const f =
      format ?? ('canonical_solution' in r || 'entry_point' in r ? 'humaneval' : 'test_list' in r ? 'mbpp' : undefined);
    try {
      if (!f) throw new Error('neither a HumanEval nor an MBPP record');
      items.push(f === 'humaneval' ? humanEvalToItem(r, line) : mbppToItem(r, line));
    } catch (e) {
      errors.push({ line, message: `line ${line}: ${e instanceof Error ? e.message : String(e)}` });
    }
  });
  return { items, errors };
}
