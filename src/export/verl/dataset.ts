// Lab problems ↔ rows of the release's parquet data (the columns its verl loader, trainer_a1.py and reward.py read),
// written and read with hyparquet-writer / hyparquet, so the same code runs in Node and in the browser.
import { parquetWriteBuffer } from 'hyparquet-writer';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import type { Problem } from '../../tasks/types';
import { coderMessages } from '../../rl/prompts-chat';

/** The problems of an export: train.parquet's, val.parquet's, and where they came from. */
export interface ProblemSets {
  train: Problem[];
  val: Problem[];
  /** Where they came from, for the README (e.g. "the tiny preset's curriculum", "tasks.jsonl"). */
  origin: string;
}

/** One row as the release's loader sees it. */
export interface VerlRow {
  /** The Coder's chat: system + user turns (verl's `data.prompt_key`, default "prompt"). */
  prompt: { content: string; role: string }[];
  description: string;
  /** The ground-truth program; reward.py runs each Tester call on it. */
  GT_code: string;
  problem: string;
  /** Python defining `check(<entry point>)`; reward.py's validation runs it on each candidate. */
  test: string;
  data_source: string;
  extra_info: { function_declaration: string; function_name: string; imports: string; question_id: string };
  /** train.parquet only: the Tester prompt's "Question" (trainer_a1.py `_prepare_model_b_batch_phase2`). */
  clean_description?: string;
}

/**
 * reward.py sends a batch down the two-model (Coder + Tester) reward path only when its first row's data_source is
 * "kodcode_light" (the release's training data); any other value takes the validation path (pass/fail on `test`).
 */
export const TRAIN_DATA_SOURCE = 'kodcode_light';

const PUBLIC_MARK = '    # public tests (docstring examples)';
const HIDDEN_MARK = '    # hidden tests';

const str = (name: string) => ({
  name,
  type: 'BYTE_ARRAY' as const,
  repetition_type: 'OPTIONAL' as const,
  converted_type: 'UTF8' as const,
  logical_type: { type: 'STRING' as const },
});

/** The release's validation parquet schema (fixtures/release-val-schema.json), plus clean_description for training. */
function schema(train: boolean) {
  return [
    { name: 'schema', repetition_type: 'REQUIRED' as const, num_children: train ? 8 : 7 },
    {
      name: 'prompt',
      repetition_type: 'OPTIONAL' as const,
      num_children: 1,
      converted_type: 'LIST' as const,
      logical_type: { type: 'LIST' as const },
    },
    { name: 'list', repetition_type: 'REPEATED' as const, num_children: 1 },
    { name: 'element', repetition_type: 'OPTIONAL' as const, num_children: 2 },
    str('content'),
    str('role'),
    str('description'),
    str('GT_code'),
    str('problem'),
    str('test'),
    str('data_source'),
    { name: 'extra_info', repetition_type: 'OPTIONAL' as const, num_children: 4 },
    str('function_declaration'),
    str('function_name'),
    str('imports'),
    str('question_id'),
    ...(train ? [str('clean_description')] : []),
  ];
}

