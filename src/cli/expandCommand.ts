/**
 * `herald expand`: an optimized request in, the same request with its real elisions expanded
 * out. Texts `herald optimize` printed from this stash folder expand at the places it elided
 * (a quoted copy of a real marker stays as it is); any other text is expanded by text alone,
 * with one warning line on stderr.
 */
import { serializeRequest } from '../core/chat';
import { expandRequest } from '../core/pipeline';
import { RecordingLogger } from '../core/ports';
import { parseOptions, type CliCommand } from './io';
import type { OptionSpec } from './optionSpec';
import { FORMAT_OPTION, STASH_OPTION } from './commonOptions';
import { formatOption, parseRequestOrFail } from './optimizeCommand';
import { readJsonInput } from './readJson';
import { defaultStashDirectory, openStashDirectory } from './stashDirectory';

export { expandRequest } from '../core/pipeline';

/** `herald expand`'s options: the parser and `herald expand --help` read them. */
export const EXPAND_OPTIONS = { stash: STASH_OPTION, format: FORMAT_OPTION } satisfies OptionSpec;

export const expandCommand: CliCommand = async (args, io) => {
  const { options } = parseOptions(args, EXPAND_OPTIONS);
  const format = formatOption(options.format);
  const request = parseRequestOrFail(await readJsonInput(io), format);
  const directoryName = String(options.stash ?? defaultStashDirectory());
  const directory = openStashDirectory(directoryName, new RecordingLogger());
  let textOnly = 0;
  const expanded = await expandRequest(request, directory.stash, directory.sites.sitesOf, () => textOnly++);
  if (textOnly > 0) {
    io.stderr(`herald: elision-sites-unknown: ${textOnly} text(s) were not optimized with the stash folder ${directoryName}; they were expanded by text alone, so a quoted copy of a real marker there was expanded too\n`);
  }
  io.stdout(JSON.stringify(serializeRequest(expanded)) + '\n');
  return 0;
};
