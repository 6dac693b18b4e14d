/** The `herald` command line. */
import { COMMANDS } from './commands';
import { CliError, type CliIo } from './io';
import { asksForHelp, commandHelp, synopsis } from './optionSpec';
import { describeError } from '../core/errors';

export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === '--help' || name === '-h') {
    io.stdout(usage());
    return name ? 0 : 2;
  }
  if (name === 'help') {
    // `herald help serve` is `herald serve --help`.
    const topic = args[0];
    const entry = topic === undefined ? undefined : COMMANDS[topic];
    if (topic !== undefined && !entry) {
      io.stderr(`herald: unknown command "${topic}" (known: ${Object.keys(COMMANDS).join(', ')})\n`);
      return 2;
    }
    io.stdout(entry ? commandHelp({ name: topic!, ...entry }) : usage());
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.stderr(`herald: unknown command "${name}" (known: ${Object.keys(COMMANDS).join(', ')}; herald --help lists them)\n`);
    return 2;
  }
  if (asksForHelp(args, command.options)) {
    io.stdout(commandHelp({ name, ...command }));
    return 0;
  }
  try {
    return await command.run(args, io);
  } catch (error) {
    if (error instanceof CliError) {
      // A usage mistake (exit 2) says where the options are listed.
      io.stderr(`${error.message}${error.exitCode === 2 ? ` (herald ${name} --help lists its options)` : ''}\n`);
      return error.exitCode;
    }
    io.stderr(`herald: ${name} failed: ${describeError(error)}\n`);
    return 1;
  }
}

function usage(): string {
  const lines = ['Herald — smaller language-model requests, nothing lost.', '', 'Usage: herald <command> [options]', ''];
  for (const [name, entry] of Object.entries(COMMANDS)) lines.push(`  ${synopsis({ name, ...entry })}`, `      ${entry.summary}`);
  lines.push('', 'herald <command> --help (or herald help <command>) prints a command\'s options.');
  return lines.join('\n') + '\n';
}

const processIo: CliIo = {
  readStdin: async () => {
    if (process.stdin.isTTY) return '';
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

if (require.main === module) {
  runCli(process.argv.slice(2), processIo).then((code) => {
    process.exitCode = code;
  }, (error: unknown) => {
    process.stderr.write(`herald: ${describeError(error)}\n`);
    process.exitCode = 1;
  });
}
