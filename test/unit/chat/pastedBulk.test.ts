import { strict as assert } from 'node:assert';
import { findToolOutputs, parseRequest } from '../../../src/core/chat';
import { itemStarts } from '../../../src/core/chat/pastedBulk';

const LOG = Array.from({ length: 40 }, (_, index) => `2026-06-01 10:${String(index).padStart(2, '0')}:07,120 ${index % 9 === 4 ? 'ERROR' : 'INFO '} [worker-${index % 3}] job ${4000 + index} finished in ${20 + index}ms`).join('\n');

function pasted(content: string): { text: string; start: number; end: number }[] {
  return findToolOutputs(parseRequest({ model: 'm', messages: [{ role: 'system', content: 's' }, { role: 'user', content }] })).map((segment) => ({ text: segment.text, start: segment.start, end: segment.end }));
}

describe('pasted bulk in a user message', () => {
  it('finds a log pasted without a fence, and none of the words around it', () => {
    const content = `Which jobs failed last night?\n\n${LOG}\n\nThanks, it is urgent.`;
    const [segment, ...rest] = pasted(content);
    assert.equal(rest.length, 0);
    assert.equal(segment!.text, LOG);
    assert.equal(content.slice(0, segment!.start), 'Which jobs failed last night?\n\n');
    assert.equal(content.slice(segment!.end), '\n\nThanks, it is urgent.');
  });

  it('leaves a lead-in line that ends with a colon to the user', () => {
    const content = `Here is the worker log from the night:\n${LOG}`;
    assert.equal(pasted(content)[0]!.text, LOG);
  });

  it('finds pasted JSON and a pasted list of retrieved chunks, but not the question after the list', () => {
    const json = JSON.stringify(Array.from({ length: 60 }, (_, index) => ({ id: index, status: index === 41 ? 'failed' : 'ok' })), null, 2);
    assert.equal(pasted(`Which one failed?\n\n${json}`)[0]!.text, json);
    const chunks = Array.from({ length: 12 }, (_, index) => `[${index + 1}] (document ${200 + index}) A title about wings\nThe lift of a wing in a slipstream was measured at several angles of attack and free stream velocities; the results are compared with theory.`).join('\n\n');
    const content = `Retrieved documents:\n\n${chunks}\n\nWhich documents explain the lift increase?`;
    const [segment] = pasted(content);
    assert.equal(segment!.text, chunks);
    assert.equal(itemStarts(segment!.text)!.length, 12);
    // Items numbered with a hash and their fields on the header line: `#3  id=… source=… sim=…`.
    const hashed = Array.from({ length: 12 }, (_, index) => `#${index + 1}  id=aero-${300 + index}:c0  source=reports/${300 + index}.txt  sim=0.${90 - index}\nA title about wings\nThe lift of a wing in a slipstream was measured at several angles of attack; the results are compared with theory.`).join('\n\n');
    const [hashedSegment] = pasted(`Retrieved passages:\n\n${hashed}\n\nWhich passage explains the lift increase?`);
    assert.equal(hashedSegment!.text, hashed);
    assert.equal(itemStarts(hashed)!.length, 12);
    // The user's own hash-numbered list carries no fields: it stays theirs.
    const own = Array.from({ length: 14 }, (_, index) => `#${index + 1} fix the checkout step ${index}\nThe totals are rounded too early and the discount is applied twice when the cart has more than one voucher in it.`).join('\n\n');
    assert.deepEqual(pasted(`Plan for this week:\n\n${own}`), []);
  });

  it('takes an XML test report pasted with a log as two pastes, the blank lines in a failure\'s text inside the report', () => {
    const cases = Array.from({ length: 14 }, (_, index) => `    <testcase classname="tests.test_sync" name="test_case_${index}" time="0.01"/>`);
    const report = [
      '<?xml version="1.0" encoding="utf-8"?>',
      '<testsuites name="pytest tests">',
      '  <testsuite name="pytest" errors="0" failures="1" skipped="0" tests="15" time="0.2">',
      ...cases,
      '    <testcase classname="tests.test_sync" name="test_upload" time="0.02">',
      '      <failure message="assert 3 == 4">def test_upload():',
      '        &gt; assert uploaded == 4',
      '        E assert 3 == 4',
      '',
      '        tests/test_sync.py:25: AssertionError',
      '      </failure>',
      '    </testcase>',
      '  </testsuite>',
      '</testsuites>',
    ].join('\n');
    const content = `Which tests failed, and what did the app log?\n\n${report}\n\n${LOG}`;
    const segments = pasted(content);
    assert.deepEqual(segments.map((segment) => segment.text), [report, LOG]);
  });

  it('never takes the user\'s own structured words for bulk: headings, lists and prose stay theirs', () => {
    const sections = ['## Goal', 'Make the checkout faster for returning customers without changing prices.', '## Constraints', ...Array.from({ length: 25 }, (_, index) => `- Constraint ${index}: keep the public API of module ${index} as it is, and do not add a new dependency.`), '## Steps', '1. Profile the slow path.', '2. Cache the totals.'].join('\n');
    assert.deepEqual(pasted(sections), []);
    const prose = Array.from({ length: 30 }, () => 'We looked at the service for a week and the latency grew every evening, which nobody could explain at first.').join('\n');
    assert.deepEqual(pasted(prose), []);
  });

  it('leaves the user\'s closing words outside a pasted list: after a last file\'s fence, or a few lines of sentences', () => {
    const code = (name: string): string => [`def ${name}(order):`, ...Array.from({ length: 24 }, (_, index) => `    step_${index} = order.amount * ${index + 1}`), '    return step_23'].join('\n');
    const closing = 'Thanks a lot, this is urgent for the release tomorrow.';
    const layouts: Record<string, (path: string, body: string) => string> = {
      fenced: (path, body) => `${path}:\n\`\`\`python\n${body}\n\`\`\``,
      'fence info': (path, body) => `\`\`\`python ${path}\n${body}\n\`\`\``,
      banners: (path, body) => `==> ${path} <==\n${body}`,
    };
    for (const [name, layout] of Object.entries(layouts)) {
      const files = ['billing/totals.py', 'shipping/orders.py', 'ui/colors.py'].map((path, index) => layout(path, code(`step${index}`))).join('\n\n');
      const content = `Why does the total round wrong?\n\n${files}\n\n${closing}`;
      const [segment] = pasted(content);
      assert.ok(segment !== undefined, name);
      assert.equal(content.slice(segment.end).trim(), closing, `${name}: the closing words are the user's`);
      assert.equal(itemStarts(segment.text)?.length, 3, name);
    }
    // A fenced last file: whatever the user wrote after its fence is theirs, even a long paragraph.
    const long = `Some context first:\n\n${['a.py', 'b.py', 'c.py'].map((path) => `${path}:\n\`\`\`python\n${code(path[0]!)}\n\`\`\``).join('\n\n')}\n\nwe run this in prod\non python 3.11\nwith uvloop`;
    const [segment] = pasted(long);
    assert.ok(long.slice(segment!.end).includes('with uvloop'));
    // A last chunk's own lines of data are not taken for the user's words.
    const chunks = Array.from({ length: 6 }, (_, index) => `[${index + 1}] kb-${index} · similarity 0.${9 - index}\n${'Refunds are prorated by month for annual plans. '.repeat(8)}`).join('\n\n');
    const tail = `${chunks}\n\nid=7 score=0.42 path=kb/x.md`;
    const [list] = pasted(`Refund window?\n\n${tail}`);
    assert.ok(list!.text.endsWith('path=kb/x.md'));
  });
});
