// Every command-line entry point (each `tsx … FILE.ts` script of package.json, read here so a new one is covered the
// day it is added) answers a misspelled flag with one line on stderr naming the nearest flag, exit code 2, no stack
// trace and no output; `--debug` brings the stack back.
import { describe, expect, it } from 'vitest';
import { runScript, tsxScripts } from '../testing/cli';
import { EXIT_USAGE } from './args';

const STACK = /^\s+at .+[(:]\d+/m;

describe('every CLI: a misspelled flag is one line and the usage exit code', { timeout: 600_000 }, () => {
  const scripts = tsxScripts();

  it('package.json has the commands and benches (the enumeration finds them)', () => {
    const names = scripts.map(([n]) => n);
    expect(names).toEqual(expect.arrayContaining(['train', 'eval', 'hf', 'tasks', 'bench:kernels']));
    expect(names.length).toBeGreaterThanOrEqual(20);
  });

  it('--helpp: one line suggesting --help, exit 2, nothing on stdout, no stack', async () => {
    const results: { name: string; code: number; stdout: string; stderr: string }[] = [];
    // Two at a time: each child loads its command's module graph.
    const queue = [...scripts];
    await Promise.all(
      [0, 1].map(async () => {
        for (let s = queue.shift(); s; s = queue.shift())
          results.push({ name: s[0], ...(await runScript(s[1], ['--helpp'])) });
      }),
    );
    const bad = results
      .filter((r) => {
        const lines = r.stderr.trim().split('\n');
        return (
          r.code !== EXIT_USAGE ||
          lines.length !== 1 ||
          !lines[0].includes('--help') ||
          STACK.test(r.stderr) ||
          r.stdout.trim() !== ''
        );
      })
      .map(
        (r) =>
          `${r.name}: exit ${r.code}, stderr ${JSON.stringify(r.stderr.slice(0, 300))}, stdout ${JSON.stringify(r.stdout.slice(0, 100))}`,
      );
    expect(bad).toEqual([]);
  });

  it('--debug prints the stack of the same error, with the same exit code', async () => {
    const [, tsxArgs] = scripts.find(([n]) => n === 'train')!;
    const r = await runScript(tsxArgs, ['--stpes', '1', '--debug']);
    expect(r.code).toBe(EXIT_USAGE);
    expect(r.stderr).toContain('unknown option --stpes (did you mean --steps?)');
    expect(r.stderr).toMatch(STACK);
  });
});