function docstring(prompt: string): string {
  const m = /("""|''')([\s\S]*?)\1/.exec(prompt);
  return (m ? m[2] : prompt).trim();
}

/** Import lines and the signature (up to its closing colon) of the entry point, as the release's extra_info holds them. */
function declaration(p: Problem): { declaration: string; imports: string } {
  const lines = p.prompt.split('\n');
  const def = lines.findIndex((l) => new RegExp(`^\\s*def\\s+${p.entryPoint}\\s*\\(`).test(l));
  let end = def;
  while (end >= 0 && end < lines.length - 1 && !/:\s*$/.test(lines[end])) end++;
  const imports = lines.slice(0, Math.max(def, 0)).filter((l) => /^\s*(import|from)\s/.test(l));
  return {
    declaration:
      def < 0
        ? ''
        : lines
            .slice(0, end + 1)
            .join('\n')
            .trim(),
    imports: imports.join('\n'),
  };
}

/**
 * One test per line; a compound statement (every line after its first indented, e.g. the `for candidate in [f]:`
 * block a HumanEval check's loops become) is written indented under check and read back whole.
 */
function oneLine(tests: readonly string[], p: Problem): string[] {
  for (const t of tests)
    if (
      t
        .trim()
        .split('\n')
        .slice(1)
        .some((l) => l.trim() && !/^\s/.test(l))
    )
      throw new Error(`problem ${p.id}: a test spans several lines; the export writes one assert per line:\n${t}`);
  return tests.map((t) =>
    t
      .trim()
      .split('\n')
      .map((l) => (l.trim() ? `    ${l}` : ''))
      .join('\n'),
  );
}

/** The check function the release's validation runs: `check(<entry point>)` with the problem's own tests. */
export function checkSource(p: Problem): string {
  const body = [PUBLIC_MARK, ...oneLine(p.publicTests, p), HIDDEN_MARK, ...oneLine(p.hiddenTests, p), '    pass'];
  return `${p.setupCode ? `${p.setupCode.trimEnd()}\n\n` : ''}def check(${p.entryPoint}):\n${body.join('\n')}\n`;
}

export function problemToRow(p: Problem, train: boolean): VerlRow {
  const d = declaration(p);
  const row: VerlRow = {
    // The release's Coder turns (its validation parquet's system and user messages), so its code extraction fits.
    prompt: coderMessages(p.prompt).map((m) => ({ content: m.content, role: m.role })),
    description: docstring(p.prompt),
    GT_code: p.solution,
    problem: p.prompt,
    test: checkSource(p),
    data_source: train ? TRAIN_DATA_SOURCE : p.source === 'generated' ? `lab_${p.split.replace('-', '_')}` : p.source,
    extra_info: {
      function_declaration: d.declaration,
      function_name: p.entryPoint,
      imports: d.imports,
      question_id: p.id,
    },
  };
  if (train) row.clean_description = p.prompt;
  return row;
}

/** The release's validation parquet columns, in order (fixtures/release-val-schema.json). */
export const RELEASE_COLUMNS = [
  'prompt',
  'description',
  'GT_code',
  'problem',
  'test',
  'data_source',
  'extra_info',
] as const;

/** One parquet file of rows (train: with clean_description); snappy-compressed like pyarrow's default. */
export function writeRows(rows: readonly VerlRow[], train: boolean): Uint8Array {
  const cols: (keyof VerlRow)[] = [...RELEASE_COLUMNS, ...(train ? (['clean_description'] as const) : [])];
  const buf = parquetWriteBuffer({
    schema: schema(train),
    columnData: cols.map((name) => ({ name, data: rows.map((r) => r[name] ?? null) })),
    createdBy: 'Code-A1 Lab (hyparquet-writer)',
  });
  return new Uint8Array(buf);
}

export async function readRows(bytes: Uint8Array): Promise<VerlRow[]> {
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  return (await parquetReadObjects({ file })) as unknown as VerlRow[];
}

function metadata(bytes: Uint8Array) {
  return parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
}

/** A parquet file's schema elements in the fixture's form (what pyarrow and verl's loader see of it). */
export function parquetSchema(bytes: Uint8Array) {
  return metadata(bytes).schema.map((e) => ({
    name: e.name,
    ...(e.type ? { type: e.type } : {}),
    repetition_type: e.repetition_type,
    ...(e.num_children ? { num_children: e.num_children } : {}),
    ...(e.converted_type ? { converted_type: e.converted_type } : {}),
    ...(e.logical_type ? { logical_type: e.logical_type.type } : {}),
  }));
}

/** Top-level column names of a schema element list (depth-first, children counted by num_children). */
export function topLevelColumns(schema: readonly { name: string; num_children?: number }[]): string[] {
  const out: string[] = [];
  // Index after the subtree rooted at n.
  const skip = (n: number): number => {
    let next = n + 1;
    for (let c = 0; c < (schema[n].num_children ?? 0); c++) next = skip(next);
    return next;
  };
  for (let i = 1; i < schema.length; i = skip(i)) out.push(schema[i].name);
  return out;
}

/** Column names of a parquet file, top level (for the golden schema check and the CLI's summary). */
export function parquetColumns(bytes: Uint8Array): string[] {
  return topLevelColumns(metadata(bytes).schema);
}

/** A row back to the lab problem it was written from (the fields the release's schema carries). */
export function rowToProblem(
  r: VerlRow,
): Pick<Problem, 'id' | 'prompt' | 'entryPoint' | 'solution' | 'hiddenTests' | 'publicTests' | 'setupCode'> {
  const def = r.test.indexOf('def check(');
  if (def < 0) throw new Error(`row ${r.extra_info.question_id}: its test defines no check()`);
  const setup = r.test.slice(0, def).trim();
  const publicTests: string[] = [];
  const hiddenTests: string[] = [];
  let into: string[] | undefined;
  for (const line of r.test.slice(def).split('\n').slice(1)) {
    if (line === PUBLIC_MARK) into = publicTests;
    else if (line === HIDDEN_MARK) into = hiddenTests;
    else if (/^ {5}|^ {4}\t/.test(line) && into?.length) into[into.length - 1] += `\n${line.slice(4)}`;
    else if (line.startsWith('    ') && line.trim() !== 'pass') into?.push(line.slice(4));
  }
  return {
    id: r.extra_info.question_id,
    prompt: r.problem,
    entryPoint: r.extra_info.function_name,
    solution: r.GT_code,
    hiddenTests,
    publicTests,
    ...(setup ? { setupCode: setup } : {}),
  };
}
