import * as assert from 'node:assert/strict';
import { getContext } from '../../../src/core/knowledge/getContext';
import { loadLibrary } from '../../../src/core/knowledge/library';
import { bundledModelFolder, loadEmbedder, type Embedder } from '../../../src/core/relevance';
import { now, testLibrary, writeLibrary } from './support';
import { LIBRARY_TASKS } from './taskSuite';

/**
 * The library with Herald's shipped retrieval model: off by default (it never beat words alone on
 * held-out tasks), and when asked for (`shippedModelMeaning`), meaning ranking and the "what it is
 * for" path.
 */
describe('knowledge: with the shipped retrieval model', () => {
  let embedder: Embedder;
  before(async () => {
    embedder = await loadEmbedder(bundledModelFolder()!);
  });

  it('a voice page whose good_for fits "cold email to a finance buyer" comes with a cold email to a CFO, which shares too few of its words', async () => {
    const folder = writeLibrary({
      'voice/tone.md': ['---', 'title: Tone for outbound', 'type: voice', 'good_for:', '  - writing a cold email to a finance buyer', '---', '# Tone for outbound', '', '## Tone', 'Plain words, one number, one question at the end. Never more than 120 words.', ''].join('\n'),
      'reference/security.md': ['---', 'title: Security facts', 'type: reference', 'good_for:', '  - answering a security questionnaire', '---', '# Security facts', '', '## Certifications', 'SOC 2 Type II since 2023; data encrypted at rest.', ''].join('\n'),
    });
    const library = loadLibrary(folder);
    const task = 'cold email to a CFO switching from Avalara';
    const withModel = await getContext(library, { task }, { now, embedder, options: { shippedModelMeaning: true } });
    const tone = withModel.pages.find((page) => page.page_id === 'voice/tone');
    assert.ok(tone, withModel.pages.map((page) => page.page_id).join(', '));
    assert.equal(tone.reason, 'use', JSON.stringify(withModel.pages.map((page) => [page.page_id, page.reason])));
    assert.ok(!withModel.pages.some((page) => page.page_id === 'reference/security'), 'the unrelated page stays out');
    const lexical = await getContext(library, { task }, { now });
    assert.ok(!lexical.pages.some((page) => page.page_id === 'voice/tone' && page.reason === 'use'), 'by words alone the phrasing is not matched');
  });

  it('is not asked by default: the result ranks by words, and a task the library does not cover finds nothing', async () => {
    const library = await testLibrary();
    const task = 'write a haiku about volcanoes';
    const byDefault = await getContext(library, { task }, { now, embedder });
    assert.equal(byDefault.signals, 'words');
    assert.equal(byDefault.nothingFound, true, byDefault.pages.map((page) => `${page.page_id}:${page.reason}`).join(', '));
    const asked = await getContext(library, { task }, { now, embedder, options: { shippedModelMeaning: true } });
    assert.match(asked.signals, /^words \+ meaning \(herald-retrieval/);
    assert.equal(asked.nothingFound, false, 'asked for, the model matches "write" with the personas\' "writing to …": why it is off');
  });

  it('the task suite still brings what each task needs and nothing it should not, when asked for', async () => {
    const library = await testLibrary();
    for (const entry of LIBRARY_TASKS) {
      const result = await getContext(library, { task: entry.task }, { now, embedder, options: { shippedModelMeaning: true } });
      const ids = result.pages.map((page) => page.page_id);
      assert.deepEqual({ missing: entry.wanted.filter((id) => !ids.includes(id)), unwanted: entry.unwanted.filter((id) => ids.includes(id)) }, { missing: [], unwanted: [] }, `${entry.task}: ${ids.join(', ')}`);
    }
  });
});
