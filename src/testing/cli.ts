// Runs one of the lab's CLIs (src/cli/NAME.ts) in a child Node the way `npm run NAME` does (tsx, the raw-file loader).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** `npm run SCRIPT -- ARGS` without npm: resolves with stdout and stderr, rejects with them when it exits non-zero. */
export const runCli = (script: string, ...args: string[]) =>
  run(process.execPath, ['--import', 'tsx', '--import', './scripts/raw-loader.mjs', `src/cli/${script}.ts`, ...args], {
    maxBuffer: 1 << 24,
  });
