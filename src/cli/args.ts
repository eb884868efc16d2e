// Minimal `--key value` / `--flag` argument parsing for the CLIs, and their one exit path: a user's mistake is one line
// on stderr with exit code 2 (a misspelled flag, preset, mode or field names the nearest known one), a bad file or
// record one line with exit code 1, and only an internal error (or `--debug`) prints a stack trace.
import {
  FIELD_LIST,
  PRESETS,
  PRESET_DESCRIPTIONS,
  PRESET_NAMES,
  configValue,
  fieldRange,
  parseSetting,
} from '../rl/config';
import { didYouMean } from '../rl/nearest';
export type Args = Record<string, string | boolean>;

/** Exit code of a usage error: bad flags or values, nothing was done. */
export const EXIT_USAGE = 2;

/** The command line asks for something that cannot be (an unknown flag, a value out of range): exit 2, no stack. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** `--help` on a command that does not declare it: runMain prints the command's usage. */
class HelpRequested extends Error {
  override name = 'HelpRequested';
}

function unknownOption(k: string, known: Record<string, unknown>): UsageError {
  const names = [...Object.keys(known), 'help'].map((x) => '--' + x);
  const hint = didYouMean('--' + k, names, (s) => s);
  return new UsageError(
    hint ? `unknown option --${k}${hint}` : `unknown option --${k} (known: ${[...new Set(names)].join(', ')})`,
  );
}

/** String options that may be given several times, their values joined by newlines: `--set`, targets' `--versus`. */
const REPEATABLE = new Set(['set', 'versus']);

export function parseArgs(argv: string[], known: Record<string, 'string' | 'boolean'>): Args {
  const out: Args = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) throw new UsageError(`unexpected argument '${a}'`);
    const [k, inline] = a.slice(2).split(/=(.*)/s, 2);
    const kind = known[k];
    if (!kind) {
      // Every command answers --help, declared or not.
      if (k === 'help') throw new HelpRequested();
      throw unknownOption(k, known);
    }
    if (kind === 'boolean') out[k] = true;
    else {
      const v = inline ?? argv[++i];
      if (v === undefined || v.startsWith('--')) throw new UsageError(`option --${k} needs a value`);
      // The list options accumulate when repeated (several --set a.b=1); any other given twice is a mistake.
      if (out[k] !== undefined && !REPEATABLE.has(k))
        throw new UsageError(`--${k} given twice ('${String(out[k])}' and '${v}'): give it once`);
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

/**
 * An integer option: decimal digits only (not '', '1e3' or '0x10', which Number() would read), within [min, max].
 * Read every numeric option before writing anything, so a bad value leaves nothing behind.
 */
export function intArg(args: Args, key: string, fallback: number, range: { min?: number; max?: number } = {}): number {
  const v = args[key];
  if (v === undefined) return fallback;
  const { min = -Number.MAX_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER } = range;
  const n = typeof v === 'string' && /^\s*[-+]?\d+\s*$/.test(v) ? Number(v) : NaN;
  const what =
    min > -Number.MAX_SAFE_INTEGER && max < Number.MAX_SAFE_INTEGER
      ? `an integer from ${min} to ${max}`
      : min > -Number.MAX_SAFE_INTEGER
        ? min === 0
          ? 'a whole number (0 or more)'
          : `an integer of at least ${min}`
        : 'an integer';
  if (!Number.isSafeInteger(n) || n < min || n > max)
    throw new UsageError(`--${key} must be ${what}, got '${String(v)}'`);
  return n;
}

/** A number option (finite, decimal or exponent notation) greater than `above` when given. */
export function numArg(args: Args, key: string, fallback: number, range: { above?: number } = {}): number {
  const v = args[key];
  if (v === undefined) return fallback;
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  if (!Number.isFinite(n) || (range.above !== undefined && !(n > range.above)))
    throw new UsageError(
      `--${key} must be a ${range.above === 0 ? 'positive ' : ''}number${range.above !== undefined && range.above !== 0 ? ` above ${range.above}` : ''}, got '${String(v)}'`,
    );
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

/** Errors that report the user's input, files or records (not a bug): their message is the whole story. */
const USER_ERRORS = new Set(['CheckpointError', 'RunDirError', 'RecordError', 'BundleError', 'MemoryPlanError']);
const USAGE_ERRORS = new Set(['UsageError', 'ConfigError']);
/** File-system errors about a path the user named. */
const PATH_CODES = new Set(['ENOENT', 'ENOTDIR', 'EISDIR', 'EACCES', 'EPERM', 'EEXIST', 'ENOTEMPTY']);

/** How an error ends a CLI: its exit code and whether its stack helps (only for an internal error). */
export function classifyError(e: unknown): { code: number; stack: boolean } {
  if (!(e instanceof Error)) return { code: 1, stack: false };
  if (USAGE_ERRORS.has(e.name)) return { code: EXIT_USAGE, stack: false };
  const fsCode = (e as NodeJS.ErrnoException).code;
  if (USER_ERRORS.has(e.name) || (fsCode !== undefined && PATH_CODES.has(fsCode))) return { code: 1, stack: false };
  return { code: 1, stack: true };
}

/**
 * Runs a CLI's main and exits with its code (0 when it returns none). `--debug` anywhere on the command line is taken
 * out before main sees it and prints the stack of any error. Without it, usage errors exit 2 and user errors 1 with
 * one line; an internal error prints its stack unless `{ stack: false }` (commands whose every error is the user's).
 * `usage` is what `--help` prints when the command does not handle it itself.
 */
export function runMain(main: () => Promise<number | void>, opts: { stack?: boolean; usage?: string } = {}): void {
  const at = process.argv.indexOf('--debug', 2);
  const debug = at >= 0;
  if (debug) process.argv.splice(at, 1);
  const fail = (e: unknown) => {
    if (e instanceof HelpRequested) {
      console.log(opts.usage ?? 'this command takes no options besides --debug');
      process.exit(0);
    }
    const { code, stack } = classifyError(e);
    const show = debug || (stack && opts.stack !== false);
    console.error(e instanceof Error ? (show ? (e.stack ?? e.message) : e.message) : String(e));
    process.exit(code);
  };
  let p: Promise<number | void>;
  try {
    p = main();
  } catch (e) {
    fail(e);
    return;
  }
  p.then((code) => process.exit(code ?? 0), fail);
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
