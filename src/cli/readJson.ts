import { CliError, type CliIo } from './io';
import { describeError } from '../core/errors';

/** Reads stdin as JSON, or fails with one line naming the problem. */
export async function readJsonInput(io: CliIo): Promise<unknown> {
  const text = await io.readStdin();
  if (text.trim().length === 0) throw new CliError('herald: no input on stdin (expected a JSON request)');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CliError(`herald: stdin is not valid JSON (${describeError(error)})`);
  }
}
