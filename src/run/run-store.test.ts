// Crash recovery of a run directory (RunDir over the real NodeRunStore): a process killed at each point of a step's
// commit resumes from the last committed step, with metrics.jsonl trimmed to it.
import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { presetConfig } from '../rl/config';
import type { StepMetrics } from '../rl/metrics';
import type { PolicyFiles } from '../rl/policy';
import type { RolloutRecord } from '../rl/records';
import { RunDir, type RunStore } from './run-store';
import { NodeRunStore } from './run-store-node';
import type { TrainerState } from '../rl/trainer';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'run-store-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** State after `step` finished steps; the weights encode the step so a resumed checkpoint is recognisable. */
function stepFiles(step: number): {
  state: TrainerState;
  metrics: StepMetrics;
  coder: PolicyFiles;
  tester: PolicyFiles;
} {
  return {
    state: { step: step + 1, rngState: 1000 + step, badSteps: 0, book: { entries: [], history: [] } },
    metrics: { step, mode: 'code-a1', time: 1_700_000_000_000 + step } as StepMetrics,
    coder: { 'weights.bin': new Uint8Array([step, 1]), 'meta.json': new TextEncoder().encode(`{"step":${step}}`) },
    tester: { 'weights.bin': new Uint8Array([step, 2]) },
  };
}

async function commit(dir: RunDir, step: number): Promise<void> {
  const f = stepFiles(step);
  await dir.commitStep(f.state, f.metrics, f.coder, f.tester, false);
}

/** The real store, killed (by an exception) when the commit reaches `crashAt`. */
class CrashingStore implements RunStore {
  constructor(
    private readonly inner: RunStore,
    private readonly crashAt: 'append' | 'promote',
  ) {}
  read = (p: string) => this.inner.read(p);
  write = (p: string, d: Uint8Array) => this.inner.write(p, d);
  list = (p: string) => this.inner.list(p);
  remove = (p: string) => this.inner.remove(p);
  async append(p: string, d: Uint8Array): Promise<void> {
    if (this.crashAt === 'append') {
      // Killed mid-append: half of the line reaches the disk, without its newline.
      await this.inner.append(p, d.subarray(0, Math.floor(d.length / 2)));
      throw new Error('killed');
    }
    await this.inner.append(p, d);
  }
  async promote(from: string, to: string): Promise<void> {
    if (this.crashAt === 'promote') throw new Error('killed');
    await this.inner.promote(from, to);
  }
}

async function runWithTwoSteps(): Promise<RunDir> {
  const dir = new RunDir(new NodeRunStore(root));
  await dir.init(presetConfig('micro'));
  await commit(dir, 0);
  await commit(dir, 1);
  return dir;
}

/** What a fresh process sees when it reopens the directory. */
const reopen = () => new RunDir(new NodeRunStore(root)).loadCommitted();

