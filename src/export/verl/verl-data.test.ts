// The verl export's parquet data: the release's exact schema (golden: fixtures/release-val-schema.json), and problems
// that read back unchanged with the same library (curriculum, imported HumanEval and MBPP files).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import releaseSchema from './fixtures/release-val-schema.json' with { type: 'json' };
import {
  parquetColumns,
  parquetSchema,
  problemToRow,
  RELEASE_COLUMNS,
  readRows,
  topLevelColumns,
  rowToProblem,
  writeRows,
  TRAIN_DATA_SOURCE,
} from './dataset';
import { curriculumProblems, splitImported } from './index';
import { presetConfig } from '../../rl/config';
import { importJsonl } from '../../tasks/importers';
import type { Problem } from '../../tasks/types';
import { freshSeed, mulberry32 } from '../../testing/random';

const carried = (p: Problem) => ({
  id: p.id,
  prompt: p.prompt,
  entryPoint: p.entryPoint,
  solution: p.solution,
  hiddenTests: p.hiddenTests,
  publicTests: p.publicTests,
  setupCode: p.setupCode?.trim() || undefined,
});

async function roundTrip(problems: Problem[], train: boolean) {
  const bytes = writeRows(
    problems.map((p) => problemToRow(p, train)),
    train,
  );
  const rows = await readRows(bytes);
  return {
    bytes,
    rows,
    back: rows.map((r) => ({ ...rowToProblem(r), setupCode: rowToProblem(r).setupCode || undefined })),
  };
}

const imported = (file: string) =>
  importJsonl(readFileSync(new URL(file, import.meta.url), 'utf8')).items.map((i) => i.problem);

