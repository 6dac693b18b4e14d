import { takesValue, type OptionSpec } from './optionSpec';

/** What a CLI command reads and writes, injected so tests run commands in-process. */
export interface CliIo {
  /** The whole of standard input. */
  readStdin(): Promise<string>;
  stdout(text: string): void;
  stderr(text: string): void;
}

/** A command: its arguments (after the command name) in, an exit code out. */
export type CliCommand = (args: readonly string[], io: CliIo) => Promise<number>;

/** A user-facing failure: printed as one line on stderr, exit code 2 (or as given). */
export class CliError extends Error {
  constructor(message: string, readonly exitCode = 2) {
    super(message);
    this.name = 'CliError';
  }
}

/**
 * Parses `--name value` and `--flag` options. `spec` declares each allowed option (whether it
 * takes a value, and its help line: see optionSpec.ts); anything else is an error naming the option.
 */
export function parseOptions(args: readonly string[], spec: OptionSpec): { options: Record<string, string | true>; positional: string[] } {
  const options: Record<string, string | true> = {};
  const positional: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    if (!(name in spec)) throw new CliError(`herald: unknown option --${name}`);
    if (takesValue(spec[name])) {
      const value = inline ?? args[++index];
      if (value === undefined) throw new CliError(`herald: option --${name} needs a value`);
      options[name] = value;
    } else {
      options[name] = true;
    }
  }
  return { options, positional };
}
