// `npm run train -- --help` lists every config field with its range, and --set builds nested, typed overrides.
import { describe, expect, it } from 'vitest';
import { FIELD_LIST, fieldRange, presetConfig, type DeepPartial, type TrainConfig } from '../rl/config';
import { runCli } from '../testing/cli';
import { parseArgs, parseArgsAndPositional, setOverrides } from './args';

describe('train --help', { timeout: 120_000 }, () => {
  it('lists every config field with its range and help', async () => {
    const { stdout } = await runCli('train', '--help');
    const lines = stdout.split('\n');
    for (const [path, f] of FIELD_LIST) {
      const i = lines.findIndex((l) => l.startsWith(`  ${path}  `));
      expect(i, path).toBeGreaterThan(0);
      expect(lines[i], path).toContain(fieldRange(f));
      expect(lines[i + 1], path).toContain(f.help);
    }
  });
});

describe('--set', () => {
  it('builds typed nested overrides that presetConfig accepts', () => {
    const args = parseArgs(
      ['--set', 'optim.lr=3e-4', '--set', 'grpo.loss_type=grpo', '--set=mistake_book.enabled=false'],
      { set: 'string' },
    );
    const o = setOverrides(args);
    expect(o).toEqual({ optim: { lr: 3e-4 }, grpo: { loss_type: 'grpo' }, mistake_book: { enabled: false } });
    const c = presetConfig('micro', o as DeepPartial<TrainConfig>);
    expect([c.optim.lr, c.grpo.loss_type, c.mistake_book.enabled]).toEqual([3e-4, 'grpo', false]);
  });

  it('a value out of range fails with the field, its range and the value', () => {
    const o = setOverrides(parseArgs(['--set', 'rollout.num_generations=0'], { set: 'string' }));
    expect(() => presetConfig('micro', o as DeepPartial<TrainConfig>)).toThrow(
      'invalid config: rollout.num_generations must be an integer in [1, 64], got 0',
    );
    expect(() => setOverrides(parseArgs(['--set', 'optim.lrr=1'], { set: 'string' }))).toThrow(
      /unknown config field 'optim.lrr'/,
    );
  });
});

describe('parseArgsAndPositional', () => {
  const known = { step: 'string', versus: 'string', quiet: 'boolean' } as const;
  it('keeps positional arguments in order and gives string options their values, inline or next', () => {
    const r = parseArgsAndPositional(['a', '--step', '40', 'b', '--quiet', 'c', '--versus=x', '--versus', 'y'], known);
    expect(r.positional).toEqual(['a', 'b', 'c']);
    expect(r.args).toEqual({ step: '40', quiet: true, versus: 'x\ny' });
  });
  it('fails on an unknown option and on a string option without a value', () => {
    expect(() => parseArgsAndPositional(['a', '--stp', '4'], known)).toThrow(/unknown option --stp/);
    expect(() => parseArgsAndPositional(['a', '--step'], known)).toThrow(/option --step needs a value/);
    expect(() => parseArgsAndPositional(['a', '--step', '--quiet'], known)).toThrow(/option --step needs a value/);
  });
});
