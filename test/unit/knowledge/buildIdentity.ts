/**
 * The two libraries the build identity test digests: the hand-written test library with its
 * task suite, and a generated library of a few hundred pages with tasks drawn from its text.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadLibrary, type LoadLibraryOptions } from '../../../src/core/knowledge/library';
import { libraryDigest, type LibraryDigest } from './buildDigest';
import { generatedTasks, generateLibrary, sourceSentences } from './generatedLibrary';
import { LIBRARY_DIR, TODAY } from './support';
import { LIBRARY_TASKS } from './taskSuite';

/** Pages of the generated library: enough for folders, links, tables and drafts at scale. */
export const GENERATED_PAGES = 300;

/** Where the digests taken from the loader before it was made fast are kept. */
export const EXPECTED_FILE = path.join(__dirname, 'buildIdentity.expected.json');

/** Digests of both libraries. */
export interface BuildDigests {
  readonly testLibrary: LibraryDigest;
  readonly generated: LibraryDigest;
}

/** Writes the generated library into a new temp folder and returns it with its tasks. */
export function writeGeneratedLibrary(): { directory: string; tasks: string[] } {
  const sentences = sourceSentences();
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-generated-library-'));
  generateLibrary(directory, sentences, GENERATED_PAGES);
  return { directory, tasks: generatedTasks(sentences, 20) };
}

/** Digests of the test library loaded with `options`. */
export async function testLibraryDigest(options: LoadLibraryOptions = {}): Promise<LibraryDigest> {
  const library = loadLibrary(LIBRARY_DIR, options);
  const tasks = LIBRARY_TASKS.map((entry) => entry.task);
  return libraryDigest(library, [...tasks, ...library.pages.map((page) => page.meta.title)], tasks, TODAY);
}

/** Digests of the generated library in `directory` loaded with `options`. */
export async function generatedLibraryDigest(directory: string, tasks: readonly string[], options: LoadLibraryOptions = {}): Promise<LibraryDigest> {
  const library = loadLibrary(directory, options);
  const titles = library.pages.filter((_, index) => index % 15 === 0).map((page) => page.meta.title);
  return libraryDigest(library, [...tasks, ...titles], tasks, TODAY);
}
