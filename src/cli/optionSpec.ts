/**
 * How a command declares its options, once: the parser reads which take a value, and the help a
 * user gets from `herald <command> --help` is written from the same declarations, so an option
 * added to a command's table shows in its help without another edit. A bare `true` / `false`
 * (takes a value / is a flag) still parses and is listed, without a description.
 */

/** One option: the placeholder of its value (absent for a flag) and one line saying what it does. */
export interface OptionDeclaration {
  /** The value's placeholder in the help, e.g. `N`, `DIR`, `URL`; absent for a flag. */
  readonly value?: string;
  /** What the option does, one line. */
  readonly help: string;
}

/** A command's options by name (without the leading `--`). */
export type OptionSpec = Readonly<Record<string, boolean | OptionDeclaration>>;

/** What `herald <command> --help` prints: the command's own declarations. */
export interface CommandHelp {
  readonly name: string;
  readonly summary: string;
  /** Positional arguments, e.g. `HANDLE`, shown after the command name. */
  readonly arguments?: string;
  /** What the command reads from stdin, when it reads it. */
  readonly stdin?: string;
  readonly options: OptionSpec;
  /** Lines shown after the options (examples, environment variables). */
  readonly notes?: readonly string[];
}

/** Whether the option takes a value. */
export function takesValue(declaration: boolean | OptionDeclaration | undefined): boolean {
  return declaration === true || (typeof declaration === 'object' && declaration.value !== undefined);
}

/**
 * Whether the arguments ask for help: `--help` or `-h` where an option may stand (not as the
 * value of an option that takes one, nor after `--`).
 */
export function asksForHelp(args: readonly string[], spec: OptionSpec): boolean {
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === '--') return false;
    if (arg === '--help' || arg === '-h') return true;
    if (arg.startsWith('--') && !arg.includes('=') && takesValue(spec[arg.slice(2)])) index++;
  }
  return false;
}

/** The one-line synopsis: `herald serve [options]`, with positional arguments. */
export function synopsis(help: Pick<CommandHelp, 'name' | 'arguments' | 'options'>): string {
  const parts = [`herald ${help.name}`];
  if (help.arguments) parts.push(help.arguments);
  if (Object.keys(help.options).length > 0) parts.push('[options]');
  return parts.join(' ');
}

/** `herald <command> --help`: usage, what it reads, and every option with its value and what it does. */
export function commandHelp(help: CommandHelp): string {
  const lines = [`Usage: ${synopsis(help)}`, '', help.summary];
  if (help.stdin) lines.push('', `Reads ${help.stdin} on stdin.`);
  const names = Object.keys(help.options);
  lines.push('', 'Options:');
  const rows = names.map((name) => {
    const declaration = help.options[name]!;
    const value = typeof declaration === 'object' ? declaration.value : declaration ? 'VALUE' : undefined;
    return { left: `--${name}${value ? ` ${value}` : ''}`, right: typeof declaration === 'object' ? declaration.help : '' };
  });
  rows.push({ left: '-h, --help', right: 'print this help and exit' });
  const width = Math.min(32, Math.max(...rows.map((row) => row.left.length)));
  for (const row of rows) {
    const left = `  ${row.left}`;
    lines.push(row.right ? (row.left.length > width ? `${left}\n  ${' '.repeat(width)}  ${row.right}` : `${left.padEnd(width + 2)}  ${row.right}`) : left);
  }
  if (help.notes && help.notes.length > 0) lines.push('', ...help.notes);
  return lines.join('\n') + '\n';
}
