import * as assert from 'node:assert/strict';
import { getContext } from '../../../src/core/knowledge/getContext';
import { loadLibrary } from '../../../src/core/knowledge/library';
import { rowNaming, taskNames } from '../../../src/core/knowledge/tableNames';
import { countTokens } from '../../../src/core/tokens';
import { judgeCandidates, now, RecordingModel, testLibrary, writeLibrary } from './support';

/** A judge that keeps every row and section it is asked about (it never says "different"). */
function keepEverythingJudge(): RecordingModel {
  return new RecordingModel((request) => {
    if (!request.prompt.includes('Candidates:')) return JSON.stringify({ names: [], searches: [] });
    return JSON.stringify({ verdicts: judgeCandidates(request.prompt).map((candidate) => ({ id: candidate.id, use: 0.9, different: 0, applies: 0.9 })) });
  });
}

describe('knowledge: table rows as units', () => {
  it('names come from the table\'s own columns; a one-word everyday name needs its case or its header word', () => {
    assert.ok(taskNames('what does the Growth plan cost', 'Growth', 'Plan'));
    assert.ok(taskNames('price of the growth plan', 'Growth', 'Plan'));
    assert.ok(!taskNames('how do we grow revenue with growth hacking', 'Growth', 'Plan'));
    assert.ok(!taskNames('how do we scale onboarding', 'Scale', 'Plan'));
    assert.ok(taskNames('fees in the united kingdom', 'United Kingdom', 'Region'));
  });

  it('a row about another plan or region than the task names is dropped without a judge, and the table does not come whole', async () => {
    const library = await testLibrary();
    const naming = rowNaming(library, 'what is the Growth platform fee in the United Kingdom');
    assert.ok(naming.namedRows.size > 0 && naming.otherRows.size > 0);
    const result = await getContext(library, { task: 'what is the Growth platform fee in the United Kingdom' }, { now });
    const markdown = result.markdown;
    assert.match(markdown, /\| United Kingdom \| GBP \| £9,800 \|/);
    for (const other of ['| Canada |', '| European Union |', '| Starter |', '| Scale |', '| Enterprise |']) assert.ok(!markdown.includes(other), `${other} should not come for this task:\n${markdown}`);
    const regional = result.pages.find((page) => page.page_id === 'pricing/regional-pricing');
    assert.ok(regional && regional.sections.every((section) => section.kind === 'row'), 'rows stand in for the table');
  });

  it('with a judge that would keep everything, rows about another plan are still dropped', async () => {
    const library = await testLibrary();
    const judge = keepEverythingJudge();
    const result = await getContext(library, { task: 'how much is the Growth plan per year' }, { now, model: judge, judgeMode: 'gate' });
    assert.ok(judge.requests.some((request) => request.prompt.includes('Candidates:')), 'the judge was asked');
    assert.match(result.markdown, /\| Growth \| \$12,000 \|/);
    for (const other of ['| Starter | $4,800', '| Scale | $30,000', '| Enterprise | Custom']) assert.ok(!result.markdown.includes(other), `${other} came with the judge on`);
  });

  it('a 500-row price table does not come whole for one plan\'s price', async () => {
    const rows = Array.from({ length: 500 }, (_, index) => `| Plan ${index + 1} | $${(index + 1) * 10} per month | ${index % 7 === 0 ? 'Phone and email' : 'Email'} |`);
    const folder = writeLibrary({
      'pricing/price-list.md': ['---', 'title: Price list', 'type: table', 'tags: [pricing]', '---', '# Price list', '', '## Monthly prices', 'Every plan\'s list price per month.', '', '| Plan | Price | Support |', '|---|---|---|', ...rows, ''].join('\n'),
    });
    const library = loadLibrary(folder);
    const tableTokens = countTokens(rows.join('\n'));
    const result = await getContext(library, { task: 'what is the monthly price of Plan 137?', max_tokens: 30000 }, { now });
    assert.match(result.markdown, /\| Plan 137 \| \$1370 per month \|/);
    assert.ok(!result.markdown.includes('| Plan 138 |') && !result.markdown.includes('| Plan 1 |'), 'other plans\' rows stay out');
    assert.ok(result.tokens < tableTokens / 10, `${result.tokens} tokens returned; the whole table is ${tableTokens}`);
  });
});
