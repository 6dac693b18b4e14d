import * as assert from 'node:assert/strict';
import { getContext } from '../../../src/core/knowledge/getContext';
import type { Embedder } from '../../../src/core/relevance/types';
import { now, testLibrary } from './support';

/**
 * A fake embedder with three "concepts": texts that speak of money charged twice, of
 * refunds, or of neither. Real embedders put "double-billed" near "charged twice"; this one
 * does it by a word list, which is enough to show that meaning ranks sections words miss.
 */
class ConceptEmbedder implements Embedder {
  readonly name = 'fake/concepts';
  readonly dimension = 3;
  readonly batches: number[] = [];

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    this.batches.push(texts.length);
    return texts.map((text) => {
      const lower = text.toLowerCase();
      const vector = new Float32Array([/double-billed|charged twice|duplicate/.test(lower) ? 1 : 0, /refund/.test(lower) ? 0.3 : 0, 0.05]);
      const length = Math.hypot(...vector);
      return vector.map((value) => value / length);
    });
  }
}

describe('knowledge: meaning and folder rankings', () => {
  it('ranks by meaning when an embedder is given, and embeds the library once', async () => {
    const library = await testLibrary();
    const embedder = new ConceptEmbedder();
    const task = 'the customer says they were double-billed in March';
    const withMeaning = await getContext(library, { task }, { embedder, now });
    const refund = withMeaning.pages.find((page) => page.page_id === 'reference/refund-policy');
    assert.ok(refund, withMeaning.pages.map((page) => page.page_id).join(', '));
    const duplicate = refund.sections.find((section) => section.heading.endsWith('Duplicate charges'))!;
    assert.equal(duplicate.ranks['meaning:0'], 1);
    const withoutMeaning = await getContext(library, { task }, { now });
    assert.ok(!withoutMeaning.pages.some((page) => page.sections.some((section) => section.ranks['meaning:0'] !== undefined)));
    const batchesBefore = embedder.batches.length;
    await getContext(library, { task: 'charged twice for the same filing' }, { embedder, now });
    // Sections and phrasings are embedded once; later calls embed only the task (for phrasings) and the queries.
    assert.deepEqual(embedder.batches.slice(batchesBefore), [1, 1]);
  });

  it('a task matching a folder\'s phrasings lifts the pages in it', async () => {
    const library = await testLibrary();
    const result = await getContext(library, { task: 'handle objections about price and timing' }, { now });
    const lifted = result.pages.flatMap((page) => page.sections).filter((section) => section.ranks.folder !== undefined);
    // "objections" and "pricing" are the folders the task's words name.
    assert.ok(lifted.some((section) => section.id.startsWith('objections/')));
    assert.ok(lifted.every((section) => /^(objections|pricing)\//.test(section.id)), JSON.stringify(lifted.map((section) => section.id)));
    const unrelated = await getContext(library, { task: 'what is the refund window?' }, { now });
    assert.ok(!unrelated.pages.some((page) => page.sections.some((section) => section.ranks.folder !== undefined)));
  });
});

describe('knowledge: phrasings by meaning', () => {
  it('with an embedder, a page whose good_for means the task comes as a use page even without shared words', async () => {
    const { loadLibrary } = await import('../../../src/core/knowledge/library');
    const { writeLibrary } = await import('./support');
    const directory = writeLibrary({
      'billing/duplicates.md': '---\ntitle: Billing corrections\ngood_for: [sorting out a duplicate invoice]\n---\n## Steps\nOpen a ticket with billing and attach both invoices.\n\n## Owners\nThe billing desk owns corrections.\n',
      'billing/other.md': '---\ntitle: Invoices\n---\n## Format\nInvoices are PDF files.\n',
    });
    const library = loadLibrary(directory);
    const task = 'customer was double-billed last month';
    const withoutMeaning = await getContext(library, { task }, { now });
    assert.ok(!withoutMeaning.pages.some((page) => page.reason === 'use'));
    const withMeaning = await getContext(library, { task }, { now, embedder: new ConceptEmbedder() });
    const page = withMeaning.pages.find((entry) => entry.page_id === 'billing/duplicates');
    assert.equal(page?.reason, 'use');
    assert.equal(page?.sections.length, 2, 'its best two sections');
  });
});