describe('RunDir crash recovery', () => {
  it('a run with no committed step has nothing to resume', async () => {
    const dir = new RunDir(new NodeRunStore(root));
    expect(await reopen()).toBeUndefined();
    await dir.init(presetConfig('micro'));
    expect(await reopen()).toBeUndefined();
  });

  it('resumes a cleanly committed run at its last step', async () => {
    await runWithTwoSteps();
    const c = await reopen();
    expect(c?.state.step).toBe(2);
    expect(c?.state.rngState).toBe(1001);
    expect(c?.metrics.map((m) => m.step)).toEqual([0, 1]);
    expect(c?.coder['weights.bin']).toEqual(new Uint8Array([1, 1]));
    expect(c?.tester?.['weights.bin']).toEqual(new Uint8Array([1, 2]));
    expect(c?.config).toEqual(presetConfig('micro'));
  });

  it('killed after the metrics line but before promotion: drops the uncommitted line and the pending checkpoint', async () => {
    await runWithTwoSteps();
    const crashing = new RunDir(new CrashingStore(new NodeRunStore(root), 'promote'));
    await expect(commit(crashing, 2)).rejects.toThrow('killed');
    expect((await readFile(join(root, 'metrics.jsonl'), 'utf8')).trim().split('\n')).toHaveLength(3);

    const c = await reopen();
    expect(c?.state.step).toBe(2);
    expect(c?.coder['weights.bin']).toEqual(new Uint8Array([1, 1]));
    expect(c?.metrics.map((m) => m.step)).toEqual([0, 1]);
    // The trimmed metrics are written back, so the resumed run appends step 2 exactly once.
    const lines = (await readFile(join(root, 'metrics.jsonl'), 'utf8')).trim().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as StepMetrics).step)).toEqual([0, 1]);

    const resumed = new RunDir(new NodeRunStore(root));
    await commit(resumed, 2);
    const after = await reopen();
    expect(after?.state.step).toBe(3);
    expect(after?.metrics.map((m) => m.step)).toEqual([0, 1, 2]);
    expect(after?.coder['weights.bin']).toEqual(new Uint8Array([2, 1]));
  });

  it('killed mid-append: a torn last metrics line is dropped, not a parse error', async () => {
    await runWithTwoSteps();
    const crashing = new RunDir(new CrashingStore(new NodeRunStore(root), 'append'));
    await expect(commit(crashing, 2)).rejects.toThrow('killed');
    expect(await readFile(join(root, 'metrics.jsonl'), 'utf8')).not.toMatch(/\n$/);

    const c = await reopen();
    expect(c?.state.step).toBe(2);
    expect(c?.metrics.map((m) => m.step)).toEqual([0, 1]);
    await commit(new RunDir(new NodeRunStore(root)), 2);
    expect((await reopen())?.metrics.map((m) => m.step)).toEqual([0, 1, 2]);
  });

  it('killed inside promote (latest/ moved aside, pending/ not yet in place): resumes from latest.old/', async () => {
    await runWithTwoSteps();
    const crashing = new RunDir(new CrashingStore(new NodeRunStore(root), 'promote'));
    await expect(commit(crashing, 2)).rejects.toThrow('killed');
    // The first rename of NodeRunStore.promote happened, the second did not.
    await rename(join(root, 'latest'), join(root, 'latest.old'));

    const c = await reopen();
    expect(c?.state.step).toBe(2);
    expect(c?.coder['weights.bin']).toEqual(new Uint8Array([1, 1]));
    expect(c?.tester?.['weights.bin']).toEqual(new Uint8Array([1, 2]));
    expect(c?.metrics.map((m) => m.step)).toEqual([0, 1]);

    await commit(new RunDir(new NodeRunStore(root)), 2);
    const after = await reopen();
    expect(after?.state.step).toBe(3);
    expect(after?.coder['weights.bin']).toEqual(new Uint8Array([2, 1]));
  });

  it('ignores a half-written temp file left by a killed write', async () => {
    await runWithTwoSteps();
    await writeFile(join(root, 'latest/coder/weights.bin.tmp'), new Uint8Array([9]));
    const c = await reopen();
    expect(Object.keys(c?.coder ?? {}).sort()).toEqual(['meta.json', 'weights.bin']);
  });

  it('names the missing checkpoint when the state survived but the coder files did not', async () => {
    await runWithTwoSteps();
    await rm(join(root, 'latest/coder'), { recursive: true });
    await expect(reopen()).rejects.toThrow('run is missing latest/coder/ checkpoint files');
  });
});

describe('RunDir rollouts', () => {
  it('reads every saved step back in step order, and nothing from a run that saved none', async () => {
    const dir = new RunDir(new NodeRunStore(root));
    expect(await dir.readRollouts()).toEqual([]);
    const at = (step: number) => [{ step, problemId: `p/${step}` }] as unknown as RolloutRecord[];
    // Written out of order: the read puts them in step order.
    for (const step of [10, 2, 10_000, 0]) await dir.writeRollouts(step, at(step));
    expect((await dir.readRollouts()).map((r) => r[0].step)).toEqual([0, 2, 10, 10_000]);
  });
});
