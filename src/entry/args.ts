/**
 * Command-line flags for every command, through node:util parseArgs in strict mode: an unknown flag or a stray
 * argument is an error that names it (a mistyped `--jsn` must not silently print a table), and every command has
 * --help.
 */
import { parseArgs } from 'node:util';

export interface FlagSpec {
  type: 'boolean' | 'string';
  short?: string;
  /** Shown in --help; for a string flag, `valueName` names its value (`--port <port>`). */
  description: string;
  valueName?: string;
}

export interface CommandSpec<F extends Record<string, FlagSpec>> {
  /** How a person runs it, e.g. `npm run reconcile --`. */
  usage: string;
  /** One paragraph: what it does. */
  summary: string;
  flags: F;
  /** Lines after the flags (environment it reads, exit codes). */
  notes?: string[];
}

type FlagValues<F extends Record<string, FlagSpec>> = {
  [K in keyof F]?: F[K]['type'] extends 'boolean' ? boolean : string;
};

/** Keeps each flag's literal type, so boolean flags read as booleans and string flags as strings. */
export function defineCommand<F extends Record<string, FlagSpec>>(spec: CommandSpec<F>): CommandSpec<F> {
  return spec;
}

export class UsageError extends Error {}

export function helpText<F extends Record<string, FlagSpec>>(spec: CommandSpec<F>): string {
  const help: FlagSpec = { type: 'boolean', short: 'h', description: 'print this help and exit' };
  const flags: Record<string, FlagSpec> = { ...spec.flags, help };
  const rows = Object.entries(flags).map(([name, flag]) => {
    const names = `${flag.short ? `-${flag.short}, ` : '    '}--${name}${flag.type === 'string' ? ` <${flag.valueName ?? 'value'}>` : ''}`;
    return [names, flag.description] as const;
  });
  const width = Math.max(...rows.map(([names]) => names.length));
  return [
    `Usage: ${spec.usage} [options]`,
    '',
    spec.summary,
    '',
    'Options:',
    ...rows.map(([names, description]) => `  ${names.padEnd(width)}  ${description}`),
    ...(spec.notes && spec.notes.length > 0 ? ['', ...spec.notes] : []),
  ].join('\n');
}

/** Parses argv strictly; throws UsageError naming the offending flag. `help` is true when -h/--help was given. */
export function parseFlags<F extends Record<string, FlagSpec>>(
  spec: CommandSpec<F>,
  argv: readonly string[],
): { values: FlagValues<F>; help: boolean } {
  const options: Record<string, { type: 'boolean' | 'string'; short?: string }> = {
    help: { type: 'boolean', short: 'h' },
  };
  for (const [name, flag] of Object.entries(spec.flags))
    options[name] = { type: flag.type, ...(flag.short ? { short: flag.short } : {}) };
  try {
    const { values } = parseArgs({ args: [...argv], options, strict: true, allowPositionals: false });
    const { help, ...rest } = values as Record<string, string | boolean | undefined>;
    return { values: rest as FlagValues<F>, help: help === true };
  } catch (error) {
    // parseArgs' messages name the flag ("Unknown option '--jsn'"); the advice about `--` does not apply here.
    const message =
      error instanceof Error ? error.message.split('. To specify a positional')[0]! : String(error);
    throw new UsageError(message);
  }
}

/**
 * For an entry point: parses process.argv, prints --help and exits 0, or prints the error and exits 2 (the usual
 * status for a usage error), so a command never runs on flags it did not understand.
 */
export function commandFlags<F extends Record<string, FlagSpec>>(
  spec: CommandSpec<F>,
  argv: readonly string[] = process.argv.slice(2),
): FlagValues<F> {
  let parsed: { values: FlagValues<F>; help: boolean };
  try {
    parsed = parseFlags(spec, argv);
  } catch (error) {
    process.stderr.write(`${spec.usage}: ${(error as Error).message}\nRun with --help for the options.\n`);
    process.exit(2);
  }
  if (parsed.help) {
    process.stdout.write(`${helpText(spec)}\n`);
    process.exit(0);
  }
  return parsed.values;
}
