/** Token counts of pages and sections: counted when first read, never by the build, never saved. */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadLibrary } from '../../../src/core/knowledge/library';
import { parsePage } from '../../../src/core/knowledge/page';
import type { Page, Section } from '../../../src/core/knowledge/types';
import { countTokens } from '../../../src/core/tokens';
import { copyLibrary } from './support';

const counted = (target: Page | Section): boolean => Object.getOwnPropertyDescriptor(target, 'tokens')?.get === undefined;

describe('knowledge: token counts counted when first read', () => {
  it('a section counts its text, a page sums its sections, and both read like plain data', () => {
    const parsed = parsePage('guides/setup.md', '---\ntitle: Setup\n---\n# Setup\n\nInstall the CLI, then run `herald init`.\n\n## Keys\n\n| Key | Meaning |\n|---|---|\n| id | the page id |\n');
    assert.ok('page' in parsed);
    const page = parsed.page;
    assert.ok(!counted(page) && page.sections.every((section) => !counted(section)));
    for (const section of page.sections) assert.equal(section.tokens, countTokens(section.text));
    assert.ok(page.sections.every(counted));
    assert.equal(page.tokens, page.sections.reduce((sum, section) => sum + section.tokens, 0));
    assert.ok(counted(page) && page.tokens > 10);
    assert.deepEqual(Object.keys(page.sections[0]!), ['id', 'pageId', 'index', 'headingPath', 'text', 'tokens', 'rows']);
    assert.equal(JSON.parse(JSON.stringify(page)).tokens, page.tokens);
    assert.equal({ ...page.sections[1]! }.tokens, page.sections[1]!.tokens);
  });

  it('a build counts none, the saved index holds none, and a reloaded library counts the same', () => {
    const directory = copyLibrary();
    try {
      const indexFile = path.join(directory, '.index.json');
      const built = loadLibrary(directory, { indexFile });
      assert.ok(built.pages.every((page) => !counted(page) && page.sections.every((section) => !counted(section))), 'nothing counted by the build');
      assert.doesNotMatch(fs.readFileSync(indexFile, 'utf8'), /"tokens"/);
      const reloaded = loadLibrary(directory, { indexFile });
      assert.equal(reloaded.statistics.reused, built.pages.length);
      const fresh = loadLibrary(directory);
      assert.deepEqual(reloaded.pages.map((page) => [page.tokens, ...page.sections.map((section) => section.tokens)]), fresh.pages.map((page) => [page.tokens, ...page.sections.map((section) => section.tokens)]));
    } finally {
      fs.rmSync(directory, { recursive: true, force: true });
    }
  });
});
