// Reading a tuning directory: runs trained on train-rl-fit are judged on train-rl-val (with their fit row beside it),
// runs trained on the RL half on train-rl, and settings that trained on different parts or lack a record are errors;
// over tasks (the committed validation records) the numbers stay and the intervals widen.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadTuning, loadTunings } from './tuning-node';

const root = mkdtempSync(join(tmpdir(), 'tuning-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** An eval.json row of one training part with a given pass@1. */
const row = (part: string, coderPass1: number) => ({ split: 'train', part, problems: 1, samples: 8, coderPass1 });

function tuningDir(name: string, settings: [string, string, number][], startParts: string[]): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'start-eval.json'), JSON.stringify({ rows: startParts.map((p) => row(p, 0.1)) }));
  for (const [setting, part, pass] of settings) {
    const d = join(dir, setting);
    mkdirSync(d);
    const config = { tasks: { families: [], train_part: part }, rollout: { problems_per_step: 8 }, optim: {} };
    writeFileSync(join(d, 'config.json'), JSON.stringify(config));
    writeFileSync(join(d, 'metrics.jsonl'), '');
    const rows = [row('rl-fit', pass + 0.3), row('rl-val', pass), row('rl', pass + 0.1)];
    writeFileSync(join(d, 'end-eval.json'), JSON.stringify({ rows }));
  }
  return dir;
}

describe('loadTuning', () => {
  it('judges runs trained on train-rl-fit on train-rl-val, and keeps the fit row and its start', () => {
    const t = loadTuning(tuningDir('val', [['a', 'rl-fit', 0.4]], ['rl-val', 'rl-fit']));
    expect(t.judged).toBe('train-rl-val');
    expect([t.runs[0].end.coderPass1, t.runs[0].fit?.coderPass1]).toEqual([0.4, 0.7]);
    expect(t.fitted?.label).toBe('train-rl-fit');
    expect(t.fitted?.start.part).toBe('rl-fit');
  });

  it('judges runs trained on train-rl-val on train-rl-fit (the other fold), and joins the folds', () => {
    const fold = loadTuning(tuningDir('fold-b', [['a', 'rl-val', 0.4]], ['rl-val', 'rl-fit']));
    expect(fold.judged).toBe('train-rl-fit');
    expect([fold.runs[0].end.coderPass1, fold.runs[0].fit?.coderPass1]).toEqual([0.7, 0.4]);
    // Records without per-problem counts cannot be joined: the error says so rather than inventing them.
    expect(() => loadTunings([join(root, 'val'), join(root, 'fold-b')])).toThrow(/no per-problem records/);
  });

  it('judges runs trained on the RL half on it, without a fit column', () => {
    const t = loadTuning(tuningDir('rl', [['a', 'rl', 0.4]], ['rl']));
    expect(t.judged).toBe('train-rl');
    expect(t.runs[0].end.coderPass1).toBeCloseTo(0.5, 10);
    expect(t.runs[0].fit).toBeUndefined();
    expect(t.fitted).toBeUndefined();
  });

  it('rejects mixed parts, a start without the judged part, and a missing directory', () => {
    const mixed = tuningDir(
      'mixed',
      [
        ['a', 'rl', 0.4],
        ['b', 'rl-fit', 0.4],
      ],
      ['rl'],
    );
    expect(() => loadTuning(mixed)).toThrow(/trained on different parts \(rl, rl-fit\)/);
    const noVal = tuningDir('noval', [['a', 'rl-fit', 0.4]], ['rl']);
    expect(() => loadTuning(noVal)).toThrow(
      /no train-rl-val evaluation in it \(npm run eval -- --splits train-rl-val\)/,
    );
    expect(() => loadTuning(join(root, 'nope'))).toThrow(/no such directory/);
  });
});

describe('loadTunings over tasks', () => {
  const data = join(__dirname, '..', '..', 'docs', 'results-data');
  const dirs = ['tuning-val', 'tuning-fold-b'].map((d) => join(data, d));

  it('keeps every pass@1 and names each record’s task; the start’s interval widens as tasks repeat', () => {
    const [byProblem, byTask] = [loadTunings(dirs), loadTunings(dirs, 'tasks')];
    expect(byTask.start.coderPass1).toBeCloseTo(byProblem.start.coderPass1, 12);
    expect(byTask.runs.map((r) => r.end.coderPass1)).toEqual(byProblem.runs.map((r) => r.end.coderPass1));
    expect(byTask.start.perProblem!.every((p) => typeof p.task === 'string')).toBe(true);
    expect(byProblem.start.perProblem!.some((p) => p.task !== undefined)).toBe(false);
    const width = (ci: [number, number]) => ci[1] - ci[0];
    expect(width(byTask.start.ci!.coderPass1)).toBeGreaterThan(width(byProblem.start.ci!.coderPass1));
  });
});