describe('verl export data', () => {
  const tiny = curriculumProblems(presetConfig('tiny'));

  it("val.parquet has exactly the release's validation schema; train.parquet adds only clean_description", async () => {
    const { bytes: val } = await roundTrip(tiny.val.slice(0, 5), false);
    const { bytes: train } = await roundTrip(tiny.train.slice(0, 5), true);
    expect(parquetSchema(val)).toEqual(releaseSchema.schema);
    // The golden column list is the fixture's own (recorded from the release's file), not the exporter's constant.
    const fixtureCols = topLevelColumns(releaseSchema.schema);
    expect(fixtureCols).toEqual([...RELEASE_COLUMNS]);
    expect(parquetColumns(val)).toEqual(fixtureCols);
    expect(parquetColumns(train)).toEqual([...fixtureCols, 'clean_description']);
    const t = parquetSchema(train);
    expect(t[0]).toEqual({ ...releaseSchema.schema[0], num_children: 8 });
    expect(t.slice(1, -1)).toEqual(releaseSchema.schema.slice(1));
    expect(t[t.length - 1]).toEqual({
      ...releaseSchema.schema.find((e) => e.name === 'test'),
      name: 'clean_description',
    });
  });

  it('train.parquet holds the training instances RL uses (tasks.train_part), val.parquet every held-out one', () => {
    const all = curriculumProblems(presetConfig('tiny', { tasks: { train_part: 'all' } }));
    const sft = curriculumProblems(presetConfig('tiny', { tasks: { train_part: 'sft' } }));
    // The tiny preset trains RL on the half its warm-start never saw: none of those instances is in the SFT half.
    const sftIds = new Set(sft.train.map((p) => p.id));
    expect(tiny.train.length + sft.train.length).toBe(all.train.length);
    expect(tiny.train.filter((p) => sftIds.has(p.id))).toEqual([]);
    expect(tiny.val).toEqual(all.val);
    expect(tiny.origin).toContain('the rl part of its training instances');
    expect(all.origin).not.toContain('part');
  });

  it('the tiny curriculum reads back as the same problems and tests (train and val)', async () => {
    for (const [set, train] of [
      [tiny.train, true],
      [tiny.val, false],
    ] as const) {
      const { rows, back } = await roundTrip(set, train);
      expect(back).toEqual(set.map(carried));
      for (const r of rows) {
        // The release's reward manager takes its two-model path only for this data_source; validation must not.
        expect(r.data_source === TRAIN_DATA_SOURCE).toBe(train);
        expect(r.prompt.map((t) => t.role)).toEqual(['system', 'user']);
        expect(r.prompt[1].content.endsWith(r.problem)).toBe(true);
        if (train) expect(r.clean_description).toBe(r.problem);
      }
    }
    expect(new Set((await roundTrip(tiny.val, false)).rows.map((r) => r.data_source))).toEqual(
      new Set(['lab_heldout', 'lab_heldout_family', 'lab_renamed']),
    );
  });

  it('imported HumanEval and MBPP problems read back unchanged, setup code included', async () => {
    const problems = [
      ...imported('./fixtures/humaneval-sample.jsonl'),
      ...imported('../../sandbox/fixtures/mbpp-mini.jsonl'),
    ];
    expect(problems.length).toBeGreaterThan(4);
    const { rows, back } = await roundTrip(problems, false);
    expect(back).toEqual(problems.map(carried));
    const he = rows.find((r) => r.extra_info.question_id === 'Sample/0')!;
    expect(he.extra_info.function_name).toBe('running_sum');
    expect(he.extra_info.imports).toBe('from typing import List');
    expect(he.extra_info.function_declaration).toBe(
      'from typing import List\n\n\ndef running_sum(xs: List[int]) -> List[int]:',
    );
    expect(he.description.startsWith('Prefix sums of xs.')).toBe(true);
  });

  it('random problems (quotes, unicode, newlines in prompts) survive the parquet round trip', async () => {
    const seed = freshSeed();
    console.log('verl data seed', seed);
    const rng = mulberry32(seed);
    const word = () =>
      Array.from({ length: 1 + Math.floor(rng() * 12) }, () => 'aé"\'\\ x_ü中\t'[Math.floor(rng() * 12)]).join('');
    const problems: Problem[] = Array.from({ length: 20 }, (_, i) => ({
      id: `rand/${i}`,
      family: 'rand',
      prompt: `def f${i}(x):\n    """${word()}\n    ${word()}"""\n`,
      entryPoint: `f${i}`,
      solution: `def f${i}(x):\n    return ${JSON.stringify(word())}\n`,
      hiddenTests: Array.from(
        { length: Math.floor(rng() * 4) },
        () => `assert f${i}(${Math.floor(rng() * 99)}) == ${JSON.stringify(word())}`,
      ),
      publicTests: rng() < 0.5 ? [] : [`assert f${i}(0) == ${JSON.stringify(word())}`],
      split: 'heldout',
      source: 'generated',
      ...(rng() < 0.3 ? { setupCode: `import math\nK = ${JSON.stringify(word())}` } : {}),
    }));
    const { back } = await roundTrip(problems, true);
    expect(back).toEqual(problems.map(carried));
  });

  it('a test spanning several lines is refused with the problem named; splits are seeded and disjoint', () => {
    const p = { ...tiny.train[0], hiddenTests: ['assert f(\n1) == 2'] };
    expect(() => problemToRow(p, true)).toThrow(`problem ${p.id}: a test spans several lines`);
    const all = [...tiny.train.slice(0, 40)];
    const a = splitImported(all, 0.25, 7, 'x');
    expect(a.val.length).toBe(10);
    expect(new Set([...a.train, ...a.val].map((q) => q.id)).size).toBe(40);
    expect(splitImported(all, 0.25, 7, 'x').val.map((q) => q.id)).toEqual(a.val.map((q) => q.id));
    expect(splitImported(all, 0.25, 8, 'x').val.map((q) => q.id)).not.toEqual(a.val.map((q) => q.id));
    expect(() => splitImported(all, 1, 7, 'x')).toThrow('--val-fraction');
  });
});
