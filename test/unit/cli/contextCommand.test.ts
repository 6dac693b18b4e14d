import { strict as assert } from 'node:assert';
import { runHerald } from '../../support/cliRun';
import { writeLibrary } from '../knowledge/support';

/** A voice page whose "good for" phrasing fits the task in meaning but shares too few of its words. */
const LIBRARY = {
  'voice/tone.md': ['---', 'title: Tone for outbound', 'type: voice', 'good_for:', '  - writing a cold email to a finance buyer', '---', '# Tone for outbound', '', '## Tone', 'Plain words, one number, one question at the end. Never more than 120 words.', ''].join('\n'),
  'reference/security.md': ['---', 'title: Security facts', 'type: reference', 'good_for:', '  - answering a security questionnaire', '---', '# Security facts', '', '## Certifications', 'SOC 2 Type II since 2023; data encrypted at rest.', ''].join('\n'),
};
const TASK = 'cold email to a CFO switching from Avalara';

describe('herald context', () => {
  it('ranks with the shipped model by default: the page that fits the task in meaning comes, to be used', async () => {
    const library = writeLibrary(LIBRARY);
    const result = await runHerald(['context', '--library', library, '--task', TASK, '--json']);
    assert.equal(result.code, 0, result.stderr);
    const output = JSON.parse(result.stdout) as { pages: { page_id: string; reason: string }[] };
    const tone = output.pages.find((page) => page.page_id === 'voice/tone');
    assert.equal(tone?.reason, 'use', JSON.stringify(output.pages));
    assert.ok(!output.pages.some((page) => page.page_id === 'reference/security'), 'the unrelated page stays out');
  });

  it('ranks by words only with --lexical: the same page is not matched', async () => {
    const library = writeLibrary(LIBRARY);
    const result = await runHerald(['context', '--library', library, '--task', TASK, '--json', '--lexical']);
    assert.equal(result.code, 0, result.stderr);
    const output = JSON.parse(result.stdout) as { pages: { page_id: string; reason: string }[] };
    assert.ok(!output.pages.some((page) => page.page_id === 'voice/tone' && page.reason === 'use'), JSON.stringify(output.pages));
  });
});
