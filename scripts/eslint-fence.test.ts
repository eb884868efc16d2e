// The layer fence in eslint.config.js fires: ESLint's own API lints small import fixtures placed under each layer's path.
import { ESLint } from 'eslint';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const eslint = new ESLint({ cwd: root });

/** no-restricted-imports messages for a one-import fixture linted as if it lived at `path`. */
async function fenceErrors(path: string, from: string): Promise<string[]> {
  const code = `import { x } from '${from}';\nexport const y = x;\n`;
  const [result] = await eslint.lintText(code, { filePath: join(root, path) });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('layer fence (no-restricted-imports)', () => {
  it.each([
    ['src/gpu/kernels/fixture.ts', '../../model/layout'],
    ['src/gpu/fixture.ts', '../rl/trainer'],
    ['src/gpu/device-browser-fixture.ts', '../app/store'],
    ['src/model/fixture.ts', '../rl/grpo'],
    ['src/model/hf/fixture.ts', '../../cli/train'],
    ['src/rl/fixture.ts', '../cli/train'],
    ['src/rl/fixture.ts', '../app/store'],
    ['src/tasks/fixture.ts', '../rl/prompts'],
    ['src/tasks/fixture.ts', '../model'],
    ['src/sandbox/fixture.ts', '../model/tokenizer'],
    ['src/sandbox/fixture.ts', '../rl/rewards'],
    ['src/export/verl/fixture.ts', '../../cli/export-verl'],
    ['src/rl/fixture.ts', '../analysis/targets'],
    ['src/rl/fixture.ts', '../run/run-session'],
    ['src/rl/fixture.ts', '../bench/bench-step'],
    ['src/run/fixture.ts', '../analysis/results-table'],
    ['src/run/fixture.ts', '../cli/train'],
    ['src/analysis/fixture.ts', '../cli/targets'],
    ['src/sandbox/fixture.ts', '../run/eval'],
  ])('%s may not import %s', async (path, from) => {
    const errors = await fenceErrors(path, from);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/Layer fence: src\/\w+ must not import/);
  });

  it.each([
    ['src/gpu/kernels/fixture.ts', '../quant'],
    ['src/model/fixture.ts', '../gpu/runtime'],
    ['src/rl/fixture.ts', '../model/transformer'],
    ['src/rl/fixture.ts', '../tasks/types'],
    ['src/tasks/fixture.ts', '../sandbox/types'],
    ['src/cli/fixture.ts', '../rl/trainer'],
    ['src/app/fixture.ts', '../rl/trainer'],
    ['src/tasks/fixture.test.ts', '../rl/prompts'],
    ['src/run/fixture.ts', '../rl/trainer'],
    ['src/analysis/fixture.ts', '../rl/records'],
    ['src/analysis/fixture.ts', '../run/eval-ci'],
    ['src/bench/fixture.ts', '../run/lab-setup'],
  ])('%s may import %s', async (path, from) => {
    expect(await fenceErrors(path, from)).toEqual([]);
  });

  it('still bans React from core layers and Node modules from src/export', async () => {
    expect(await fenceErrors('src/rl/fixture.ts', 'react')).toHaveLength(1);
    expect(await fenceErrors('src/export/fixture.ts', 'node:fs')).toHaveLength(1);
  });
});
