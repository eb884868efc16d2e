// A run's records are checked wherever they are read: every way of repeating, dropping or reordering one line of
// metrics.jsonl, eval.jsonl or the Mistake Book history (enumerated below) is an error that names the file and the
// line, in every reader (the run directory, the standalone parsers the CLIs use; the page's readers in
// src/app/persist/bundle-records.test.ts), while the intact records read back unchanged.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { presetConfig } from '../rl/config';
import { MistakeBook } from '../rl/mistake-book';
import { parseMetricsJsonl } from '../rl/metrics';
import type { TrainerState } from '../rl/trainer-types';
import { corruptions, evalPoint, history, jsonl, metric } from '../testing/corruptions';
import { RunDir } from './run-store';
import { NodeRunStore } from './run-store-node';
import { parseEvalPoints, RUN_FILES } from './run-layout';

const STEPS = 5;

const metrics = Array.from({ length: STEPS }, (_, i) => metric(i));
// Evaluations every other step: a dropped one is not detectable (steps only need to increase), so only repeats and swaps.
const evals = [0, 2, 4].map(evalPoint);
const evalCorruptions = corruptions(evals).filter((c) => !c.what.includes('dropped'));

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'run-records-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A run directory committed through `steps` steps, the Mistake Book keeping one history point per step. */
async function runDir(): Promise<RunDir> {
  const dir = new RunDir(new NodeRunStore(root));
  await dir.init(presetConfig('micro'));
  for (let s = 0; s < STEPS; s++) {
    const state: TrainerState = {
      step: s + 1,
      rngState: s,
      badSteps: 0,
      book: { entries: [], history: Array.from({ length: s + 1 }, (_, i) => history(i)) },
    };
    await dir.commitStep(state, metric(s), { w: new Uint8Array([s]) }, undefined, false);
  }
  return dir;
}

describe('metrics.jsonl', () => {
  it('the intact file reads back in every reader', async () => {
    expect(parseMetricsJsonl(jsonl(metrics)).map((m) => m.step)).toEqual([0, 1, 2, 3, 4]);
    expect((await (await runDir()).loadCommitted())!.metrics.map((m) => m.step)).toEqual([0, 1, 2, 3, 4]);
  });

  it.each(corruptions(metrics))('$what: an error naming the file and line', async ({ xs }) => {
    expect(() => parseMetricsJsonl(jsonl(xs), 'runs/x/metrics.jsonl')).toThrow(
      /^runs\/x\/metrics\.jsonl line \d+: step \d+/,
    );
    const dir = await runDir();
    await writeFile(join(root, RUN_FILES.metrics), jsonl(xs));
    await expect(dir.loadCommitted()).rejects.toThrow(/metrics\.jsonl(:| line \d+:) /);
    await expect(dir.readMetrics()).rejects.toThrow(/metrics\.jsonl line \d+: step/);
  });

  it('lines lost from the end (fewer than the committed steps) are an error, not a shorter curve', async () => {
    const dir = await runDir();
    await writeFile(join(root, RUN_FILES.metrics), jsonl(metrics.slice(0, 3)));
    await expect(dir.loadCommitted()).rejects.toThrow(
      'metrics.jsonl: 3 steps for the 5 committed in latest/state.json (steps 3-4 are missing)',
    );
  });

  it('a line cut short by a crash is still dropped (crash recovery keeps working)', async () => {
    const dir = await runDir();
    await writeFile(join(root, RUN_FILES.metrics), jsonl(metrics) + '{"step":5,"mo');
    expect((await dir.loadCommitted())!.metrics).toHaveLength(STEPS);
  });
});

describe('eval.jsonl', () => {
  it('the intact file reads back', async () => {
    expect(parseEvalPoints(jsonl(evals)).map((p) => p.step)).toEqual([0, 2, 4]);
    const dir = await runDir();
    await writeFile(join(root, RUN_FILES.evals), jsonl(evals));
    expect((await dir.readEvals()).map((p) => p.step)).toEqual([0, 2, 4]);
  });

  it.each(evalCorruptions)('$what: an error naming the file and line', async ({ xs }) => {
    expect(() => parseEvalPoints(jsonl(xs), 'runs/x/eval.jsonl')).toThrow(/^runs\/x\/eval\.jsonl line \d+: step \d+/);
    const dir = await runDir();
    await writeFile(join(root, RUN_FILES.evals), jsonl(xs));
    await expect(dir.readEvals()).rejects.toThrow(/^eval\.jsonl line \d+: step/);
  });
});

describe('Mistake Book history', () => {
  const points = metrics.map((m) => history(m.step));
  it.each(corruptions(points))('$what: an error naming the file and entry', async ({ xs }) => {
    expect(() => MistakeBook.fromState({ entries: [], history: xs })).toThrow(/Mistake Book history\[\d+\]: step/);
    await runDir();
    const path = join(root, RUN_FILES.latest + RUN_FILES.state);
    const state = JSON.parse(await readFile(path, 'utf8')) as TrainerState;
    await writeFile(path, JSON.stringify({ ...state, book: { entries: [], history: xs } }));
    await expect(new RunDir(new NodeRunStore(root)).loadCommitted()).rejects.toThrow(
      /^latest\/state\.json: Mistake Book history\[\d+\]: step/,
    );
  });
});

describe('a new run starts only in an empty store', () => {
  it('init refuses a store holding a run or any other file, saying what is there', async () => {
    await runDir();
    await expect(new RunDir(new NodeRunStore(root)).init(presetConfig('micro'))).rejects.toThrow(
      'already holds a run of 5 committed steps',
    );
    const other = join(root, 'other');
    await new NodeRunStore(other).write('notes.txt', new TextEncoder().encode('mine'));
    await expect(new RunDir(new NodeRunStore(other)).init(presetConfig('micro'))).rejects.toThrow(
      'already holds 1 file that is not a run (notes.txt)',
    );
  });

  it('a run is marked INCOMPLETE from init until its first committed step', async () => {
    const dir = new RunDir(new NodeRunStore(root));
    await dir.init(presetConfig('micro'));
    expect(await dir.incomplete()).toBe(true);
    expect(await new RunDir(new NodeRunStore(root)).describe()).toEqual({
      what: 'a run with no committed step',
      steps: 0,
    });
    await dir.commitStep(
      { step: 1, rngState: 0, badSteps: 0, book: { entries: [], history: [history(0)] } },
      metric(0),
      { w: new Uint8Array([1]) },
      undefined,
      false,
    );
    expect(await dir.incomplete()).toBe(false);
  });
});
