/**
 * The one-pass index build holds exactly what minisearch holds after adding the same units
 * one by one: ids, field lengths, average lengths (bit for bit), postings; so every search
 * scores and ranks alike. Checked on the test library, a generated library, and random units.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import fc from 'fast-check';
import { loadLibrary } from '../../../src/core/knowledge/library';
import { pageUnits, SectionIndex, type SearchUnit } from '../../../src/core/knowledge/sectionIndex';
import type { IndexData } from '../../../src/core/knowledge/indexBuild';
import { itWithData } from '../../support/sharedData';
import { writeGeneratedLibrary } from './buildIdentity';
import { LIBRARY_DIR } from './support';
import { LIBRARY_TASKS } from './taskSuite';

/** Index data with terms in name order: the radix tree's order of terms is not part of what it holds. */
function comparable(data: IndexData): IndexData {
  return { ...data, index: [...data.index].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)) };
}

function addedOneByOne(units: readonly SearchUnit[]): SectionIndex {
  const index = SectionIndex.empty();
  index.add(units);
  return index;
}

function assertSameIndex(units: readonly SearchUnit[], queries: readonly string[]): void {
  const reference = addedOneByOne(units);
  const built = SectionIndex.of(units);
  assert.deepEqual(comparable(built.toData()), comparable(reference.toData()));
  for (const query of queries) assert.deepEqual(built.query(query), reference.query(query), query);
}

describe('knowledge: the one-pass index build', function () {
  this.timeout(30_000);

  it('holds what adding unit by unit holds, on the test library', () => {
    const library = loadLibrary(LIBRARY_DIR);
    const units = library.pages.flatMap(pageUnits);
    assert.ok(units.some((unit) => unit.kind === 'row') && units.length > 100);
    assertSameIndex(units, [...LIBRARY_TASKS.map((entry) => entry.task), ...library.pages.map((page) => page.meta.title)]);
  });

  itWithData('holds what adding unit by unit holds, on a generated 300-page library', () => {
    const { directory, tasks } = writeGeneratedLibrary();
    try {
      const library = loadLibrary(directory);
      assertSameIndex(library.pages.flatMap(pageUnits), tasks);
    } finally {
      fs.rmSync(directory, { recursive: true, force: true });
    }
  });

  it('holds what adding unit by unit holds, for random units', () => {
    const word = fc.constantFrom('refund', 'refunds', 'window', 'the', 'Levyline', 'getUserName', 'src/core/index.ts', '500', 'écoute', 'naïve', '日本', 'a', '', 'SOC 2', 'v1.2.3', 'write', '—');
    const text = fc.array(word, { maxLength: 12 }).map((words) => words.join(' '));
    const unit = fc.record({ heading: text, text, meta: fc.constantFrom('Refunds reference refund', 'Pricing table', '', 'Levyline battlecard levyline') });
    fc.assert(fc.property(fc.array(unit, { minLength: 1, maxLength: 25 }), fc.array(text, { minLength: 1, maxLength: 4 }), (drafts, queries) => {
      const units: SearchUnit[] = drafts.map((draft, index) => ({ id: `p${index % 4}#${index}`, kind: index % 3 === 2 ? 'row' : 'section', pageId: `p${index % 4}`, sectionId: `p${index % 4}#${index}`, ...draft }));
      assertSameIndex(units, queries);
    }), { numRuns: 150, seed: 7 });
  });

  it('refuses two units with one id, as minisearch does', () => {
    const unit: SearchUnit = { id: 'a#0', kind: 'section', pageId: 'a', sectionId: 'a#0', heading: 'A', text: 'alpha', meta: 'A' };
    assert.throws(() => SectionIndex.of([unit, { ...unit }]), /duplicate search unit id a#0/);
    assert.throws(() => addedOneByOne([unit, { ...unit }]), /duplicate ID a#0/);
  });
});
