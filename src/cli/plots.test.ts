// `npm run plots` on committed records (four seeds of code-a1, golden and self-play): the collusion charts leave out
// golden (it trains no Tester), keep one colour per run, and the pooled chart has one validity and one dashed
// mutation-score line per Tester-training mode, each with its band.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../testing/cli';

// Records evaluated on the held-out split (tasks never trained on), which the collusion charts read.
const DATA = 'docs/results-data/heldout-task';
const out = mkdtempSync(join(tmpdir(), 'plots-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const SEEDS = [1, 2];
const runs = ['code-a1', 'golden', 'self-play'].flatMap((m) => SEEDS.map((s) => `${DATA}/${m}-s${s}`));

/** Legend entries: [name, swatch colour, dashed]. */
const legend = (file: string) =>
  [
    ...readFileSync(join(out, file), 'utf8').matchAll(
      /<line [^>]*stroke="([^"]+)" stroke-width="3"( stroke-dasharray="[^"]*")?\/><text [^>]*>([^<]*)<\/text>/g,
    ),
  ].map((m) => ({ name: m[3], color: m[1], dashed: !!m[2] }));

describe('npm run plots', { timeout: 120_000 }, () => {
  // Rejects (and fails every test here) when the CLI exits non-zero.
  let stderr = '';
  beforeAll(async () => {
    stderr = (await runCli('plots', ...runs, '--out', out)).stderr;
  }, 120_000);

  it('runs without an error message', () => {
    expect(stderr).not.toMatch(/Error/);
  });

  it('draws one validity and one mutation-score line per run that trains a Tester, golden left out', () => {
    const entries = legend('collusion.svg');
    expect(entries.map((e) => e.name).filter((n) => n.startsWith('golden'))).toEqual([]);
    expect(entries).toHaveLength(2 * 2 * SEEDS.length);
    const validity = entries.filter((e) => e.name.endsWith(' validity'));
    expect(validity.map((e) => e.name.replace(' validity', ''))).toEqual(
      ['code-a1', 'self-play'].flatMap((m) => SEEDS.map((s) => `${m}-s${s}`)),
    );
    // Each run's two lines share a colour, and no two runs do.
    for (const v of validity) {
      const m = entries.find((e) => e.name === v.name.replace('validity', 'mutation score'))!;
      expect(m).toMatchObject({ color: v.color, dashed: true });
    }
    expect(new Set(validity.map((e) => e.color)).size).toBe(validity.length);
  });

  it('pools the seeds of each Tester-training mode into one chart with bands', () => {
    const entries = legend('collusion-pooled.svg');
    expect(entries.map((e) => [e.name, e.dashed])).toEqual([
      ['code-a1 (seeds 1, 2) validity', false],
      ['code-a1 (seeds 1, 2) mutation score', true],
      ['self-play (seeds 1, 2) validity', false],
      ['self-play (seeds 1, 2) mutation score', true],
    ]);
    expect(readFileSync(join(out, 'collusion-pooled.svg'), 'utf8').match(/class="ci-band"/g)).toHaveLength(4);
  });
});
