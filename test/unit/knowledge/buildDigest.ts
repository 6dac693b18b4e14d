/**
 * Short digests of everything a loaded library holds and answers: each page as parsed, the
 * problems, packs, folders, names and links, full-text hits for a set of queries, and the
 * get_context result for a set of tasks. The build identity test compares them with digests
 * taken from the loader before it was made fast, so a faster build that changes any result
 * (a page, a score, a byte of a bundle) fails, and names what changed.
 */
import { canonicalJson, sha256 } from '../../../src/core/pipeline/hash';
import { getContext } from '../../../src/core/knowledge/getContext';
import type { Library } from '../../../src/core/knowledge/library';

/** Digests of one library, keyed so a difference names the page, query or task. */
export interface LibraryDigest {
  readonly pages: Record<string, string>;
  readonly library: Record<string, string>;
  readonly queries: Record<string, string>;
  readonly bundles: Record<string, string>;
}

function digest(value: unknown): string {
  return sha256(canonicalJson(value)).slice(0, 16);
}

/** The digests of `library` for `queries` (searched as they are) and `tasks` (get_context at `now`). */
export async function libraryDigest(library: Library, queries: readonly string[], tasks: readonly string[], now: Date): Promise<LibraryDigest> {
  const pages: Record<string, string> = {};
  for (const page of library.pages) pages[page.id] = digest(page);
  const units = library.pages.flatMap((page) => page.sections.flatMap((section) => [section.id, ...section.rows.map((row) => row.id)])).map((id) => library.unit(id));
  const libraryDigests: Record<string, string> = {
    order: digest(library.pages.map((page) => page.id)),
    problems: digest(library.problems),
    packs: digest(library.packs),
    settings: digest(library.settings),
    folders: digest(library.folders),
    names: digest(library.names),
    links: digest({ from: [...library.linksFrom], to: [...library.linksTo] }),
    units: digest(units),
    indexSize: String(library.index.size),
  };
  const queryDigests: Record<string, string> = {};
  for (const query of queries) queryDigests[query] = digest(library.index.query(query));
  const bundles: Record<string, string> = {};
  for (const task of tasks) {
    // `signals` (what ranked the pages) came after the digests were taken; it says nothing of the build.
    const { signals: _signals, ...result } = await getContext(library, { task }, { now: () => now });
    bundles[task] = digest(result);
  }
  return { pages, library: libraryDigests, queries: queryDigests, bundles };
}
