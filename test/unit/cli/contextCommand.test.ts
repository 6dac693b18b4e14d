import { strict as assert } from 'node:assert';
import { runHerald } from '../../support/cliRun';
import { LIBRARY_DIR, writeLibrary } from '../knowledge/support';

/** A voice page whose "good for" phrasing fits the task in meaning but shares too few of its words. */
const LIBRARY = {
  'voice/tone.md': ['---', 'title: Tone for outbound', 'type: voice', 'good_for:', '  - writing a cold email to a finance buyer', '---', '# Tone for outbound', '', '## Tone', 'Plain words, one number, one question at the end. Never more than 120 words.', ''].join('\n'),
  'reference/security.md': ['---', 'title: Security facts', 'type: reference', 'good_for:', '  - answering a security questionnaire', '---', '# Security facts', '', '## Certifications', 'SOC 2 Type II since 2023; data encrypted at rest.', ''].join('\n'),
};
const TASK = 'cold email to a CFO switching from Avalara';

describe('herald context', () => {
  it('ranks by words by default: a page that fits the task only in meaning is not matched, and the result says so', async () => {
    const library = writeLibrary(LIBRARY);
    const result = await runHerald(['context', '--library', library, '--task', TASK, '--json']);
    assert.equal(result.code, 0, result.stderr);
    const output = JSON.parse(result.stdout) as { pages: { page_id: string; reason: string }[]; signals: string };
    assert.ok(!output.pages.some((page) => page.page_id === 'voice/tone' && page.reason === 'use'), JSON.stringify(output.pages));
    assert.equal(output.signals, 'words');
  });

  it('ranks with the shipped model too with --model: the page that fits the task in meaning comes, to be used', async () => {
    const library = writeLibrary(LIBRARY);
    const result = await runHerald(['context', '--library', library, '--task', TASK, '--json', '--model']);
    assert.equal(result.code, 0, result.stderr);
    const output = JSON.parse(result.stdout) as { pages: { page_id: string; reason: string }[]; signals: string };
    const tone = output.pages.find((page) => page.page_id === 'voice/tone');
    assert.equal(tone?.reason, 'use', JSON.stringify(output.pages));
    assert.ok(!output.pages.some((page) => page.page_id === 'reference/security'), 'the unrelated page stays out');
    assert.match(output.signals, /^words \+ meaning \(herald-retrieval/);
  });

  it('a task the test library does not cover gets the nothing-found notice by default (with --model the shipped model brings persona pages)', async () => {
    const args = ['context', '--library', LIBRARY_DIR, '--task', 'write a haiku about volcanoes', '--json'];
    const byWords = JSON.parse((await runHerald(args)).stdout) as { nothingFound: boolean; pages: { reason: string }[] };
    assert.equal(byWords.nothingFound, true);
    assert.deepEqual([...new Set(byWords.pages.map((page) => page.reason))].sort(), ['pinned', 'rule']);
    const withModel = JSON.parse((await runHerald([...args, '--model'])).stdout) as { nothingFound: boolean };
    assert.equal(withModel.nothingFound, false, 'the shipped model still matches "write" with "writing to a finance buyer": why it is off by default');
  });

  it('refuses --model with --lexical', async () => {
    const result = await runHerald(['context', '--library', writeLibrary(LIBRARY), '--task', TASK, '--model', '--lexical']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--model and --lexical contradict each other/);
  });
});
