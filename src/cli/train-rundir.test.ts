// `npm run train` treats a run directory as a record: it refuses to write into one that holds a run (naming --resume
// and --force), checks every flag before writing anything, and leaves nothing behind when it fails before its first
// step; --force moves the old run aside first. Each case runs the real CLI in a child process.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { presetConfig } from '../rl/config';
import type { StepMetrics } from '../rl/metrics';
import { RunDir } from '../run/run-store';
import { NodeRunStore } from '../run/run-store-node';
import { EXIT_USAGE } from './args';
import { runScript } from '../testing/cli';

const TRAIN = ['--import', './scripts/raw-loader.mjs', 'src/cli/train.ts'];
const root = mkdtempSync(join(tmpdir(), 'train-rundir-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A run directory with one committed step (what a finished `--steps 1` run leaves), made without training. */
async function committedRun(dir: string): Promise<void> {
  const run = new RunDir(new NodeRunStore(dir));
  await run.init(presetConfig('micro'));
  const metrics = { step: 0, mode: 'code-a1', time: 1 } as StepMetrics;
  const state = {
    step: 1,
    rngState: 7,
    badSteps: 0,
    book: { entries: [], history: [{ step: 0, size: 0, added: 0, removed: 0 }] },
  };
  await run.commitStep(state, metrics, { 'model.safetensors': new Uint8Array([1, 2, 3]) }, undefined, true);
}

/** Every file under dir with its bytes, to show that nothing changed. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(dir, p)] = readFileSync(p).toString('base64');
    }
  };
  walk(dir);
  return out;
}

const oneLine = (stderr: string) => stderr.trim().split('\n');

describe('train: run directories are records', { timeout: 300_000 }, () => {
  it('refuses to write into a directory that holds a run, naming --resume and --force, and changes nothing', async () => {
    const dir = join(root, 'existing');
    await committedRun(dir);
    const before = snapshot(dir);
    const r = await runScript(TRAIN, ['--preset', 'micro', '--steps', '1', '--out', dir]);
    expect(r.code).toBe(EXIT_USAGE);
    const lines = oneLine(r.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('already holds a run of 1 committed step');
    expect(lines[0]).toContain(`--resume ${dir}`);
    expect(lines[0]).toContain('--force');
    expect(snapshot(dir)).toEqual(before);
  });

  it('a bad flag value writes nothing: one line, exit 2, no directory', async () => {
    const cases: [string[], RegExp][] = [
      [['--steps', '-1'], /--steps must be an integer of at least 1, got '-1'/],
      [['--steps', 'abc'], /--steps must be an integer of at least 1, got 'abc'/],
      [['--steps', '0'], /--steps must be/],
      [['--steps', '1e3'], /--steps must be/],
      [['--eval-every', '-5'], /--eval-every must be/],
      [['--eval-samples', '0'], /--eval-samples must be/],
      [['--seed', 'x'], /--seed must be an integer/],
      [['--preset', 'paer'], /unknown preset 'paer' \(did you mean 'paper'\?\)/],
      [['--mode', 'goldn'], /mode must be one of .*got 'goldn' \(did you mean 'golden'\?\)/],
      [['--set', 'optim.lrr=1'], /unknown config field 'optim.lrr' \(did you mean 'optim.lr'\?\)/],
      [['--set', 'rollout.num_generations=0'], /rollout.num_generations must be an integer in \[1, 64\], got 0/],
      [['--eval-splits', 'heldot'], /unknown split 'heldot'/],
      [['--resume', join(root, 'nothing-here')], /--resume .*nothing-here: no such directory/],
    ];
    for (const [flags, msg] of cases) {
      const out = join(root, `bad-${flags.join('_').replace(/[^\w-]/g, '')}`);
      const preset = flags[0] === '--preset' ? [] : ['--preset', 'micro'];
      const args = flags[0] === '--resume' ? [...preset, ...flags] : [...preset, '--out', out, ...flags];
      const r = await runScript(TRAIN, args);
      expect(r.code, flags.join(' ')).toBe(EXIT_USAGE);
      expect(oneLine(r.stderr), flags.join(' ')).toHaveLength(1);
      expect(r.stderr, flags.join(' ')).toMatch(msg);
      expect(existsSync(out), `${flags.join(' ')} left ${out}`).toBe(false);
    }
  });

  it('a run that fails before its first step leaves nothing; --force moved the old run aside first', async () => {
    const dir = join(root, 'replaced');
    await committedRun(dir);
    const before = snapshot(dir);
    const r = await runScript(TRAIN, [
      '--preset',
      'micro',
      '--steps',
      '1',
      '--out',
      dir,
      '--force',
      '--set',
      'model.coderCheckpoint=/nonexistent/coder',
    ]);
    expect(r.code).toBe(1);
    expect(oneLine(r.stderr)).toHaveLength(1);
    expect(r.stderr).toContain("checkpoint '/nonexistent/coder' not found");
    // The new run failed before step 0: its directory is gone; the old run is intact beside it.
    expect(existsSync(dir)).toBe(false);
    const aside = readdirSync(root).filter((n) => n.startsWith('replaced.replaced-'));
    expect(aside).toHaveLength(1);
    expect(snapshot(join(root, aside[0]))).toEqual(before);
    expect(r.stdout).toContain(`moved the run that was in ${dir} (a run of 1 committed step) to`);
    // It failed after the new run was written (the run line is printed after init), not before.
    expect(r.stdout).toContain(`run ${dir}: preset micro`);
  });
});
