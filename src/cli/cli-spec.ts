// One declaration per command: the flags it accepts are the flags its --help lists (and docs/cli.md, written from
// that --help output by scripts/cli-doc.ts), so the parser, the help and the docs cannot drift apart.
import { parseArgsAndPositional, type Args, UsageError } from './args';

export interface CliFlag {
  /** Flag name without the dashes. */
  name: string;
  /** Placeholder of its value (`N`, `DIR`, `a|b`); absent for a boolean switch. */
  value?: string;
  /** What it does, with its default and range where it has them. */
  help: string;
}

export interface CliSpec {
  /** How it is run, e.g. `npm run train` or `npm run tasks -- stats`. */
  command: string;
  /** One line: what the command is for. */
  summary: string;
  /** Usage lines, each a whole invocation. */
  usage: string[];
  flags: CliFlag[];
  /** What the positional arguments are, when it takes any (e.g. `RUN_DIR ...`). */
  positional?: string;
  /** Paragraphs after the flags: what it writes, how to read its output. */
  notes?: string[];
  examples: string[];
  /** Sub-commands, each with its own spec (`npm run tasks -- stats --help`). */
  subcommands?: string[];
  /** Flags that switch the command into another mode with its own spec (`npm run export -- --verl --help`). */
  modes?: string[];
  /** Help generated from a table the command also reads (e.g. every config field); appended last. */
  extra?: () => string;
}

const HELP_FLAG: CliFlag = { name: 'help', help: 'print this help and exit' };

/** The --help text of a command, rendered from its spec. */
export function helpText(spec: CliSpec): string {
  const flags = [...spec.flags, HELP_FLAG];
  const left = (f: CliFlag) => `--${f.name}${f.value ? ` ${f.value}` : ''}`;
  const width = Math.min(28, Math.max(...flags.map((f) => left(f).length)) + 2);
  const lines = [`${spec.command}: ${spec.summary}`, '', 'usage:', ...spec.usage.map((u) => `  ${u}`)];
  if (spec.positional) lines.push('', `arguments: ${spec.positional}`);
  if (spec.subcommands?.length) lines.push('', `subcommands: ${spec.subcommands.join(' ')}`);
  if (spec.modes?.length) lines.push('', `modes: ${spec.modes.join(' ')}`);
  lines.push('', 'options:');
  for (const f of flags) {
    const l = left(f);
    lines.push(l.length + 2 > width ? `  ${l}\n  ${' '.repeat(width)}${f.help}` : `  ${l.padEnd(width)}${f.help}`);
  }
  for (const n of spec.notes ?? []) lines.push('', n);
  if (spec.examples.length) lines.push('', 'examples:', ...spec.examples.map((e) => `  ${e}`));
  if (spec.extra) lines.push('', spec.extra());
  return lines.join('\n');
}

/** The parser's table of a spec's flags (`--help` included). */
export function knownFlags(spec: CliSpec): Record<string, 'string' | 'boolean'> {
  const known: Record<string, 'string' | 'boolean'> = {};
  for (const f of [...spec.flags, HELP_FLAG]) known[f.name] = f.value ? 'string' : 'boolean';
  return known;
}

/**
 * Parses argv against a spec (npm's `--` separator dropped). With `--help` it prints the help and returns undefined,
 * so a command's main returns 0 at once: `const p = parseCli(SPEC, argv); if (!p) return 0;`.
 */
export function parseCli(spec: CliSpec, argv: string[]): { args: Args; positional: string[] } | undefined {
  const rest = argv.filter((a) => a !== '--');
  if (rest.includes('--help')) {
    console.log(helpText(spec));
    return undefined;
  }
  const parsed = parseArgsAndPositional(rest, knownFlags(spec));
  if (parsed.positional.length && !spec.positional && !spec.subcommands?.length)
    throw new UsageError(
      `unexpected argument '${parsed.positional[0]}' (${spec.command} takes only options; see --help)`,
    );
  return parsed;
}
