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
import { formatOption, parseRequestOrFail } from './optimizeCommand';
import { readJsonInput } from './readJson';
import { defaultStashDirectory, openStashDirectory } from './stashDirectory';

export { expandRequest } from '../core/pipeline';

export const expandCommand: CliCommand = async (args, io) => {
  const { options } = parseOptions(args, { stash: true, format: true });
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
