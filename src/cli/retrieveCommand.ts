/** `herald retrieve HANDLE`: prints the original behind a handle, byte for byte. */
import * as path from 'node:path';
import { FileBlobStore, isHandle, ScopedBlobStore, splitScopedKey, Stash } from '../core/stash';
import { RecordingLogger } from '../core/ports';
import { CliError, parseOptions, type CliCommand } from './io';
import type { OptionSpec } from './optionSpec';
import { STASH_OPTION } from './commonOptions';

/** `herald retrieve`'s options: the parser and `herald retrieve --help` read them. */
export const RETRIEVE_OPTIONS = { stash: STASH_OPTION } satisfies OptionSpec;
import { defaultStashDirectory, openStashDirectory } from './stashDirectory';

export const retrieveCommand: CliCommand = async (args, io) => {
  const { options, positional } = parseOptions(args, RETRIEVE_OPTIONS);
  const handle = positional[0];
  if (!handle || positional.length > 1) throw new CliError('herald retrieve: give exactly one handle, e.g. herald retrieve hr_abcdefghijklmnop');
  if (!isHandle(handle)) throw new CliError(`herald: "${handle}" is not a Herald handle (hr_ and 16 letters or digits 2-7)`);
  const directoryName = String(options.stash ?? defaultStashDirectory());
  const logger = new RecordingLogger();
  const directory = openStashDirectory(directoryName, logger);
  const original = (await directory.stash.retrieve(handle)) ?? (await retrieveFromTenants(path.join(directoryName, 'entries'), handle));
  if (original === undefined) {
    const why = logger.lines.find((line) => line.code === 'stash-entry-corrupted');
    throw new CliError(why ? why.message.replace(/^Herald:/, 'herald:') : `herald: no original for ${handle} in ${directoryName} (expired, evicted, or from another stash)`, 1);
  }
  io.stdout(original);
  return 0;
};

/**
 * The original behind a handle `herald serve` gave one of its tenants (each tenant's entries
 * live under its own namespace of the folder): whoever runs this reads the folder's files anyway.
 */
async function retrieveFromTenants(entries: string, handle: string): Promise<string | undefined> {
  const store = new FileBlobStore(entries);
  for (const info of await store.list()) {
    const scoped = splitScopedKey(info.key);
    if (scoped?.key !== handle) continue;
    const original = await new Stash({ store: new ScopedBlobStore(store, scoped.namespace) }).retrieve(handle);
    if (original !== undefined) return original;
  }
  return undefined;
}
