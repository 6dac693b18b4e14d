/**
 * The fast library build gives exactly what the loader gave before it was made fast: the
 * digests in buildIdentity.expected.json were taken from the unchanged loader (commit
 * "Knowledge: build identity digests …") for the test library and a generated library of
 * 300 pages, and cover every page as parsed (sections, token counts, top terms, links),
 * problems, packs, folders with their coherence, names, links, the search units, full-text
 * hits with their scores for a set of queries, and whole get_context results for a set of tasks.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { itWithData } from '../../support/sharedData';
import type { LibraryDigest } from './buildDigest';
import { loadLibrary } from '../../../src/core/knowledge/library';
import { EXPECTED_FILE, GENERATED_PAGES, generatedLibraryDigest, testLibraryDigest, writeGeneratedLibrary, type BuildDigests } from './buildIdentity';

const expected = JSON.parse(fs.readFileSync(EXPECTED_FILE, 'utf8')) as BuildDigests;

/** Compares part by part, so a failure names the page, query or task that changed. */
function assertSameDigest(actual: LibraryDigest, wanted: LibraryDigest, what: string): void {
  for (const part of ['library', 'pages', 'queries', 'bundles'] as const) assert.deepEqual(actual[part], wanted[part], `${what}: ${part} differ`);
}

describe('knowledge: the library build gives the same results as before it was made fast', function () {
  this.timeout(60_000);
  const temporary: string[] = [];
  after(() => {
    for (const entry of temporary) fs.rmSync(entry, { recursive: true, force: true });
  });

  it('the test library: pages, folders, search hits and bundles, cold and from a saved index', async () => {
    assertSameDigest(await testLibraryDigest(), expected.testLibrary, 'cold build');
    const indexFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'herald-identity-index-')), 'index.json');
    temporary.push(path.dirname(indexFile));
    assertSameDigest(await testLibraryDigest({ indexFile }), expected.testLibrary, 'build that writes the saved index');
    assertSameDigest(await testLibraryDigest({ indexFile }), expected.testLibrary, 'load from the saved index');
  });

  itWithData('a generated 300-page library: the same, cold and from a saved index', async () => {
    const { directory, tasks } = writeGeneratedLibrary();
    temporary.push(directory);
    const indexFile = path.join(directory, '.index.json');
    assertSameDigest(await generatedLibraryDigest(directory, tasks), expected.generated, 'cold build');
    assertSameDigest(await generatedLibraryDigest(directory, tasks, { indexFile }), expected.generated, 'build that writes the saved index');
    assertSameDigest(await generatedLibraryDigest(directory, tasks, { indexFile }), expected.generated, 'load from the saved index');
  });

  itWithData('a saved index updated for a changed and a removed page holds what a cold build of the folder holds', async () => {
    const { directory, tasks } = writeGeneratedLibrary();
    temporary.push(directory);
    const indexFile = path.join(directory, '.index.json');
    const first = loadLibrary(directory, { indexFile });
    fs.appendFileSync(path.join(directory, first.pages[100]!.path), '\nA new closing paragraph about quarterly filing deadlines.\n');
    fs.rmSync(path.join(directory, first.pages[7]!.path));
    const incremental = await generatedLibraryDigest(directory, tasks, { indexFile });
    const cold = await generatedLibraryDigest(directory, tasks);
    assert.equal(Object.keys(cold.pages).length, GENERATED_PAGES - 1);
    // An updated index scores a little differently (minisearch updates its field-length averages rather than recomputing them), so hits are not compared.
    for (const part of ['library', 'pages', 'bundles'] as const) assert.deepEqual(incremental[part], cold[part], `${part} differ`);
  });
});

