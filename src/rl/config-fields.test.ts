// The config table, field by field: each has help, a default within its own range, and validateConfig rejects a
// value just outside every bound (and a wrong type) with an error naming the field, its range and the value.
import { describe, expect, it } from 'vitest';
import {
  CONFIG_FIELDS,
  FIELD_LIST,
  PRESETS,
  PRESET_NAMES,
  configValue,
  fieldError,
  parseSetting,
  presetConfig,
  validateConfig,
  type ConfigPath,
  type FieldSpec,
  type TrainConfig,
} from './config';

/** Every leaf path of a config object (arrays are leaves), so the table can be checked against real configs. */
function leafPaths(o: object, prefix = ''): string[] {
  return Object.entries(o).flatMap(([k, v]) =>
    v && typeof v === 'object' && !Array.isArray(v) ? leafPaths(v as object, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}

/** A copy of the paper preset with one field set to `v`. */
function withValue(path: ConfigPath, v: unknown): TrainConfig {
  const c = structuredClone(PRESETS.paper) as unknown as Record<string, unknown>;
  const parts = path.split('.');
  let o = c;
  for (const p of parts.slice(0, -1)) o = o[p] as Record<string, unknown>;
  o[parts[parts.length - 1]] = v;
  return c as unknown as TrainConfig;
}

/** Values just outside a field's range or of the wrong type, each of which must be refused. */
function badValues(f: FieldSpec): unknown[] {
  switch (f.type) {
    case 'int':
      return [f.minExclusive ? f.min : f.min - 1, f.maxExclusive ? f.max : f.max + 1, f.min + 0.5, NaN, '3'];
    case 'number': {
      // A step far below the bounds' own precision would round back onto them; 1e-9 relative is well above it.
      const step = (x: number) => Math.max(Math.abs(x) * 1e-9, 1e-12);
      return [
        f.minExclusive ? f.min : f.min - step(f.min),
        f.maxExclusive ? f.max : f.max + step(f.max),
        NaN,
        Infinity,
        '0.5',
      ];
    }
    case 'boolean':
      return ['true', 1, null];
    case 'enum':
      return ['no-such-value', 1];
    case 'string':
      return [1, null];
    case 'list':
      return ['a,b', [1]];
  }
}

describe('config table', () => {
  it('lists exactly the fields every preset has', () => {
    const paths = FIELD_LIST.map(([p]) => p).sort();
    for (const name of PRESET_NAMES) {
      // train_part may be left out of a config (absent = all training instances).
      const have = new Set(leafPaths(PRESETS[name]));
      have.add('tasks.train_part');
      expect([...have].sort(), name).toEqual(paths);
    }
  });

  for (const [path, f] of FIELD_LIST) {
    describe(path, () => {
      it('has help, a type and a default inside its own range', () => {
        expect(f.help.length, 'help').toBeGreaterThan(15);
        expect(['int', 'number', 'boolean', 'enum', 'string', 'list']).toContain(f.type);
        if (f.type === 'int' || f.type === 'number') {
          expect(Number.isFinite(f.min) && Number.isFinite(f.max) && f.min < f.max, 'range').toBe(true);
        }
        if (f.type === 'enum') expect(f.values.length).toBeGreaterThan(1);
        expect(fieldError(path, f.default)).toBeNull();
        for (const name of PRESET_NAMES) expect(fieldError(path, configValue(PRESETS[name], path)), name).toBeNull();
      });

      it('validateConfig refuses values outside its range, naming the field, the range and the value', () => {
        for (const v of badValues(f)) {
          const why = fieldError(path, v);
          expect(why, `${path} = ${String(v)}`).not.toBeNull();
          expect(() => validateConfig(withValue(path, v))).toThrow(`invalid config: ${path} ${why}`);
          expect(why).toContain(typeof v === 'string' ? `'${v}'` : String(JSON.stringify(v) ?? v));
          if (f.type === 'int' || f.type === 'number') expect(why).toMatch(/ in [[(].+, .+[\])]/);
          if (f.type === 'enum') expect(why).toContain(f.values.join(', '));
        }
      });
    });
  }

  it('the fields the core did not check before are checked now (tester_lr, epsilon, beta)', () => {
    expect(() => presetConfig('tiny', { optim: { tester_lr: 0 } })).toThrow(
      'invalid config: optim.tester_lr must be a number in (0, 1], got 0',
    );
    expect(() => presetConfig('tiny', { grpo: { epsilon_low: -0.1 } })).toThrow(
      /grpo\.epsilon_low must be a number in \[0, 1\], got -0\.1/,
    );
    expect(() => presetConfig('tiny', { grpo: { epsilon_high: 1.5 } })).toThrow(/grpo\.epsilon_high .* got 1\.5/);
    expect(() => presetConfig('tiny', { grpo: { beta: -1 } })).toThrow(/grpo\.beta .* got -1/);
  });

  it('UI rows have unique keys and row numbers, on numeric fields or fields with named values', () => {
    const ui = FIELD_LIST.flatMap(([, f]) => (f.ui ? [{ ...f.ui, type: f.type }] : []));
    expect(ui.length).toBeGreaterThan(5);
    expect(new Set(ui.map((u) => u.key)).size).toBe(ui.length);
    expect(ui.map((u) => u.row).sort((a, b) => a - b)).toEqual(ui.map((_, i) => i));
    // The Run panel draws a box for numbers and a list for named values; text, lists and switches have no row.
    for (const u of ui) expect(['int', 'number', 'enum']).toContain(u.type);
  });
});

describe('--set values', () => {
  it('are read as the field’s type', () => {
    expect(parseSetting('optim.lr', '2e-4')).toBe(2e-4);
    expect(parseSetting('rollout.num_generations', '6')).toBe(6);
    expect(parseSetting('mistake_book.enabled', 'false')).toBe(false);
    expect(parseSetting('grpo.loss_type', 'grpo')).toBe('grpo');
    expect(parseSetting('tasks.families', 'count_items, acronym')).toEqual(['count_items', 'acronym']);
    // A number-looking text stays text for a text field.
    expect(parseSetting('model.coderCheckpoint', '12')).toBe('12');
  });

  it('refuse unknown fields, unreadable values and the preset', () => {
    expect(() => parseSetting('lr', '1')).toThrow("unknown config field 'lr' (did you mean optim.lr?)");
    expect(() => parseSetting('optim.nope', '1')).toThrow(/unknown config field 'optim.nope'/);
    expect(() => parseSetting('optim.lr', 'fast')).toThrow("optim.lr must be a number in (0, 1], got 'fast'");
    expect(() => parseSetting('optim.mini_batches', '')).toThrow(
      /optim.mini_batches must be an integer in \[1, 4096\]/,
    );
    expect(() => parseSetting('mistake_book.enabled', 'yes')).toThrow(/must be true or false, got 'yes'/);
    expect(() => parseSetting('preset', 'micro')).toThrow(/--preset/);
  });

  it('every field of the table can be set', () => {
    for (const [path] of FIELD_LIST) {
      if (path === 'preset') continue;
      const v = configValue(PRESETS.tiny, path) ?? CONFIG_FIELDS[path].default ?? 'rl';
      const text = Array.isArray(v) ? v.join(',') : String(v);
      expect(parseSetting(path, text), path).toEqual(v);
    }
  });
});
