import { strict as assert } from 'node:assert';
import { COMMANDS } from '../../../src/cli/commands';
import { CliError, parseOptions, type CliIo } from '../../../src/cli/io';
import { runCli } from '../../../src/cli/main';
import { asksForHelp, commandHelp } from '../../../src/cli/optionSpec';

function captureIo(): CliIo & { out: string; err: string } {
  const io = {
    out: '',
    err: '',
    readStdin: async () => '',
    stdout: (text: string) => void (io.out += text),
    stderr: (text: string) => void (io.err += text),
  };
  return io;
}

describe('herald <command> --help', () => {
  for (const name of Object.keys(COMMANDS)) {
    for (const flag of ['--help', '-h']) {
      it(`herald ${name} ${flag} prints its own usage and every option it declares, exit 0`, async () => {
        const io = captureIo();
        const code = await runCli([name, flag], io);
        assert.equal(code, 0, io.err);
        assert.equal(io.err, '');
        assert.match(io.out, new RegExp(`^Usage: herald ${name}\\b`));
        for (const option of Object.keys(COMMANDS[name]!.options)) assert.match(io.out, new RegExp(`--${option}\\b`), `--${option} missing from herald ${name} --help`);
      });
    }
  }

  it('takes --help after other options, and herald help <command> is the same text', async () => {
    const after = captureIo();
    assert.equal(await runCli(['serve', '--port', '0', '--help'], after), 0);
    const topic = captureIo();
    assert.equal(await runCli(['help', 'serve'], topic), 0);
    assert.equal(after.out, topic.out);
    assert.match(after.out, /--openai-base-url URL\s+where OpenAI requests go/);
  });

  it('does not take an option value of "-h" for a help request', () => {
    assert.equal(asksForHelp(['--token', '-h'], COMMANDS.serve!.options), false);
    assert.equal(asksForHelp(['--off', '-h'], COMMANDS.serve!.options), true);
    assert.equal(asksForHelp(['--', '--help'], COMMANDS.serve!.options), false);
  });

  it('lists an option added to a command\'s table, with its description, and one without a description too', () => {
    const help = commandHelp({ name: 'serve', summary: 'x', options: { ...COMMANDS.serve!.options, 'new-flag': { help: 'what the new flag does' }, bare: true } });
    assert.match(help, /--new-flag\s+what the new flag does/);
    assert.match(help, /--bare VALUE/);
    // The parser reads the same table.
    assert.deepEqual(parseOptions(['--new-flag', '--bare', 'v'], { 'new-flag': { help: 'x' }, bare: true }).options, { 'new-flag': true, bare: 'v' });
  });

  it('the top-level help lists every command, and an unknown option points at the command\'s help', async () => {
    const io = captureIo();
    assert.equal(await runCli(['--help'], io), 0);
    for (const name of Object.keys(COMMANDS)) assert.match(io.out, new RegExp(`herald ${name}\\b`));
    const wrong = captureIo();
    assert.equal(await runCli(['serve', '--prot', '9'], wrong), 2);
    assert.match(wrong.err, /unknown option --prot.*herald serve --help/);
    assert.throws(() => parseOptions(['--prot'], COMMANDS.serve!.options), CliError);
  });
});
