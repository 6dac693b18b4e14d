import { strict as assert } from 'node:assert';
import type { ChatRequest } from '../../../src/core/chat/types';
import { requestWithoutRetrievePromise } from '../../../src/core/flow/markerPromise';
import { findMarkers, formatMarker } from '../../../src/core/stash/marker';

const MARKER = formatMarker('12 "quoted" lines elided', 'hr_abcdefghijklmnop');

describe('markers without the retrieve promise', () => {
  it('takes the promise out of text, tool results and both kinds of call arguments, keeping summary and handle', () => {
    const request: ChatRequest = {
      format: 'neutral',
      tools: [],
      options: {},
      messages: [
        { role: 'user', parts: [{ type: 'text', text: `before ${MARKER} after` }], contentShape: 'parts' },
        { role: 'assistant', parts: [{ type: 'tool_call', id: 'a', name: 'edit', arguments: { old: MARKER } }, { type: 'tool_call', id: 'b', name: 'edit', arguments: JSON.stringify({ old: MARKER }) }], contentShape: 'parts' },
        { role: 'tool', parts: [{ type: 'tool_result', callId: 'a', content: [{ type: 'text', text: MARKER }], contentShape: 'parts' }], contentShape: 'parts' },
        { role: 'user', parts: [{ type: 'text', text: 'untouched' }], contentShape: 'parts' },
      ],
    };
    const out = requestWithoutRetrievePromise(request);
    const text = JSON.stringify(out.messages);
    assert.ok(!text.includes('retrieve hr_'));
    assert.equal(text.split('hr_abcdefghijklmnop').length - 1, 4);
    const found = findMarkers(JSON.stringify(out.messages[0]));
    assert.deepEqual(found.map((marker) => [marker.summary, marker.handle, marker.promiseless]), [['12 \\"quoted\\" lines elided', 'hr_abcdefghijklmnop', true]]);
    assert.equal(out.messages[3], request.messages[3], 'a message without markers is the same object');
    assert.equal(requestWithoutRetrievePromise(out), out, 'nothing left to take out');
  });
});
