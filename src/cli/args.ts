// Minimal `--key value` / `--flag` argument parsing for the CLIs, with clear errors for unknown options.
import {
  FIELD_LIST,
  PRESETS,
  PRESET_DESCRIPTIONS,
  PRESET_NAMES,
  configValue,
  fieldRange,
  parseSetting,
} from '../rl/config';
export type Args = Record<string, string | boolean>;

export function parseArgs(argv: string[], known: Record<string, 'string' | 'boolean'>): Args {
  const out: Args = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) throw new Error(`unexpected argument '${a}'`);
    const [k, inline] = a.slice(2).split(/=(.*)/s, 2);
    const kind = known[k];
    if (!kind)
      throw new Error(
        `unknown option --${k} (known: ${Object.keys(known)
          .map((x) => '--' + x)
          .join(', ')})`,
      );
    if (kind === 'boolean') out[k] = true;
    else {
      const v = inline ?? argv[++i];
      if (v === undefined || v.startsWith('--')) throw new Error(`option --${k} needs a value`);
      // Repeated string options accumulate (e.g. several --set a.b=1).
      out[k] = out[k] === undefined ? v : `${out[k]}\n${v}`;
    }
  }
  return out;
}

/**
 * parseArgs for CLIs that also take positional arguments (directories): each argument that is neither an option nor
 * the value of a string option is positional, in order.
 */
export function parseArgsAndPositional(
  argv: string[],
  known: Record<string, 'string' | 'boolean'>,
): { args: Args; positional: string[] } {
  const positional: string[] = [];
  const options: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) {
      positional.push(a);
      continue;
    }
    options.push(a);
    // A string option's value is the next argument unless given inline (--key=value); parseArgs checks it.
    if (known[a.slice(2)] === 'string' && i + 1 < argv.length) options.push(argv[++i]);
  }
  return { args: parseArgs(options, known), positional };
}

export function intArg(args: Args, key: string, fallback: number): number {
  const v = args[key];
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isInteger(n)) throw new Error(`--${key} must be an integer, got '${v}'`);
  return n;
}

/** `--set a.b=1 --set c=x` → nested overrides, each value read as its config field's type (src/rl/config-fields.ts). */
export function setOverrides(args: Args): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const raw = typeof args.set === 'string' ? args.set.split('\n') : [];
  for (const kv of raw) {
    const m = /^([\w.]+)=(.*)$/s.exec(kv);
    if (!m) throw new Error(`--set expects key.path=value, got '${kv}'`);
    const path = m[1].split('.');
    let o = out;
    path.slice(0, -1).forEach((p) => (o = (o[p] ??= {}) as Record<string, unknown>));
    o[path[path.length - 1]] = parseSetting(m[1], m[2]);
  }
  return out;
}

/**
 * Runs a CLI's main and exits with its code (0 when it returns none). An error exits 1 after printing its stack, or
 * only its message with `{ stack: false }` (commands whose errors are the user's input, not a bug).
 */
export function runMain(main: () => Promise<number | void>, opts: { stack?: boolean } = {}): void {
  main().then(
    (code) => process.exit(code ?? 0),
    (e: unknown) => {
      console.error(e instanceof Error ? (opts.stack === false ? e.message : (e.stack ?? e.message)) : e);
      process.exit(1);
    },
  );
}

/** Every config field for --help: path, type, range, each preset's value, then its help and the release setting. */
export function configHelp(): string {
  const show = (v: unknown) =>
    v === undefined ? '(unset)' : v === '' ? "''" : Array.isArray(v) ? `[${v.join(',')}]` : String(v);
  const lines = [
    'presets:',
    ...PRESET_NAMES.map((p) => `  ${p.padEnd(6)} ${PRESET_DESCRIPTIONS[p]}`),
    "config fields (--set path=value; the value shown is the paper preset's, then micro / tiny where they differ):",
  ];
  for (const [path, f] of FIELD_LIST) {
    const values = PRESET_NAMES.map((p) => [p, show(configValue(PRESETS[p], path))] as const);
    const paper = values.find(([p]) => p === 'paper')![1];
    const others = values
      .filter(([p, v]) => p !== 'paper' && v !== paper && path !== 'preset')
      .map(([p, v]) => `${p} ${v}`);
    const type = f.type === 'int' || f.type === 'number' ? `${f.type} ${fieldRange(f)}` : fieldRange(f);
    lines.push(`  ${path}  ${type}  = ${paper}${others.length ? ` (${others.join(', ')})` : ''}`);
    lines.push(`      ${f.help}${f.ref ? ` [${f.ref}]` : ''}`);
  }
  return lines.join('\n');
}
