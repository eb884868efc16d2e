// Runs the lab's CLIs (src/cli/NAME.ts, or any tsx script of package.json) in a child Node the way `npm run` does.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** `npm run SCRIPT -- ARGS` without npm: resolves with stdout and stderr, rejects with them when it exits non-zero. */
export const runCli = (script: string, ...args: string[]) =>
  run(process.execPath, ['--import', 'tsx', '--import', './scripts/raw-loader.mjs', `src/cli/${script}.ts`, ...args], {
    maxBuffer: 1 << 24,
  });

/** package.json scripts that run a TypeScript entry point with tsx: [script name, tsx's arguments]. */
export function tsxScripts(): [string, string[]][] {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };
  return Object.entries(pkg.scripts)
    .map(([name, cmd]) => [name, cmd.trim().split(/\s+/)] as [string, string[]])
    .filter(([, words]) => words[0] === 'tsx' && words.at(-1)!.endsWith('.ts'))
    .map(([name, words]) => [name, words.slice(1)]);
}

/** Runs `npm run NAME -- ARGS` without npm (tsx as an import, the same loader flags). */
export async function runScript(
  tsxArgs: string[],
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run(process.execPath, ['--import', 'tsx', ...tsxArgs, ...args], { maxBuffer: 1 << 24 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const x = e as { code?: number; stdout?: string; stderr?: string };
    return { code: x.code ?? -1, stdout: x.stdout ?? '', stderr: x.stderr ?? '' };
  }
}
