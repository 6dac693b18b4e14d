import { strict as assert } from 'node:assert';
import { SiteIndex } from '../../../src/cli/siteIndex';
import { parseRequest } from '../../../src/core/chat';
import { formatMarker } from '../../../src/core/stash';

const MARKER = formatMarker('40 lines elided', 'hr_abcdefghijklmnop');

function optimized(notes: string) {
  return parseRequest({
    model: 'gpt-4o',
    messages: [
      { role: 'user', content: 'Look at the log.' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'bash', arguments: '{"command":"cat app.log"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: MARKER },
      { role: 'user', content: notes },
    ],
  });
}

describe('herald CLI elision site index', () => {
  it('answers for the texts an optimized request printed, by place and text, and nothing else', () => {
    const index = new SiteIndex();
    const request = optimized(`the model quoted ${MARKER}`);
    index.record(request, [{ messageIndex: 2, partIndex: 0, contentIndex: 0, handle: 'hr_abcdefghijklmnop', start: 0, length: MARKER.length }]);
    assert.deepEqual(index.sitesOf({ messageIndex: 2, partIndex: 0, contentIndex: 0 }, MARKER), [{ handle: 'hr_abcdefghijklmnop', start: 0, length: MARKER.length }]);
    assert.deepEqual(index.sitesOf({ messageIndex: 3, partIndex: 0, contentIndex: -1 }, `the model quoted ${MARKER}`), [], 'a text with a quoted marker and no elision is known: nothing to expand');
    assert.equal(index.sitesOf({ messageIndex: 3, partIndex: 0, contentIndex: -1 }, `another text ${MARKER}`), undefined, 'another text at the same place');
    assert.equal(index.sitesOf({ messageIndex: 4, partIndex: 0, contentIndex: -1 }, MARKER), undefined, 'the same text at another place');
    assert.equal(index.sitesOf({ messageIndex: 0, partIndex: 0, contentIndex: -1 }, 'Look at the log.'), undefined, 'texts without a marker are not kept');
    assert.equal(index.size, 2);
  });

  it('saves and loads, refuses another schema, drops malformed sites and keeps to its size', () => {
    const index = new SiteIndex();
    const nested = [{ handle: 'hr_abcdefghijklmnop', start: 0, length: MARKER.length, nested: [{ handle: 'hr_bbbbbbbbbbbbbbbb', start: 3, length: 9 }] }];
    index.record(optimized('plain'), nested.map((site) => ({ messageIndex: 2, partIndex: 0, contentIndex: 0, ...site })));
    const saved = JSON.parse(JSON.stringify(index)) as { schema: number; entries: [string, unknown][] };
    assert.deepEqual(SiteIndex.fromJSON(saved).sitesOf({ messageIndex: 2, partIndex: 0, contentIndex: 0 }, MARKER), nested);
    assert.throws(() => SiteIndex.fromJSON({ ...saved, schema: 0 }), /elision site index has schema 0, expected 1/);
    const malformed = { ...saved, entries: [[saved.entries[0]![0], [{ handle: 'hr_abcdefghijklmnop', start: '0', length: 3 }]]] };
    assert.equal(SiteIndex.fromJSON(malformed).size, 0);
    const small = new SiteIndex(2);
    for (let turn = 0; turn < 5; turn++) small.record(optimized(`${turn} ${MARKER}`), []);
    assert.equal(small.size, 2);
    assert.deepEqual(small.sitesOf({ messageIndex: 3, partIndex: 0, contentIndex: -1 }, `4 ${MARKER}`), []);
  });
});
