// scripts/lib-runs.sh's helpers read where a run directory stands: its last committed step, and the step of its
// end-of-run eval.json, which a run continued with --resume has left behind at the earlier last step.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const lib = join(dirname(fileURLToPath(import.meta.url)), 'lib-runs.sh');
const root = mkdtempSync(join(tmpdir(), 'lib-runs-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Sources lib-runs.sh and runs one helper on DIR; its printed value. */
const helper = (fn: string, dir: string): string =>
  execFileSync('bash', ['-c', `source "$0"; ${fn} "$1"`, lib, dir], { encoding: 'utf8' }).trim();

const runDir = (name: string, files: Record<string, unknown>): string => {
  const dir = join(root, name);
  for (const [path, value] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), typeof value === 'string' ? value : JSON.stringify(value));
  }
  mkdirSync(dir, { recursive: true });
  return dir;
};

describe('lib-runs.sh', () => {
  it('step_of: the committed step, from latest/ or, after a crash inside promotion, latest.old/', () => {
    expect(helper('step_of', runDir('a', { 'latest/state.json': { step: 100 } }))).toBe('100');
    expect(helper('step_of', runDir('b', { 'latest.old/state.json': { step: 37 } }))).toBe('37');
    expect(helper('step_of', runDir('c', {}))).toBe('0');
  });

  it("eval_step_of: the end-of-run eval's step, so a resumed run's stale one is told from a current one", () => {
    const resumed = runDir('resumed', { 'latest/state.json': { step: 100 }, 'eval.json': { step: 40, rows: [] } });
    expect(helper('eval_step_of', resumed)).toBe('40');
    expect(Number(helper('eval_step_of', resumed))).toBeLessThan(Number(helper('step_of', resumed)));
    expect(helper('eval_step_of', runDir('fresh', { 'latest/state.json': { step: 100 } }))).toBe('-1');
    expect(helper('eval_step_of', runDir('torn', { 'eval.json': '{"step": 10' }))).toBe('-1');
  });
});
