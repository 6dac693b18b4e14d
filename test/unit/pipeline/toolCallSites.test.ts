import { strict as assert } from 'node:assert';
import { parseRequest, type ChatRequest } from '../../../src/core/chat';
import { argumentStrings, withArgumentStrings } from '../../../src/core/chat/toolCallArguments';
import { expandRequest, Pipeline, sitesFrom, type Strategy } from '../../../src/core/pipeline';
import { MemoryBlobStore, Stash } from '../../../src/core/stash';
import { TokenCounter } from '../../../src/core/tokens';

const BODY = Array.from({ length: 30 }, (_, index) => `row ${index}`).join('\n');

/** Elides the `content` value of every history tool call. */
const elideContent: Strategy = {
  id: 'elide_content',
  defaultEnabled: true,
  apply(request, context) {
    const messages = request.messages.map((message, index) => {
      if (index < context.frozenCount || index >= context.freshStart) return message;
      return {
        ...message,
        parts: message.parts.map((part) => {
          if (part.type !== 'tool_call') return part;
          const values = argumentStrings(part.arguments);
          const at = values.indexOf(BODY);
          if (at < 0) return part;
          values[at] = context.stash.elide({ original: BODY, summary: '30 lines elided', kind: 'elide_content' }).replacement;
          return { ...part, arguments: withArgumentStrings(part.arguments, values) };
        }),
      };
    });
    return { request: { ...request, messages }, action: 'content-elided', reason: 'test' };
  },
};

function conversation(quoted: string): ChatRequest {
  return parseRequest({
    model: 'gpt-4o',
    messages: [
      { role: 'user', content: 'Write it.' },
      { role: 'assistant', content: null, tool_calls: [
        { id: 'c1', type: 'function', function: { name: 'create_file', arguments: JSON.stringify({ path: 'a.txt', content: BODY }) } },
        { id: 'c2', type: 'function', function: { name: 'note', arguments: JSON.stringify({ text: `copied: ${quoted}` }) } },
      ] },
      { role: 'tool', tool_call_id: 'c1', content: 'created' },
      { role: 'tool', tool_call_id: 'c2', content: 'noted' },
    ],
  });
}

describe('elision sites in tool-call arguments', () => {
  it('records where a strategy elided inside a tool call, so expansion restores it and leaves a copied marker as text', async () => {
    const stash = new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32).fill(3) });
    const replacement = new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32).fill(3) }).elide({ original: BODY, summary: '30 lines elided', kind: 'elide_content' }).replacement;
    const request = conversation(replacement);
    const result = await new Pipeline([elideContent], {}, { stash, tokens: new TokenCounter() }).run(request);
    const site = result.elisions.find((candidate) => candidate.messageIndex === 1);
    assert.ok(site, 'a site in the assistant message');
    assert.equal(site.partIndex, 0);
    assert.equal(site.contentIndex, 1, 'the second string value of the call: content');
    const expanded = await expandRequest(result.request, stash, sitesFrom(result.elisions));
    const calls = expanded.messages[1]!.parts;
    assert.deepEqual(calls.map((part) => (part.type === 'tool_call' ? part.arguments : undefined)), request.messages[1]!.parts.map((part) => (part.type === 'tool_call' ? part.arguments : undefined)));
    // Expanding by text alone takes the copy for an elision too: positions are what keeps it a quote.
    const byText = await expandRequest(result.request, stash);
    const note = byText.messages[1]!.parts[1]!;
    assert.ok(note.type === 'tool_call' && String(note.arguments).includes('row 29'));
  });
});
