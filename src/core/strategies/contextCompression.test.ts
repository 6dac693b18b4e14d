import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { findMarkers } from '../stash/marker';
import { itWithData, sharedPath } from '../../../test/support/sharedData';
import { createCommandDigest } from './commandDigest';
import { createContextCompression } from './contextCompression';
import { assertNoPromptText, createRig, partTexts, runTurns, turnBodies } from '../../../test/support/strategyTestKit';

/** 500 orders, all shipped but one that failed, deep in the list. */
function orders(): string {
  const rows = Array.from({ length: 500 }, (_, index) => ({ id: 10_000 + index, customer: `customer-${index % 41}`, status: index === 399 ? 'failed' : 'shipped', total: 20 + (index % 7), note: null, tags: [] }));
  return JSON.stringify(rows, null, 2);
}

function call(id: string, name: string, args: Record<string, unknown>): unknown {
  return { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }] };
}

describe('context_compression', () => {
  it('compresses a bulky JSON result by shape, keeping the anomalous row; the fresh one on arrival without the question (OpenAI)', async () => {
    const json = orders();
    const messages = [
      { role: 'system', content: 'You answer questions about orders.' },
      { role: 'user', content: 'Which order failed?' },
      call('c1', 'list_orders', { day: '2026-06-01' }),
      { role: 'tool', tool_call_id: 'c1', content: json },
      call('c2', 'list_orders', { day: '2026-06-02' }),
      { role: 'tool', tool_call_id: 'c2', content: json.replace('"failed"', '"shipped"') },
    ];
    const rig = createRig([createContextCompression()]);
    const result = await runTurns(rig, turnBodies(messages));
    const compressed = partTexts(result.request)[3]!;
    assert.ok(compressed.length < json.length / 5, `${compressed.length} of ${json.length} chars`);
    assert.ok(compressed.includes('10399') && compressed.includes('failed'), 'the failed order at position 400 survives');
    assert.match(compressed, /\[herald: json compressed of \d+ lines: [^\]]+ · retrieve hr_[a-z2-7]{16}\]$/);
    assert.equal(await rig.stash.expandText(compressed), json);
    const fresh = partTexts(result.request)[5]!;
    assert.ok(fresh.length < json.length / 5, 'the fresh result is compressed on arrival');
    assert.ok(!fresh.includes('10399'), 'with nothing anomalous in it, no row past the head and tail is kept');
    assert.equal(await rig.stash.expandText(fresh), json.replace('"failed"', '"shipped"'));
    assertNoPromptText(result.decisions, [json]);
  });

  itWithData('reduces a fetched web page to its text in Anthropic format', async () => {
    const page = fs.readFileSync(sharedPath('html', 'mozilla-1', 'source.html'), 'utf8');
    const messages = [
      { role: 'user', content: 'Summarise the Mozilla page.' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'fetch', input: { url: 'https://www.mozilla.org/' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: page }] },
      { role: 'assistant', content: [{ type: 'text', text: 'It is about Firefox.' }] },
      { role: 'user', content: 'More detail please.' },
    ];
    const rig = createRig([createContextCompression()]);
    const result = await runTurns(rig, turnBodies(messages, { model: 'claude-sonnet-4', system: 'Be factual.', max_tokens: 400 }));
    const compressed = partTexts(result.request)[3]!;
    assert.ok(compressed.length < page.length / 4, `${compressed.length} of ${page.length} chars`);
    assert.ok(!/<script|<style/i.test(compressed));
    assert.equal(findMarkers(compressed).length, 1);
    assert.equal(await rig.stash.expandText(compressed), page);
  });

  it('never rewrites prose or source code, nor output a specialist already digested', async () => {
    const source = fs.readFileSync(`${__dirname}/../stash/stash.ts`, 'utf8');
    const pytest = ['============================= test session starts ==============================', 'collected 90 items', '', ...Array.from({ length: 90 }, (_, index) => `tests/test_api.py::test_case_${index} PASSED [${index}%]`), '', '============================== 90 passed in 1.20s =============================='].join('\n');
    const messages = [
      { role: 'user', content: 'Check the stash and run the tests.' },
      call('c1', 'bash', { command: 'cat src/core/stash/stash.ts' }),
      { role: 'tool', tool_call_id: 'c1', content: source },
      call('c2', 'bash', { command: 'pytest -v' }),
      { role: 'tool', tool_call_id: 'c2', content: pytest },
      { role: 'assistant', content: 'All green.' },
      { role: 'user', content: 'Good.' },
    ];
    const rig = createRig([createCommandDigest(), createContextCompression()]);
    const result = await runTurns(rig, turnBodies(messages));
    assert.equal(partTexts(result.request)[2], source);
    const digested = partTexts(result.request)[4]!;
    assert.equal(findMarkers(digested).length, 1, 'one marker: compression left the digest alone');
    assert.match(findMarkers(digested)[0]!.summary, /^test run digest/);
    const compression = result.decisions.filter((decision) => decision.strategy === 'context_compression');
    assert.ok(compression.every((decision) => decision.status === 'unchanged'));
  });
});
