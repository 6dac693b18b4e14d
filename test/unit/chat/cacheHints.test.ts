import { strict as assert } from 'node:assert';
import {
  applyCacheHints,
  bareContentIndex,
  barePartIndex,
  CACHE_CONTROL_MIME,
  contentKey,
  hintedContentIndex,
  hintedPartIndex,
  stripCacheHints,
} from '../../../src/core/chat/cacheHints';
import type { ChatMessage, DataPart } from '../../../src/core/chat/types';

const breakpoint: DataPart = { type: 'data', mimeType: CACHE_CONTROL_MIME, data: Buffer.from('ephemeral').toString('base64'), encoding: 'base64' };
const json = (value: unknown): string => JSON.stringify(value);

describe('cache hints', () => {
  const copilotTool: ChatMessage = {
    role: 'user',
    contentShape: 'parts',
    parts: [{ type: 'tool_result', callId: 'c1', contentShape: 'parts', content: [{ type: 'text', text: 'output' }, breakpoint] }],
  };
  const copilotText: ChatMessage = { role: 'user', contentShape: 'parts', parts: [breakpoint, { type: 'text', text: 'first' }, breakpoint, { type: 'text', text: 'second' }] };
  const anthropic: ChatMessage = {
    role: 'user',
    contentShape: 'parts',
    parts: [
      { type: 'text', text: 'a', extra: { citations: [], cache_control: { type: 'ephemeral' } } },
      { type: 'tool_result', callId: 'c2', contentShape: 'parts', content: [{ type: 'text', text: 'b', extra: { cache_control: { type: 'ephemeral' } } }], extra: { cache_control: { type: 'ephemeral', ttl: '1h' } } },
    ],
    extra: { copilot_cache_control: { type: 'ephemeral' }, other: 1 },
  };

  it('strips breakpoint parts and hint keys, and puts them back byte for byte', () => {
    for (const message of [copilotTool, copilotText, anthropic]) {
      const { bare, hints } = stripCacheHints(message);
      assert.ok(hints, 'hints found');
      assert.ok(!json(bare).includes('cache_control'), 'no hint left in the bare message');
      assert.equal(json(applyCacheHints(bare, hints)), json(message));
    }
  });

  it('leaves a message without hints as the same object', () => {
    const plain: ChatMessage = { role: 'assistant', contentShape: 'string', parts: [{ type: 'text', text: 'x', extra: { citations: [] } }] };
    const { bare, hints } = stripCacheHints(plain);
    assert.equal(bare, plain);
    assert.equal(hints, undefined);
    assert.equal(applyCacheHints(plain, undefined), plain);
  });

  it('keys two messages that differ only in where the hints are the same, and others apart', () => {
    const moved: ChatMessage = { ...copilotText, parts: [{ type: 'text', text: 'first' }, { type: 'text', text: 'second' }, breakpoint] };
    assert.equal(contentKey(moved), contentKey(copilotText));
    assert.notEqual(contentKey({ ...moved, parts: [{ type: 'text', text: 'first!' }, { type: 'text', text: 'second' }] }), contentKey(copilotText));
  });

  it('puts the current hints on a rewritten message', () => {
    const { bare, hints } = stripCacheHints(copilotText);
    const rewritten: ChatMessage = { ...bare, parts: [{ type: 'text', text: 'FIRST' }, bare.parts[1]!] };
    assert.equal(json(applyCacheHints(rewritten, hints).parts.map((part) => (part.type === 'text' ? part.text : part.type))), json(['data', 'FIRST', 'data', 'second']));
    const anthropicHints = stripCacheHints(anthropic);
    const shorter: ChatMessage = { ...anthropicHints.bare, parts: [{ type: 'text', text: 'A', extra: { citations: [] } }, anthropicHints.bare.parts[1]!] };
    const back = applyCacheHints(shorter, anthropicHints.hints);
    assert.deepEqual(back.parts[0], { type: 'text', text: 'A', extra: { citations: [], cache_control: { type: 'ephemeral' } } });
  });

  it('maps part and content indexes across breakpoint parts', () => {
    const { hints } = stripCacheHints(copilotText);
    // Bare parts: 0 'first', 1 'second'; with breakpoints: 1 and 3.
    assert.equal(hintedPartIndex(hints, 0), 1);
    assert.equal(hintedPartIndex(hints, 1), 3);
    assert.equal(barePartIndex(hints, 3), 1);
    assert.equal(barePartIndex(hints, 2), -1, 'a breakpoint part has no bare index');
    const tool = stripCacheHints({ ...copilotTool, parts: [{ type: 'tool_result', callId: 'c', contentShape: 'parts', content: [breakpoint, { type: 'text', text: 'o' }] }] });
    assert.equal(hintedContentIndex(tool.hints, 0, 0), 1);
    assert.equal(bareContentIndex(tool.hints, 0, 1), 0);
  });
});
