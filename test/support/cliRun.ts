/** Runs a `herald` command in-process with a captured stdin, stdout and stderr. */
import type { CliIo } from '../../src/cli/io';
import { runCli } from '../../src/cli/main';

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export async function runHerald(args: readonly string[], stdin = ''): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { readStdin: async () => stdin, stdout: (text) => { stdout += text; }, stderr: (text) => { stderr += text; } };
  const code = await runCli(args, io);
  return { code, stdout, stderr };
}
