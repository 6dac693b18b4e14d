/** The `herald` command line. */
import { COMMANDS } from './commands';
import { CliError, type CliIo } from './io';
import { describeError } from '../core/errors';

export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    io.stdout(usage());
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.stderr(`herald: unknown command "${name}" (known: ${Object.keys(COMMANDS).join(', ')})\n`);
    return 2;
  }
  try {
    return await command.run(args, io);
  } catch (error) {
    if (error instanceof CliError) {
      io.stderr(error.message + '\n');
      return error.exitCode;
    }
    io.stderr(`herald: ${name} failed: ${describeError(error)}\n`);
    return 1;
  }
}

function usage(): string {
  const lines = ['Herald — smaller language-model requests, nothing lost.', '', 'Usage: herald <command> [options]', ''];
  for (const entry of Object.values(COMMANDS)) lines.push(`  herald ${entry.usage}`, `      ${entry.summary}`);
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
